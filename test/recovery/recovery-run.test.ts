/**
 * Recovery across sessions, through the whole orchestrator (runPlan) with the in-process agent:
 * what debussy decides after a failure it has classified (condense harder, wait without spending a
 * retry, switch model, open the circuit, stop a crash loop). The in-process agent's `apiError` and
 * `crash` steps end a session as the claude driver reports the real CLI's (test/harness/
 * claude-errors.test.ts shows those shapes); test/e2e/recovery.test.ts keeps one session of each
 * through the real claude.
 */
import { describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../src/errors/index.js';
import { done, LoopProject, ofType, script, type ScriptStep, sessionsOf, success, touch, useLoopStateDir } from '../support/in-process-run.js';

useLoopStateDir();

/** The synthetic error the real CLI ends an API failure with (its `result` text). */
const apiError = (status: number, type: string, message: string, errorType = 'server_error'): ScriptStep =>
  ({ apiError: status, errorType, text: `API Error: ${status} {"type":"error","error":{"type":"${type}","message":"${message}"}}` });
const promptTooLong: ScriptStep = { apiError: 400, errorType: 'invalid_request', text: 'Prompt is too long: 212000 tokens > 200000 maximum' };
const prose = 'A long paragraph of background prose. '.repeat(40);
const finish = script({ call: 20_000 }, done, success);

async function withProject<T>(phases: Parameters<typeof LoopProject.create>[0], use: (project: LoopProject) => Promise<T>, git = false): Promise<T> {
  const project = LoopProject.create(phases, { git });
  try {
    return await use(project);
  } finally {
    project.cleanup();
  }
}

describe.concurrent('recovery across sessions, with an in-process agent', () => {
  it('a context overflow continues in a fresh session from a condensed checkpoint; a second overflow condenses harder', async () => {
    const work = script(
      { call: 20_000 }, { progress: 'parsed the input format; decided to keep the old API in src/api/v1.ts' }, touch('src/api/v1.ts', 'export const v1 = true;\n'),
      { call: 40_000 }, { progress: 'error: TypeError in src/parse.ts line 40, fixed by checking for null' }, touch('src/parse.ts', 'export function parse() { return null; }\n'),
      { call: 60_000 }, { progress: 'wrote the tests in test/parse.test.ts; they pass; the docs are next, with a long explanation of the rationale and background' },
      touch('docs/notes.md', `${prose}\n`), { say: prose }, promptTooLong,
    );
    const out = await withProject([{ id: '1', title: 'Overflowing' }], (p) => p.run([work, script({ call: 20_000 }, { say: prose }, { say: prose }, promptTooLong), finish]), true);
    expect(out.exitCode).toBe(EXIT_CODES.success.code);
    expect(ofType(out.events, 'recovery').map((e) => [e.failureClass, e.action])).toEqual([
      ['context_overflow', 'condensed_session'],
      ['context_overflow', 'condensed_session'],
    ]);
    const condensed = ofType(out.events, 'checkpoint_condensed');
    expect(condensed.map((c) => c.level)).toEqual([1, 2]);
    for (const c of condensed) expect(c.afterChars).toBeLessThan(c.beforeChars);
    expect(condensed[1]?.afterChars).toBeLessThan(condensed[0]?.afterChars ?? 0);
    expect(ofType(out.events, 'phase_ended')).toMatchObject([{ status: 'completed' }]);
    expect(out.agent.launches.slice(1).map((launch) => launch.resumeSessionId)).toEqual([undefined, undefined]);
  });

  it('a rate limit with a retry-after is waited out and resumed without using a restart or a retry', async () => {
    const limited = script({ call: 20_000 }, apiError(429, 'rate_limit_error', 'Rate limited: please retry after 1 seconds', 'rate_limit'));
    // max_retries 1: the crash after the wait can be retried only if the wait spent no retry.
    const crashed = script({ call: 25_000 }, { crash: 1 });
    const started = Date.now();
    const out = await withProject([{ id: '1', title: 'Rate limited' }], (p) => p.run([limited, crashed, finish], { config: { max_retries: 1 } }));
    expect(out.exitCode).toBe(EXIT_CODES.success.code);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(ofType(out.events, 'recovery').map((e) => [e.failureClass, e.action])).toEqual([['rate_limit', 'resume'], ['agent_crash', 'fresh_session']]);
    expect(ofType(out.events, 'recovery')[0]?.delayMs).toBeGreaterThanOrEqual(1000);
    expect(out.agent.launches[1]?.resumeSessionId).toBe('in-process-1');
    expect(out.state.phases['1']).toMatchObject({ status: 'completed', restarts: 0, retries: 1 });
  });

  it('repeated 529s switch to the fallback model after fallback_after of them, and the next session runs on it', async () => {
    const overloaded = apiError(529, 'overloaded_error', 'Overloaded');
    const out = await withProject([{ id: '1', title: 'Overloaded' }], (p) => p.run([(launch) => (launch.model?.includes('haiku') === true ? [{ call: 20_000 }, done, success] : [{ call: 20_000 }, overloaded])], {
      config: { model: 'claude-sonnet-4-5', fallback_models: ['haiku'], fallback_after: 2, max_retries: 3 },
    }));
    expect(out.exitCode).toBe(EXIT_CODES.success.code);
    expect(out.agent.launches.map((launch) => launch.model)).toEqual(['claude-sonnet-4-5', 'claude-sonnet-4-5', 'haiku']);
    expect(ofType(out.events, 'recovery').map((e) => [e.failureClass, e.action])).toEqual([['overloaded', 'resume'], ['overloaded', 'switch_model']]);
    expect(ofType(out.events, 'recovery')[1]?.model).toBe('haiku');
  });

  it('the circuit opens after failure_threshold failures and the run says how long it waits before the next session', async () => {
    const failing = script({ call: 20_000 }, apiError(500, 'api_error', 'Internal server error'));
    const config = { failure_threshold: 2, monitor_window: 60_000, reset_timeout: 300, half_open_successes: 1, max_retries: 5 };
    const out = await withProject([{ id: '1', title: 'Flaky API' }], (p) => p.run([failing, failing, failing, finish], { config }));
    expect(out.exitCode).toBe(EXIT_CODES.success.code);
    expect(sessionsOf(out.events)).toBe(4);
    expect(ofType(out.events, 'recovery').map((e) => e.failureClass)).toEqual(['server_error', 'server_error', 'server_error']);
    expect(ofType(out.events, 'recovery').find((e) => /circuit/i.test(e.reason))).toBeDefined();
    expect(out.notices).toContainEqual(expect.stringMatching(/^phase 1: waiting [\d.]+ s before the next session \(circuit\)$/));
  });

  it('a crash resumes from a checkpoint; the crash after max_crashes stops the run (exit 4) with a notification listing them', async () => {
    const crashing = script({ call: 20_000 }, touch('crash.txt', 'x\n'), { crash: 137 });
    const out = await withProject([{ id: '1', title: 'Crashing' }], (p) => p.run([crashing], { config: { max_retries: 10, notify_desktop: false } }));
    expect(out.exitCode).toBe(EXIT_CODES.circuitOpen.code);
    expect(out.exitCode).toBe(4);
    const recoveries = ofType(out.events, 'recovery');
    expect(recoveries.map((r) => r.failureClass)).toEqual(['agent_crash', 'agent_crash', 'agent_crash', 'agent_crash']);
    expect(recoveries.map((r) => r.action)).toEqual(['fresh_session', 'fresh_session', 'fresh_session', 'abort']);
    expect(sessionsOf(out.events)).toBe(4);
    expect(out.agent.launches[1]?.prompt).toMatch(/checkpoint/i);
    expect(out.agent.launches[1]?.resumeSessionId).toBeUndefined();
    const notification = out.notices.find((notice) => notice.includes('debussy gave up on phase 1')) ?? '';
    expect((notification.match(/- \S+ agent_crash \[phase 1\]/g) ?? []).length).toBe(4);
  });
});
