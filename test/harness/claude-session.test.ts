import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runClaudeOnce } from '../support/claude.js';
import { recordStreamFixture } from '../support/fixtures.js';
import { useScriptedApi, useTempGitRepo } from '../support/per-test.js';
import { firstUserText } from '../support/scripted-api.js';
import type { ScriptedApi, ScriptedApiOptions } from '../support/scripted-api.js';
import { assistantMessages, initLine, resultLine, streamEvents, userContentBlocks } from '../support/stream-lines.js';

async function setup(options: ScriptedApiOptions): Promise<{ api: ScriptedApi; dir: string }> {
  return { api: await useScriptedApi(options), dir: await useTempGitRepo() };
}

type Block = { type: string; tool_use_id?: string; content?: unknown; is_error?: boolean };

describe('the real claude CLI against the scripted api', () => {
  it('runs a text-only session: prompt recorded, default 1M model reported, computed usage passed through', async () => {
    const { api, dir } = await setup({ script: [{ kind: 'text', text: 'Hello from the script' }] });
    const run = await runClaudeOnce({ cwd: dir, prompt: 'Say hello\nin two lines', apiUrl: api.url });

    expect(run.exitCode).toBe(0);
    expect(run.stderr).toBe('');
    // 2.1.197 sent `HEAD /` first; 2.1.332 starts with the request.
    expect(api.requests.filter((r) => r.method === 'HEAD')).toEqual([]);
    const [request] = api.mainRequests();
    expect(api.mainRequests()).toHaveLength(1);
    // The CLI passes stdin through verbatim (no newline added).
    expect(firstUserText(request!)).toBe('Say hello\nin two lines');
    expect(request?.headers['x-api-key']).toBe('test-key');
    // The default model has a 1M window of its own: no `[1m]` marker, no context-1m beta (2.1.197:
    // claude-opus-4-8 sent with the beta, `claude-opus-4-8[1m]` in init).
    expect(request?.body).toMatchObject({ model: 'claude-opus-5-5', stream: true });
    expect(String(request?.headers['anthropic-beta'])).not.toContain('context-1m');

    const init = initLine(run.lines);
    expect(init).toMatchObject({ model: 'claude-opus-5-5', cwd: expect.stringContaining('debussy-repo-') as string });
    expect(resultLine(run.lines)?.modelUsage).toMatchObject({ 'claude-opus-5-5': { contextWindow: 1_000_000 } });
    const [message] = assistantMessages(run.lines);
    expect(message?.usage).toMatchObject({ input_tokens: request?.trueTokens, cache_read_input_tokens: 0 });
    expect(resultLine(run.lines)).toMatchObject({ subtype: 'success', is_error: false, result: 'Hello from the script', terminal_reason: 'completed' });
  });

  it('runs a Bash tool_use for real in cwd and sends its tool_result in the next request', async () => {
    const { api, dir } = await setup({
      script: [
        { kind: 'tool_use', name: 'Bash', input: { command: 'echo hi > out.txt && echo wrote', description: 'Write out.txt' }, text: 'Writing the file.', id: 'toolu_write' },
        { kind: 'text', text: 'The file is written.' },
      ],
    });
    const run = await runClaudeOnce({ cwd: dir, prompt: 'Create out.txt containing hi', apiUrl: api.url });
    await recordStreamFixture('tool-use-session', run);

    expect(run.exitCode).toBe(0);
    expect(existsSync(join(dir, 'out.txt'))).toBe(true);
    expect(await readFile(join(dir, 'out.txt'), 'utf8')).toBe('hi\n');

    const [, second] = api.mainRequests();
    const messages = (second?.body as { messages: Array<{ role: string; content: unknown }> }).messages;
    const last = messages.at(-1);
    expect(last?.role).toBe('user');
    expect(last?.content).toEqual([expect.objectContaining({ type: 'tool_result', tool_use_id: 'toolu_write', content: 'wrote', is_error: false })]);
    expect(messages.at(-2)?.content).toEqual([
      { type: 'text', text: 'Writing the file.' },
      { type: 'tool_use', id: 'toolu_write', name: 'Bash', input: { command: 'echo hi > out.txt && echo wrote', description: 'Write out.txt' } },
    ]);

    // One assistant event per content block, both carrying the same message id and usage.
    const assistant = assistantMessages(run.lines);
    expect(assistant.map((m) => m.id)).toEqual(['msg_scripted_0', 'msg_scripted_0', 'msg_scripted_1']);
    expect(assistant[0]?.usage).toEqual(assistant[1]?.usage);
    expect(userContentBlocks(run.lines) as Block[]).toEqual([expect.objectContaining({ type: 'tool_result', tool_use_id: 'toolu_write' })]);
    expect(resultLine(run.lines)).toMatchObject({ is_error: false, num_turns: 2, result: 'The file is written.' });
  });

  it('passes scripted usage through to the assistant events', async () => {
    const usage = { input_tokens: 3, cache_read_input_tokens: 150_000, cache_creation_input_tokens: 2_000, output_tokens: 42 };
    const { api, dir } = await setup({ script: [{ kind: 'text', text: 'big context', usage }] });
    const run = await runClaudeOnce({ cwd: dir, prompt: 'go', apiUrl: api.url });
    expect(run.exitCode).toBe(0);
    expect(assistantMessages(run.lines)[0]?.usage).toMatchObject({
      input_tokens: 3,
      cache_read_input_tokens: 150_000,
      cache_creation_input_tokens: 2_000,
    });
    expect(resultLine(run.lines)?.usage).toMatchObject({ output_tokens: 42, cache_read_input_tokens: 150_000 });
  });

  it('sends the full model id for --model and reports a 200k model without [1m]', async () => {
    const { api, dir } = await setup({ script: [{ kind: 'text', text: 'ok' }] });
    const run = await runClaudeOnce({ cwd: dir, prompt: 'hi', apiUrl: api.url, extraArgs: ['--model', 'claude-sonnet-4-5'] });
    expect(run.exitCode).toBe(0);
    expect(api.mainRequests()[0]?.body).toMatchObject({ model: 'claude-sonnet-4-5' });
    expect(initLine(run.lines)?.model).toBe('claude-sonnet-4-5');
    expect(resultLine(run.lines)?.modelUsage).toMatchObject({ 'claude-sonnet-4-5': { contextWindow: 200_000 } });
  });

  it('delays the reply by latencyMs (the CLI measures it as time to first token)', async () => {
    const { api, dir } = await setup({ script: [{ kind: 'text', text: 'slow', latencyMs: 1_500 }] });
    const run = await runClaudeOnce({ cwd: dir, prompt: 'hi', apiUrl: api.url });
    expect(run.exitCode).toBe(0);
    const started = run.lines.find((l) => (l as { event?: { type?: string } }).event?.type === 'message_start') as { ttft_ms?: number } | undefined;
    expect(started?.ttft_ms).toBeGreaterThanOrEqual(1_500);
    expect(streamEvents(run.lines).map((e) => e.type)).toContain('message_stop');
  });
});

describe('a longer recorded session for parser tests', () => {
  it('runs several tools per turn (Write, Bash, Read) with growing scripted usage', async () => {
    const dir = await useTempGitRepo();
    const notes = join(dir, 'notes.md');
    const api = await useScriptedApi({
      script: [
        {
          kind: 'tool_use',
          text: 'I will write a file and list the directory.',
          uses: [
            { name: 'Write', input: { file_path: notes, content: '# Notes\n\nfirst line\n' } },
            { name: 'Bash', input: { command: 'ls', description: 'List files' } },
          ],
          usage: { input_tokens: 2_000, cache_read_input_tokens: 40_000, cache_creation_input_tokens: 3_000 },
        },
        { kind: 'tool_use', name: 'Read', input: { file_path: notes }, usage: { input_tokens: 500, cache_read_input_tokens: 45_000 } },
        { kind: 'text', text: 'Both done.', usage: { input_tokens: 300, cache_read_input_tokens: 46_000 } },
      ],
    });
    const run = await runClaudeOnce({ cwd: dir, prompt: 'Write notes.md, list files, read it back', apiUrl: api.url });
    await recordStreamFixture('multi-tool-session', run);

    expect(run.exitCode).toBe(0);
    expect(await readFile(join(dir, 'notes.md'), 'utf8')).toBe('# Notes\n\nfirst line\n');
    const results = userContentBlocks(run.lines) as Block[];
    expect(results).toHaveLength(3);
    // Write and Read results carry no is_error field at all; Bash ones say false.
    expect(results.map((b) => [b.type, b.is_error])).toEqual([
      ['tool_result', undefined],
      ['tool_result', false],
      ['tool_result', undefined],
    ]);
    expect(String(results[1]?.content)).toContain('notes.md');
    expect(String(results[2]?.content)).toContain('first line');
    const ids = assistantMessages(run.lines).map((m) => m.id);
    expect(ids).toEqual(['msg_scripted_0', 'msg_scripted_0', 'msg_scripted_0', 'msg_scripted_1', 'msg_scripted_2']);
    expect(api.mainRequests()).toHaveLength(3);
  });
});
