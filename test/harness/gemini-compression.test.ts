/**
 * gemini 0.61.0 compresses its history by itself once a call's prompt passes
 * model.compressionThreshold of the window (0.5 by default), with a summary request of its own
 * (a non-streaming generateContent) that no hook can refuse; it can only split at a prompt of the
 * user's, so it shows in a resumed session. debussy's session moves the threshold above its stop
 * point, in the session's own settings: then the same session does not compress.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { startGeminiSession } from '../../src/agent/gemini/gemini-session.js';
import { GEMINI_BIN, GEMINI_TEST_MODEL, geminiEnv, useGeminiHome, useScriptedGemini } from '../support/gemini.js';
import { shellCall } from '../support/scripted-gemini.js';

async function resumedSession(compressionThreshold: number | undefined) {
  const cwd = mkdtempSync(path.join(tmpdir(), 'debussy-gemini-cwd-'));
  onTestFinished(() => rmSync(cwd, { recursive: true, force: true }));
  // The resumed session's first call reports 600,000 prompt tokens (57% of the 1,048,576 window).
  const server = await useScriptedGemini({ script: (_req, i) => (i === 1 ? { kind: 'calls', calls: [shellCall('echo big', 'c1')], usage: { promptTokenCount: 600_000 } } : { kind: 'text', text: `reply ${i}` }) });
  const env = geminiEnv(useGeminiHome(), server);
  const start = (prompt: string, resumeSessionId?: string) =>
    startGeminiSession({ command: GEMINI_BIN, cwd, env, prompt, model: GEMINI_TEST_MODEL, stopGraceMs: 2_000, ...(compressionThreshold === undefined ? {} : { compressionThreshold }), ...(resumeSessionId === undefined ? {} : { resumeSessionId }) }).ended;
  const first = await start('first prompt');
  const second = await start('second prompt', first.sessionId);
  return { second, summaries: server.requests.filter((r) => r.action === 'generateContent') };
}

describe("gemini's history compression", () => {
  it("compresses at gemini's default threshold (0.5 of the window)", async () => {
    const { second, summaries } = await resumedSession(undefined);
    expect(second.outcome).toBe('completed');
    // Measured: two side requests (its summary, then a check of it).
    expect(summaries.length).toBeGreaterThan(0);
  });

  it("does not, with the threshold debussy sets above its stop point (0.9 here)", async () => {
    const { second, summaries } = await resumedSession(0.9);
    expect(second.outcome).toBe('completed');
    expect(summaries).toHaveLength(0);
  });
});
