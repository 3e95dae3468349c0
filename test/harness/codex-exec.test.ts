/**
 * The other channel debussy could read: `codex exec --json` (0.171.0) plus the rollout file it
 * writes under $CODEX_HOME/sessions as it runs. Measured so the choice of channel has its figures.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it, onTestFinished } from 'vitest';
import { appServerCommand, debussyCodexHooks } from '../../src/agent/codex/codex-command.js';
import { EXEC_JSON_ARGS, rolloutFiles, type RunningCodex } from '../support/codex.js';
import { recordCodexFixture } from '../support/codex-fixtures.js';
import { useCodex, useCodexHome, useScriptedResponses } from '../support/codex-per-test.js';
import { findDescendants, isAlive } from '../support/process-tree.js';
import { contextOverflowError, execCommand, rateLimitError, toolOutputs } from '../support/scripted-responses.js';
import type { ResponsesTurn } from '../support/scripted-responses.js';
import { useTempGitRepo } from '../support/per-test.js';

type Line = Record<string, unknown>;

async function startExec(script: ResponsesTurn[], opts: { args?: string[]; retries?: number; prompt?: string } = {}) {
  const server = await useScriptedResponses({ script });
  const home = await useCodexHome({ baseUrl: server.baseUrl, retries: opts.retries });
  const cwd = await useTempGitRepo();
  const codex = useCodex({ cwd, home, stdin: 'ignore', args: [...EXEC_JSON_ARGS, ...(opts.args ?? []), opts.prompt ?? 'Do the task'] });
  return { server, home, cwd, codex };
}

const events = (lines: Array<{ value: unknown }>): Line[] => lines.map((l) => l.value).filter((v): v is Line => typeof v === 'object' && v !== null);

/** Polls the rollout file every 20 ms: when each of its lines was first seen on disk. */
function watchRollout(codex: RunningCodex): Array<{ at: number; record: Line }> {
  const seen: Array<{ at: number; record: Line }> = [];
  const timer = setInterval(() => {
    void (async () => {
      const [file] = await rolloutFiles(codex.home);
      if (file === undefined) return;
      const lines = (await readFile(file, 'utf8')).split('\n').filter((l) => l.trim() !== '');
      for (const line of lines.slice(seen.length)) {
        try {
          seen.push({ at: Date.now() - codex.startedAt, record: JSON.parse(line) as Line });
        } catch {
          return; // a line still being written: read it next time
        }
      }
    })();
  }, 20);
  onTestFinished(() => clearInterval(timer));
  void codex.done.then(() => setTimeout(() => clearInterval(timer), 200));
  return seen;
}

const payloadType = (r: Line) => `${String(r.type)}:${typeof (r.payload as Line | undefined)?.type === 'string' ? ((r.payload as Line).type as string) : ''}`;

describe('codex exec --json', () => {
  it('prints items and one thread-total usage per turn; the rollout on disk has each call usage as the tool starts, the window as it ends', async () => {
    const { server, codex } = await startExec([
      { kind: 'calls', calls: [execCommand('sleep 1; echo wrote', 'call_1')], usage: { input_tokens: 10_000, cached_tokens: 8_000, output_tokens: 50, reasoning_tokens: 10 } },
      { kind: 'text', text: 'Done here.', usage: { input_tokens: 10_200, cached_tokens: 10_000, output_tokens: 5 } },
    ]);
    const rollout = watchRollout(codex);
    const result = await codex.done;
    expect(result.exitCode).toBe(0);
    const lines = events(result.lines);
    expect(lines.map((l) => `${String(l.type)}${l.item === undefined ? '' : `:${String((l.item as Line).type)}`}`)).toEqual([
      'thread.started',
      'turn.started',
      'item.started:command_execution',
      'item.completed:command_execution',
      'item.completed:agent_message',
      'turn.completed',
    ]);
    expect(lines[3]?.item).toMatchObject({ command: "/bin/bash -c 'sleep 1; echo wrote'", aggregated_output: 'wrote\n', exit_code: 0, status: 'completed' });
    // The only usage on stdout: the sum over both calls, no window.
    expect(lines.at(-1)?.usage).toEqual({ input_tokens: 20_200, cached_input_tokens: 18_000, cache_write_input_tokens: 0, output_tokens: 55, reasoning_output_tokens: 10 });

    await new Promise((resolve) => setTimeout(resolve, 300));
    const records = rollout.map((r) => ({ at: r.at, type: payloadType(r.record), payload: r.record.payload as Line }));
    const usageRecords = records.filter((r) => r.type.startsWith('token_usage_record'));
    expect(usageRecords.map((r) => r.payload.response_id)).toEqual(['resp_scripted_0', 'resp_scripted_1']);
    expect(usageRecords[0]?.payload.usage).toEqual({ input_tokens: 10_000, cached_input_tokens: 8_000, cache_write_input_tokens: 0, output_tokens: 50, reasoning_output_tokens: 10, total_tokens: 10_050 });
    const toolStartedAt = result.lines.find((l) => (l.value as Line).type === 'item.started')!.at;
    // The call's usage is on disk while its 1 s tool runs. Both times are when this process saw the
    // line (the rollout is polled every 20 ms): the bounds leave half the tool's second for a late read.
    expect(usageRecords[0]!.at).toBeLessThanOrEqual(toolStartedAt + 500);
    const tokenCounts = records.filter((r) => r.type === 'event_msg:token_count');
    expect(tokenCounts).toHaveLength(2);
    expect(tokenCounts[0]?.payload.info).toMatchObject({ last_token_usage: { input_tokens: 10_000 }, model_context_window: 258_400 });
    const toolDoneAt = result.lines.find((l) => (l.value as Line).type === 'item.completed')!.at;
    expect(tokenCounts[0]!.at).toBeGreaterThanOrEqual(toolDoneAt - 500);
    expect(toolOutputs(server.responseRequests()[1]!)[0]?.output).toContain('wrote');

    await recordCodexFixture('tool-session', 'exec', result.lines.map((l) => l.raw), { exitCode: result.exitCode, signal: result.signal, stderr: '' });
    const [file] = await rolloutFiles(codex.home);
    await recordCodexFixture('exec-tool-session', 'rollout', (await readFile(file!, 'utf8')).split('\n').filter((l) => l !== ''));
  });

  it('exec resume <thread id> reports the thread total, earlier calls included', async () => {
    const { server, home, cwd, codex } = await startExec([{ kind: 'text', text: 'first', usage: { input_tokens: 1_000, output_tokens: 10 } }, { kind: 'text', text: 'second', usage: { input_tokens: 1_100, output_tokens: 10 } }]);
    const first = await codex.done;
    const threadId = String(events(first.lines)[0]?.thread_id);
    const resumed = useCodex({ cwd, home, stdin: 'ignore', args: ['exec', 'resume', '--json', '--dangerously-bypass-approvals-and-sandbox', '--skip-git-repo-check', threadId, 'Again'] });
    const result = await resumed.done;
    expect(result.exitCode).toBe(0);
    const lines = events(result.lines);
    expect(lines[0]).toEqual({ type: 'thread.started', thread_id: threadId });
    expect(lines.at(-1)?.usage).toMatchObject({ input_tokens: 2_100, output_tokens: 20 });
    expect(server.responseRequests()).toHaveLength(2);
  });

  it('refuses tool calls with an inline PreToolUse hook under --dangerously-bypass-hook-trust: no item for the blocked call, two warning error items', async () => {
    const { writeFile, rm } = await import('node:fs/promises');
    const stop = `/tmp/debussy-codex-exec-stop-${process.pid}-${Date.now()}`;
    await writeFile(stop, '');
    onTestFinished(() => rm(stop, { force: true }));
    const hookFlags = appServerCommand({ command: 'codex', hooks: debussyCodexHooks(stop) }).args.slice(1);
    const { server, codex } = await startExec([{ kind: 'calls', calls: [execCommand('echo x > x.txt')] }, { kind: 'text', text: 'stopped' }], {
      args: [...hookFlags, '--dangerously-bypass-hook-trust'],
    });
    const result = await codex.done;
    const lines = events(result.lines);
    expect(lines.filter((l) => (l.item as Line | undefined)?.type === 'command_execution')).toEqual([]);
    expect(lines.filter((l) => (l.item as Line | undefined)?.type === 'error').map((l) => (l.item as Line).message)).toEqual([
      '`--dangerously-bypass-hook-trust` is enabled. Enabled hooks may run without review for this invocation.',
      '`--dangerously-bypass-hook-trust` is enabled. Enabled hooks may run without review for this invocation.',
    ]);
    expect(toolOutputs(server.responseRequests()[1]!)[0]?.output).toMatch(/^Command blocked by PreToolUse hook: debussy: this session is stopping/);
  });

  it('reports errors only as text: a retried 429 and a context overflow end in turn.failed, exit 1', async () => {
    const { codex } = await startExec([rateLimitError(1), contextOverflowError()], { retries: 1 });
    const result = await codex.done;
    expect(result.exitCode).toBe(1);
    const lines = events(result.lines);
    const texts = lines.filter((l) => l.type === 'error' || (l.item as Line | undefined)?.type === 'error').map((l) => String(l.message ?? (l.item as Line).message));
    expect(texts[0]).toMatch(/^Reconnecting\.\.\. 1\/1/);
    expect(lines.at(-1)).toEqual({ type: 'turn.failed', error: { message: "Codex ran out of room in the model's context window. Start a new thread or clear earlier history before retrying." } });
    await recordCodexFixture('rate-limit-then-overflow', 'exec', result.lines.map((l) => l.raw), { exitCode: result.exitCode, signal: result.signal, stderr: '' });
  });

  async function toolRunning(codex: RunningCodex): Promise<number> {
    await codex.waitForLine((v) => (v as Line).type === 'item.started');
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      const [pid] = await findDescendants(codex.pid, /^sleep 30$/);
      if (pid !== undefined) return pid;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('the tool never started');
  }

  it('SIGINT during a tool: exit 1 without a turn event, the tool killed', async () => {
    const { codex } = await startExec([{ kind: 'calls', calls: [execCommand('sleep 30; echo after')] }]);
    const tool = await toolRunning(codex);
    codex.signal('SIGINT');
    const result = await codex.done;
    expect(result.exitCode).toBe(1);
    expect(events(result.lines).map((l) => l.type)).not.toContain('turn.completed');
    expect(events(result.lines).map((l) => l.type)).not.toContain('turn.failed');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await isAlive(tool)).toBe(false);
  });

  // `sleep 30; echo after` keeps bash as the sleep's parent; a bare `sleep 30` is exec'd by bash and dies with it.
  it('SIGTERM during a tool: the tool is ORPHANED', async () => {
    const { codex } = await startExec([{ kind: 'calls', calls: [execCommand('sleep 30; echo after')] }]);
    const tool = await toolRunning(codex);
    onTestFinished(() => {
      try {
        process.kill(tool, 'SIGKILL');
      } catch {
        // gone
      }
    });
    codex.signal('SIGTERM');
    await codex.done;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await isAlive(tool)).toBe(true);
  });
});
