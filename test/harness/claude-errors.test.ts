import { describe, expect, it } from 'vitest';
import { runClaudeOnce } from '../support/claude.js';
import { recordStreamFixture } from '../support/fixtures.js';
import { useScriptedApi, useTempGitRepo } from '../support/per-test.js';
import type { ScriptedApi, ScriptedApiOptions, ScriptedTurn } from '../support/scripted-api.js';
import { assistantMessages, linesOfType, resultLine } from '../support/stream-lines.js';

async function setup(options: ScriptedApiOptions): Promise<{ api: ScriptedApi; dir: string }> {
  return { api: await useScriptedApi(options), dir: await useTempGitRepo() };
}

const overloaded: ScriptedTurn = { kind: 'error', status: 529, type: 'overloaded_error', message: 'Overloaded' };
const promptTooLong: ScriptedTurn = {
  kind: 'error',
  status: 400,
  type: 'invalid_request_error',
  message: 'prompt is too long: 250000 tokens > 200000 maximum',
};

interface ApiErrorCase {
  name: string;
  fixture?: string;
  script: ScriptedTurn[];
  maxRetries: number;
  requests: number;
  status: number;
  syntheticError: string;
  resultText: RegExp;
  terminalReason: string;
  retries: Array<Record<string, unknown>>;
}

const apiErrorCases: ApiErrorCase[] = [
  {
    name: '529 overloaded, no retries allowed',
    fixture: 'api-error-529',
    script: [overloaded],
    maxRetries: 0,
    requests: 1,
    status: 529,
    syntheticError: 'server_error',
    resultText: /^API Error: 529/,
    terminalReason: 'api_error',
    retries: [],
  },
  {
    name: '429 with retry-after: 1, one retry allowed',
    fixture: 'api-error-429-retry',
    script: Array.from({ length: 2 }, () => ({ kind: 'error', status: 429, type: 'rate_limit_error', message: 'Rate limited', headers: { 'retry-after': '1' } }) as const),
    maxRetries: 1,
    requests: 2,
    status: 429,
    syntheticError: 'rate_limit',
    resultText: /429/,
    terminalReason: 'api_error',
    // retry_delay_ms: the retry-after's 1000 ms, plus jitter since 2.1.332 (checked below).
    retries: [{ attempt: 1, max_retries: 1, error_status: 429 }],
  },
  {
    name: '401 authentication error',
    fixture: 'api-error-401',
    script: [{ kind: 'error', status: 401, type: 'authentication_error', message: 'invalid x-api-key' }],
    maxRetries: 0,
    requests: 1,
    status: 401,
    syntheticError: 'authentication_failed',
    resultText: /API key/,
    terminalReason: 'api_error',
    retries: [],
  },
  {
    name: '400 prompt is too long (never retried)',
    fixture: 'prompt-too-long',
    script: [promptTooLong, { kind: 'text', text: 'must not be requested' }],
    maxRetries: 2,
    requests: 1,
    status: 400,
    syntheticError: 'invalid_request',
    resultText: /^Prompt is too long/,
    terminalReason: 'prompt_too_long',
    retries: [],
  },
  {
    name: '500 with x-should-retry: false (not retried although retries are allowed)',
    script: [{ kind: 'error', status: 500, type: 'api_error', message: 'Internal', headers: { 'x-should-retry': 'false' } }, { kind: 'text', text: 'must not be requested' }],
    maxRetries: 2,
    requests: 1,
    status: 500,
    syntheticError: 'server_error',
    resultText: /500/,
    terminalReason: 'api_error',
    retries: [],
  },
  {
    name: '429 with retry-after over 60 s (gives up at once)',
    script: [{ kind: 'error', status: 429, type: 'rate_limit_error', message: 'Rate limited', headers: { 'retry-after': '120' } }, { kind: 'text', text: 'must not be requested' }],
    maxRetries: 2,
    requests: 1,
    status: 429,
    syntheticError: 'rate_limit',
    resultText: /429/,
    terminalReason: 'api_error',
    retries: [],
  },
];

describe('API errors through the real claude CLI', () => {
  it.each(apiErrorCases)('$name', async (c) => {
    const { api, dir } = await setup({ script: c.script });
    const run = await runClaudeOnce({ cwd: dir, prompt: 'go', apiUrl: api.url, env: { CLAUDE_CODE_MAX_RETRIES: String(c.maxRetries) } });
    if (c.fixture !== undefined) await recordStreamFixture(c.fixture, run);

    expect(run.exitCode).toBe(1);
    expect(run.stderr).toBe('');
    expect(api.mainRequests()).toHaveLength(c.requests);
    const synthetic = linesOfType(run.lines, 'assistant').at(-1);
    expect(synthetic).toMatchObject({ error: c.syntheticError, message: { model: '<synthetic>' } });
    const result = resultLine(run.lines);
    expect(result).toMatchObject({ subtype: 'success', is_error: true, api_error_status: c.status, terminal_reason: c.terminalReason });
    expect(String(result?.result)).toMatch(c.resultText);
    expect(linesOfType(run.lines, 'system', 'api_retry')).toEqual(c.retries.map((r) => expect.objectContaining(r) as unknown));
    for (const retry of linesOfType(run.lines, 'system', 'api_retry') as { retry_delay_ms?: number }[]) {
      expect(retry.retry_delay_ms).toBeGreaterThanOrEqual(1_000);
      expect(retry.retry_delay_ms).toBeLessThan(1_500);
    }
  });

  it('recovers when a retry succeeds and announces the retry', async () => {
    const { api, dir } = await setup({ script: [overloaded, { kind: 'text', text: 'recovered' }] });
    const run = await runClaudeOnce({ cwd: dir, prompt: 'go', apiUrl: api.url, env: { CLAUDE_CODE_MAX_RETRIES: '1' } });
    expect(run.exitCode).toBe(0);
    expect(api.mainRequests()).toHaveLength(2);
    expect(linesOfType(run.lines, 'system', 'api_retry')).toEqual([expect.objectContaining({ attempt: 1, error_status: 529 })]);
    expect(resultLine(run.lines)).toMatchObject({ is_error: false, result: 'recovered' });
  });

  it('x-should-retry: false stops the retry of a 529 too (2.1.197 retried it)', async () => {
    const { api, dir } = await setup({ script: [{ ...overloaded, headers: { 'x-should-retry': 'false' } }, { kind: 'text', text: 'must not be requested' }] });
    const run = await runClaudeOnce({ cwd: dir, prompt: 'go', apiUrl: api.url, env: { CLAUDE_CODE_MAX_RETRIES: '1' } });
    expect(run.exitCode).toBe(1);
    expect(api.mainRequests()).toHaveLength(1);
    expect(resultLine(run.lines)).toMatchObject({ is_error: true, api_error_status: 529, api_error_type: 'overloaded_error', terminal_reason: 'api_error' });
  });

  it('retries a stream dropped mid-way without streaming and goes on (rc 0)', async () => {
    const { api, dir } = await setup({ script: [{ kind: 'drop', afterEvents: 2 }, { kind: 'text', text: 'after the drop' }] });
    const run = await runClaudeOnce({ cwd: dir, prompt: 'go', apiUrl: api.url });
    await recordStreamFixture('dropped-stream', run);
    expect(run.exitCode).toBe(0);
    const [dropped, retried] = api.mainRequests();
    expect(dropped).toMatchObject({ aborted: true, body: { stream: true } });
    // 2.1.197 left `stream` out of the retry; 2.1.332 sends `stream: false`.
    expect((retried?.body as { stream?: boolean }).stream).toBe(false);
    expect(resultLine(run.lines)).toMatchObject({ is_error: false, result: 'after the drop' });
  });

  it('compacts by itself after prompt-too-long with two exchanges; the summary requests are main requests', async () => {
    const bash = (command: string): ScriptedTurn => ({ kind: 'tool_use', name: 'Bash', input: { command } });
    const summary: ScriptedTurn = { kind: 'text', text: 'SUMMARY OF WORK' };
    const { api, dir } = await setup({
      script: [bash('echo one'), bash('echo two'), promptTooLong, summary, summary, { kind: 'text', text: 'continued' }],
    });
    const run = await runClaudeOnce({ cwd: dir, prompt: 'go', apiUrl: api.url });
    await recordStreamFixture('auto-compaction', run);

    expect(run.exitCode).toBe(0);
    // 2.1.332 sends the summary request twice (2.1.197: once), then the original request again.
    expect(api.mainRequests()).toHaveLength(6);
    for (const index of [3, 4]) expect(JSON.stringify(api.mainRequests()[index]?.body)).toContain('Respond with TEXT ONLY');
    const boundary = linesOfType(run.lines, 'system', 'compact_boundary');
    expect(boundary).toEqual([expect.objectContaining({ compact_metadata: expect.objectContaining({ trigger: 'auto' }) as unknown })]);
    expect(JSON.stringify(api.mainRequests()[5]?.body)).toContain('SUMMARY OF WORK');
    expect(assistantMessages(run.lines).at(-1)?.content).toEqual([{ type: 'text', text: 'continued' }]);
  });
});
