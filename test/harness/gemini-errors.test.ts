/**
 * gemini 0.61.0's API failures through debussy's session and classification, against the scripted
 * Gemini server: a context overflow (a 400 whose words say so: result error, exit 144), an
 * exhausted daily quota (exit 173) and a bad key (exit 144 too): each lands in debussy's class, as
 * Claude Code's do. Each ends its gemini, so each has its own; a 429 gemini retries itself (a retry
 * notice on stderr) is shown by the first session of gemini-compression.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { AgentEvent } from '../../src/agent/agent-events.js';
import { startGeminiSession } from '../../src/agent/gemini/gemini-session.js';
import { classifySessionEnd } from '../../src/recovery/classify.js';
import { GEMINI_BIN, GEMINI_TEST_MODEL, geminiEnv, useGeminiHome, useScriptedGemini } from '../support/gemini.js';
import type { GeminiTurn } from '../support/scripted-gemini.js';

async function session(script: GeminiTurn[]) {
  const cwd = mkdtempSync(path.join(tmpdir(), 'debussy-gemini-cwd-'));
  onTestFinished(() => rmSync(cwd, { recursive: true, force: true }));
  const server = await useScriptedGemini({ script });
  const events: AgentEvent[] = [];
  const started = startGeminiSession({ command: GEMINI_BIN, cwd, env: geminiEnv(useGeminiHome(), server), prompt: 'go', model: GEMINI_TEST_MODEL, stopGraceMs: 2_000, onEvent: (event) => events.push(event) });
  const end = await started.ended;
  return { end, events, classified: end.outcome === 'completed' ? undefined : classifySessionEnd({ end, stoppedBy: undefined, refusals: [] }) };
}

describe('gemini 0.61.0 errors, classified', () => {
  it('a context overflow: result error, exit 144, class context_overflow', async () => {
    const { end, classified } = await session([{ kind: 'http_error', status: 400, message: 'The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).' }]);
    expect(end).toMatchObject({ outcome: 'api_error', exitCode: 144, result: { terminalReason: 'prompt_too_long', apiErrorStatus: 400 } });
    expect(classified?.class).toBe('context_overflow');
  });

  it('a bad API key: class authentication, not retried', async () => {
    const { end, classified } = await session([{ kind: 'http_error', status: 400, message: 'API key not valid. Please pass a valid API key.', details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com' }] }]);
    expect(end.exitCode).toBe(144);
    expect(classified).toMatchObject({ class: 'authentication', retryable: false });
  });

  it('an exhausted daily quota: exit 173, a rate limit', async () => {
    const quota: GeminiTurn = {
      kind: 'http_error', status: 429, message: 'You exceeded your current quota.',
      details: [{ '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [{ quotaMetric: 'generativelanguage.googleapis.com/generate_content_paid_tier_input_token_count', quotaId: 'GenerateContentPaidTierInputTokensPerModelPerDay' }] }],
    };
    const { end, classified } = await session([quota, quota]);
    expect(end.exitCode).toBe(173);
    expect(classified?.class).toBe('rate_limit');
  });
});
