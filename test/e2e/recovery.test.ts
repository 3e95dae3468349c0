/**
 * Issue 5 acceptance through the real claude CLI: the recovery paths that cross process boundaries
 * (a 429 resumed with --resume after waiting its retry-after, a stream that stalls and the watchdog
 * ending the real process, a SIGKILLed agent and its orphans). How the real CLI reports each error
 * shape is in test/harness/claude-errors.test.ts (its recorded streams are classified in
 * test/recovery/classify.test.ts); what recovery decides for them is in process:
 * test/recovery/recovery-run.test.ts (a context overflow condensed, fallback models, the circuit,
 * the crash loop) and test/recovery/recovery-real-shapes-run.test.ts (the 401 abort, the switch
 * after one 529). A context overflow through the real CLI is in test/e2e/session-settings.test.ts;
 * a secret of the environment echoed by a tool, in test/e2e/streamed-secrets.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RecordedRequest, ScriptedTurn } from '../support/scripted-api.js';
import { E2EProject, eventsOf } from './e2e-project.js';
import { livePids, waitFor } from './processes.js';
import { assistantTurns, bash, done, scriptBySession, sessionKind, write } from './session-script.js';

let project: E2EProject | undefined;
afterEach(async () => {
  await project?.dispose();
  project = undefined;
});

const FAST = { claude_max_retries: 0, backoff_base: '100ms', backoff_max: '1s' };
const DONE_TURNS = (id = '1'): ScriptedTurn[] => [bash(`debussy done --phase ${id}`), done()];

describe('rate limits', () => {
  it('429 with retry-after: waits at least that long, resumes, and completes', async () => {
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
  });
});

describe('stalls and crashes', () => {
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

  it('the agent SIGKILLed mid-tool: a crash, no orphan, resumed in a fresh session from a checkpoint', async () => {
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Crashing' }],
      config: { ...FAST, stop_grace: '500ms' },
      script: scriptBySession({ fresh: [write('crash.txt', 'x\n'), bash('(sleep 33)')], checkpoint: DONE_TURNS() }),
    });
    const run = project.start(['run', project.planArg]);
    await waitFor('sleep 33', async () => eventsOf(await project!.journal(), 'session_started').length === 1 && livePids(/^sleep 33$/).length > 0);
    const pid = eventsOf(await project.journal(), 'session_started')[0]?.agentPid ?? 0;
    expect(pid).toBeGreaterThan(0);
    process.kill(pid, 'SIGKILL');
    const result = await run.done;
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(livePids(/^sleep 33$/)).toEqual([]);
    const events = await project.journal();
    expect(eventsOf(events, 'recovery')).toMatchObject([{ failureClass: 'agent_crash', action: 'fresh_session' }]);
    expect(eventsOf(events, 'recovery')[0]?.message).toContain('killed by SIGKILL');
    expect(project.api.mainRequests().filter((r) => sessionKind(r) === 'checkpoint').length).toBeGreaterThanOrEqual(1);
    expect(eventsOf(events, 'phase_ended')).toMatchObject([{ status: 'completed' }]);
  }, 60_000);
});

/** In a session continued with --resume, its earlier assistant turns are in the history. */
function countAssistantBeforeResume(req: RecordedRequest): number {
  const body = req.body as { messages?: { role?: string; content?: unknown }[] } | undefined;
  const messages = body?.messages ?? [];
  const at = messages.findIndex((m) => m.role === 'user' && JSON.stringify(m.content ?? '').includes('debussy resumed this session'));
  return at < 0 ? 0 : messages.slice(0, at).filter((m) => m.role === 'assistant').length;
}
