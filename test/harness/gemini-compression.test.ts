/**
 * gemini 0.61.0 compresses its history by itself once a call's prompt passes
 * model.compressionThreshold of the window (0.5 by default), with a summary request of its own
 * (a non-streaming generateContent) that no hook can refuse; it can only split at a prompt of the
 * user's, so it shows in a resumed session. debussy's session moves the threshold above its stop
 * point, in the session's own settings: then the same session does not compress.
 *
 * One first session is resumed twice (debussy's threshold first, so that its resume finds the
 * history uncompressed); the first session also shows a 429 gemini retries by itself.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { AgentEvent } from '../../src/agent/agent-events.js';
import { startGeminiSession } from '../../src/agent/gemini/gemini-session.js';
import { GEMINI_BIN, GEMINI_TEST_MODEL, geminiEnv, useGeminiHome, useScriptedGemini } from '../support/gemini.js';
import { contents, shellCall, type GeminiTurn, type RecordedGeminiRequest } from '../support/scripted-gemini.js';

/** The text of the request's newest part ('' when it is a tool's answer). */
function newestText(req: RecordedGeminiRequest): string {
  const parts = contents(req).at(-1)?.parts;
  const part: unknown = Array.isArray(parts) ? parts.at(-1) : undefined;
  return typeof part === 'object' && part !== null && 'text' in part && typeof part.text === 'string' ? part.text : '';
}

describe("gemini's history compression (and its own retry of a 429)", () => {
  it("a 429 is retried by gemini itself; a resumed session compresses at gemini's default threshold (0.5 of the window), not at the one debussy sets above its stop point (0.9 here)", async () => {
    const cwd = mkdtempSync(path.join(tmpdir(), 'debussy-gemini-cwd-'));
    onTestFinished(() => rmSync(cwd, { recursive: true, force: true }));
    let limited = false;
    const script = (req: RecordedGeminiRequest): GeminiTurn => {
      const prompt = newestText(req);
      if (prompt === 'first prompt' && !limited) {
        limited = true;
        return { kind: 'http_error', status: 429, message: 'Resource has been exhausted (e.g. check quota).', details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '1s' }] };
      }
      // A resumed session's first call reports 600,000 prompt tokens (57% of the 1,048,576 window).
      if (prompt === 'second prompt' || prompt === 'third prompt') return { kind: 'calls', calls: [shellCall('echo big', `c-${prompt}`)], usage: { promptTokenCount: 600_000 } };
      return { kind: 'text', text: `reply to ${prompt === '' ? 'a tool' : prompt}` };
    };
    const server = await useScriptedGemini({ script });
    const env = geminiEnv(useGeminiHome(), server);
    const start = (prompt: string, options: { compressionThreshold?: number; resumeSessionId?: string; onEvent?: (event: AgentEvent) => void }) =>
      startGeminiSession({ command: GEMINI_BIN, cwd, env, prompt, model: GEMINI_TEST_MODEL, stopGraceMs: 2_000, ...options }).ended;
    const summaries = () => server.requests.filter((r) => r.action === 'generateContent').length;

    const events: AgentEvent[] = [];
    const first = await start('first prompt', { onEvent: (event) => events.push(event) });
    expect(first.outcome).toBe('completed');
    const retries = events.filter((e) => e.type === 'api_retry');
    expect(retries).toEqual([expect.objectContaining({ attempt: 1, errorStatus: 429 })]);
    // gemini waits longer than the server's retryDelay (1s): its own backoff with jitter.
    expect(retries[0]?.delayMs).toBeGreaterThanOrEqual(1_000);
    expect(summaries()).toBe(0);

    const withDebussysThreshold = await start('second prompt', { compressionThreshold: 0.9, resumeSessionId: first.sessionId });
    expect(withDebussysThreshold.outcome).toBe('completed');
    expect(summaries()).toBe(0);

    const withDefault = await start('third prompt', { resumeSessionId: first.sessionId });
    expect(withDefault.outcome).toBe('completed');
    // Measured: two side requests (its summary, then a check of it).
    expect(summaries()).toBeGreaterThan(0);
  });
});
