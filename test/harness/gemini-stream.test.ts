/**
 * What debussy relies on from the real gemini 0.61.0's stream and chat file, against the scripted
 * Gemini server: the stream-json events and their order, each call's tokens in the chat file
 * (input includes cached), a response's tool_use printed before its usage reaches the chat file,
 * and debussy's parsers turning both into AgentEvents.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { chatLineEvents, newChatFileState } from '../../src/agent/gemini/chat-file.js';
import { newGeminiStreamState, parseGeminiLine } from '../../src/agent/gemini/stream-events.js';
import { newTotals } from '../../src/agent/call-usage.js';
import { chatRecords, geminiEnv, runGemini, useGeminiHome, useScriptedGemini } from '../support/gemini.js';
import { functionResponses, shellCall } from '../support/scripted-gemini.js';

function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'debussy-gemini-cwd-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe('gemini 0.61.0 stream-json and chat file', () => {
  it('prints init, tool_use, tool_result, the text and a success result; the chat file has each call once with its tokens', async () => {
    const server = await useScriptedGemini({
      script: [
        { kind: 'calls', calls: [shellCall('echo hi > out.txt && echo done', 'c1')], text: 'Running.', usage: { promptTokenCount: 600_000, cachedContentTokenCount: 500_000, candidatesTokenCount: 40, thoughtsTokenCount: 7 } },
        { kind: 'text', text: 'All done.' },
      ],
    });
    const home = useGeminiHome();
    const cwd = tempDir();
    const run = await runGemini({ cwd, env: geminiEnv(home, server), prompt: 'Say hi' });
    expect(run.exitCode).toBe(0);
    expect(run.lines.map((l) => l.value.type)).toEqual(['init', 'message', 'message', 'tool_use', 'tool_result', 'message', 'result']);
    expect(run.lines[3]?.value).toMatchObject({ tool_name: 'run_shell_command', tool_id: 'run_shell_command__c1', parameters: { command: 'echo hi > out.txt && echo done' } });
    expect(run.lines[4]?.value).toMatchObject({ tool_id: 'run_shell_command__c1', status: 'success', output: 'done' });
    // The result has the run's totals only, never a call's.
    expect(run.lines[6]?.value).toMatchObject({ status: 'success', stats: { input_tokens: 600_000 + server.modelRequests()[1]!.trueTokens } });
    expect(functionResponses(server.modelRequests()[1]!)).toHaveLength(1);

    const records = await chatRecords(path.join(home, '.gemini'));
    const calls = records.filter((r) => r.type === 'gemini');
    // Written when the response ends, and again under the same id once its tools have run.
    expect(calls.map((r) => r.id)).toEqual([calls[0]!.id, calls[0]!.id, calls[2]!.id]);
    expect(calls[0]!.tokens).toMatchObject({ input: 600_000, cached: 500_000, output: 40, thoughts: 7 });
    expect(calls[2]!.tokens).toMatchObject({ input: server.modelRequests()[1]!.trueTokens, cached: 0 });

    // debussy's parsers: one usage per call (the context is the input, cached included), then the stream's events.
    const totals = newTotals();
    const chat = newChatFileState();
    const usage = records.flatMap((record) => chatLineEvents(JSON.stringify(record), chat, totals));
    expect(usage).toEqual([
      expect.objectContaining({ type: 'usage', contextTokens: 600_000, cacheReadTokens: 500_000, inputTokens: 100_000 }),
      { type: 'output_usage', outputTokens: 47 },
      expect.objectContaining({ type: 'usage', contextTokens: server.modelRequests()[1]!.trueTokens }),
      expect.objectContaining({ type: 'output_usage' }),
    ]);
    const state = newGeminiStreamState({ cwd });
    const events = run.lines.flatMap((l) => parseGeminiLine(JSON.stringify(l.value), state));
    expect(events.map((e) => e.type)).toEqual(['init', 'assistant_text', 'tool_start', 'tool_result', 'assistant_text']);
    expect(events[2]).toMatchObject({ name: 'Bash', input: { command: 'echo hi > out.txt && echo done' }, summary: 'Bash: echo hi > out.txt && echo done' });
    expect(state.runEnd).toMatchObject({ status: 'success' });
    expect(state.unparsedLines).toBe(0);
  });

  it('passes the environment to its shell commands (the session marker that finds them after a crash)', async () => {
    const server = await useScriptedGemini({ script: [{ kind: 'calls', calls: [shellCall('printf "%s" "$DEBUSSY_SESSION_MARKER"', 'c1')] }, { kind: 'text', text: 'ok' }] });
    const home = useGeminiHome();
    const run = await runGemini({ cwd: tempDir(), env: { ...geminiEnv(home, server), DEBUSSY_SESSION_MARKER: 'marker-123' }, prompt: 'go' });
    expect(run.lines.find((l) => l.value.type === 'tool_result')?.value).toMatchObject({ output: 'marker-123' });
  });
});
