/**
 * Issue 5 acceptance through the real claude CLI: every failure is classified and recovered by
 * strategy, loops are bounded, the user is told, and secrets reach no file debussy writes.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import type { RecordedRequest, ScriptedTurn } from '../support/scripted-api.js';
import { E2EProject, eventsOf } from './e2e-project.js';
import { livePids, waitFor } from './processes.js';
import { assistantTurns, bash, done, sessionKind, write } from './session-script.js';

let project: E2EProject | undefined;
afterEach(async () => {
  await project?.dispose();
  project = undefined;
});

const FAST = { claude_max_retries: 0, backoff_base: '100ms', backoff_max: '1s' };
const modelOf = (req: RecordedRequest) => (req.body as { model?: string }).model ?? '';
const DONE_TURNS = (id = '1'): ScriptedTurn[] => [bash(`debussy done --phase ${id}`), done()];

describe('context overflow', () => {
  it('continues in a fresh session with a condensed checkpoint, condensing harder on the next overflow', async () => {
    const tooLong: ScriptedTurn = { kind: 'error', status: 400, type: 'invalid_request_error', message: 'prompt is too long: 212000 tokens > 200000 maximum' };
    let checkpointSessions = 0;
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Overflowing' }],
      config: FAST,
      script: (req) => {
        const kind = sessionKind(req);
        const turn = assistantTurns(req);
        if (kind === 'fresh') {
          const work: ScriptedTurn[] = [
            bash('debussy progress --phase 1 --message "parsed the input format; decided to keep the old API in src/api/v1.ts"'),
            write('src/api/v1.ts', 'export const v1 = true;\n'),
            bash('debussy progress --phase 1 --message "error: TypeError in src/parse.ts line 40, fixed by checking for null"'),
            write('src/parse.ts', 'export function parse() { return null; }\n'),
            bash('debussy progress --phase 1 --message "wrote the tests in test/parse.test.ts; they pass; the docs are next, with a long explanation of the rationale and background"'),
            write('docs/notes.md', `${'A long paragraph of background prose. '.repeat(40)}\n`),
          ];
          return work[turn] ?? tooLong;
        }
        if (turn === 0) checkpointSessions += 1;
        return checkpointSessions <= 1 ? tooLong : (DONE_TURNS()[turn] ?? done());
      },
    });
    const result = await project.run(['run', project.planArg]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const events = await project.journal();
    expect(eventsOf(events, 'recovery').map((e) => [e.failureClass, e.action])).toEqual([
      ['context_overflow', 'condensed_session'],
      ['context_overflow', 'condensed_session'],
    ]);
    const condensed = eventsOf(events, 'checkpoint_condensed');
    expect(condensed.map((c) => c.level)).toEqual([1, 2]);
    for (const c of condensed) expect(c.afterChars).toBeLessThan(c.beforeChars);
    expect(condensed[1]?.afterChars).toBeLessThan(condensed[0]?.afterChars ?? 0);
    expect(eventsOf(events, 'phase_ended')).toMatchObject([{ status: 'completed' }]);
  });
});

describe('rate limits and overload', () => {
  it('429 with retry-after: waits at least that long, resumes, and completes without using a restart or a retry', async () => {
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Rate limited' }],
      config: FAST,
      script: (req, mainIndex) =>
        mainIndex === 0
          ? { kind: 'error', status: 429, type: 'rate_limit_error', message: 'Rate limited: please retry after 2 seconds', headers: { 'retry-after': '2' } }
          : (DONE_TURNS()[assistantTurns(req) - (mainIndex > 0 ? countAssistantBeforeResume(req) : 0)] ?? done()),
    });
    const result = await project.run(['run', project.planArg]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const main = project.api.mainRequests();
    expect((main[1]?.receivedAt ?? 0) - (main[0]?.receivedAt ?? 0)).toBeGreaterThanOrEqual(2000);
    const events = await project.journal();
    expect(eventsOf(events, 'recovery')).toMatchObject([{ failureClass: 'rate_limit' }]);
    expect(eventsOf(events, 'recovery')[0]?.delayMs).toBeGreaterThanOrEqual(2000);
    const status = JSON.parse((await project.run(['status', '--json'])).stdout) as { run: { phases: Record<string, { restarts: number; retries: number }> } };
    expect(status.run.phases['1']).toMatchObject({ restarts: 0, retries: 0 });
  });

  it('repeated 529: switches to the fallback model', async () => {
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Overloaded' }],
      config: { ...FAST, fallback_models: ['haiku'], fallback_after: 2, max_retries: 3 },
      script: (req) => (modelOf(req).includes('haiku') ? (DONE_TURNS()[assistantTurns(req)] ?? done()) : { kind: 'error', status: 529, type: 'overloaded_error', message: 'Overloaded' }),
    });
    const result = await project.run(['run', project.planArg]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const models = project.api.mainRequests().map(modelOf);
    expect(models.some((m) => m.includes('sonnet'))).toBe(true);
    expect(models[models.length - 1]).toContain('haiku');
    const events = await project.journal();
    expect(eventsOf(events, 'recovery').map((e) => e.action)).toContain('switch_model');
  });

  it('401: no retry; the run stops within seconds with its exit code and a message about the key', async () => {
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Bad key' }],
      config: FAST,
      script: () => ({ kind: 'error', status: 401, type: 'authentication_error', message: 'invalid x-api-key' }),
    });
    const started = Date.now();
    const result = await project.run(['run', project.planArg]);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(result.code).toBe(3);
    expect(project.api.mainRequests()).toHaveLength(1);
    expect(result.stdout).toMatch(/API key/i);
    const events = await project.journal();
    expect(eventsOf(events, 'recovery')).toMatchObject([{ failureClass: 'authentication', action: 'abort' }]);
  });
});

describe('stalls, crashes and circuits', () => {
  it('a stream that stalls after its headers is ended by the watchdog and recovery proceeds', async () => {
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Stalled' }],
      config: { ...FAST, stall_timeout: '2s' },
      script: (req, mainIndex) => (mainIndex === 0 ? { kind: 'stall', afterHeaders: true } : (DONE_TURNS()[assistantTurns(req) - countAssistantBeforeResume(req)] ?? done())),
    });
    const result = await project.run(['run', project.planArg]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const events = await project.journal();
    expect(eventsOf(events, 'stop_requested')[0]?.reason).toContain('no event from the session for 2 s');
    expect(eventsOf(events, 'recovery')[0]).toMatchObject({ failureClass: 'stall' });
    expect(eventsOf(events, 'phase_ended')).toMatchObject([{ status: 'completed' }]);
  });

  it('the agent SIGKILLed mid-tool: a crash, no orphan, resumed from a checkpoint; four crashes stop with the crash-loop exit code and a notification', async () => {
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Crashing' }],
      config: { ...FAST, max_retries: 10, stop_grace: '500ms' },
      script: (req) => [write(`crash-${Date.now()}.txt`, 'x\n'), bash('(sleep 33)')][assistantTurns(req)] ?? done(),
    });
    const run = project.start(['run', project.planArg]);
    const killedPids: number[] = [];
    for (let crash = 1; crash <= 4; crash++) {
      await waitFor(`sleep 33 for crash ${crash}`, async () => {
        const sessions = eventsOf(await project!.journal(), 'session_started');
        const pid = sessions[sessions.length - 1]?.agentPid;
        return sessions.length === crash && livePids(/^sleep 33$/).length > 0 && pid !== undefined && !killedPids.includes(pid);
      });
      const sessions = eventsOf(await project.journal(), 'session_started');
      const pid = sessions[sessions.length - 1]?.agentPid ?? 0;
      killedPids.push(pid);
      process.kill(pid, 'SIGKILL');
      if (crash === 1) {
        await waitFor('the resumed session', async () => eventsOf(await project!.journal(), 'session_started').length === 2);
        expect(livePids(/^sleep 33$/).length).toBeLessThanOrEqual(1); // only the new session's, if any
      }
    }
    const result = await run.done;
    expect(result.code, result.stdout + result.stderr).toBe(4);
    expect(livePids(/^sleep 33$/)).toEqual([]);
    const events = await project.journal();
    const recoveries = eventsOf(events, 'recovery');
    expect(recoveries.map((r) => r.failureClass)).toEqual(['agent_crash', 'agent_crash', 'agent_crash', 'agent_crash']);
    expect(recoveries[0]?.action).toBe('fresh_session');
    expect(recoveries[3]?.action).toBe('abort');
    const restarted = project.api.mainRequests().filter((r) => sessionKind(r) === 'checkpoint');
    expect(restarted.length).toBeGreaterThanOrEqual(1);
    expect(result.stdout).toMatch(/debussy gave up on phase 1/);
    // The notification lists the four crashes.
    expect((result.stdout.match(/- \S+ agent_crash \[phase 1\]/g) ?? []).length).toBe(4);
  }, 120_000);

  it('the circuit opens after the configured failures and the run says when it will try again', async () => {
    let failuresLeft = 3;
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Flaky API' }],
      config: { ...FAST, failure_threshold: 2, monitor_window: '60s', reset_timeout: '2s', half_open_successes: 1, max_retries: 5 },
      script: (req) => {
        if (failuresLeft > 0) {
          failuresLeft -= 1;
          return { kind: 'error', status: 500, type: 'api_error', message: 'Internal server error' };
        }
        return DONE_TURNS()[assistantTurns(req) - countAssistantBeforeResume(req)] ?? done();
      },
    });
    const result = await project.run(['run', project.planArg]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const events = await project.journal();
    const circuit = eventsOf(events, 'recovery').find((e) => /circuit/i.test(e.reason));
    expect(circuit).toBeDefined();
    expect(result.stdout).toMatch(/circuit/i);
    expect(result.stdout).toMatch(/waiting [\d.]+ s before the next session \(circuit\)/);
  }, 90_000);
});

describe('secrets', () => {
  it('a secret in the environment echoed by a tool appears nowhere in .debussy/ or in git', async () => {
    const secret = 'sekrit-value-8c1f5e2a9d';
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Leaky' }],
      script: (req) => [bash('echo "the token is $MY_SERVICE_TOKEN"'), bash('debussy progress --phase 1 --message "used $MY_SERVICE_TOKEN"'), ...DONE_TURNS()][assistantTurns(req)] ?? done(),
    });
    const result = await project.run(['run', project.planArg], { MY_SERVICE_TOKEN: secret });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    // The tool really printed it (the model saw it), so redaction had something to do.
    expect(project.api.mainRequests().some((r) => JSON.stringify(r.body).includes(secret))).toBe(true);
    const inDebussy = spawnSync('grep', ['-rl', secret, '.debussy'], { cwd: project.dir, encoding: 'utf8' });
    expect(inDebussy.status, inDebussy.stdout).toBe(1); // grep: no match
    expect(execFileSync('grep', ['-rc', 'REDACTED', '.debussy'], { cwd: project.dir, encoding: 'utf8' })).toMatch(/:[1-9]/);
    const history = execFileSync('git', ['log', '-p', '--all', '--format=%B'], { cwd: project.dir, encoding: 'utf8' });
    expect(history).not.toContain(secret);
  });
});

/** In a session continued with --resume, its earlier assistant turns are in the history. */
function countAssistantBeforeResume(req: RecordedRequest): number {
  const body = req.body as { messages?: { role?: string; content?: unknown }[] } | undefined;
  const messages = body?.messages ?? [];
  const at = messages.findIndex((m) => m.role === 'user' && JSON.stringify(m.content ?? '').includes('debussy resumed this session'));
  return at < 0 ? 0 : messages.slice(0, at).filter((m) => m.role === 'assistant').length;
}
