/**
 * Issue 16, usage limits, through the real claude CLI against the scripted server: with
 * subscription auth claude turns the API's unified rate-limit headers into its rate_limit_event
 * (the reset as an epoch); debussy commits, waits for the reset and the phase continues from a
 * checkpoint by itself, using no restart and no retry. The limits told in text (a clock in a zone,
 * the pipe-epoch text, a reset beyond max_wait: exit 10) are debussy's reading alone, shown in
 * process: test/recovery/usage-limit-run.test.ts.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RecordedRequest, ScriptedTurn } from '../support/scripted-api.js';
import { E2EProject, eventsOf } from './e2e-project.js';
import { assistantTurns, bash, done, sessionKind, write } from './session-script.js';

let project: E2EProject | undefined;
afterEach(async () => {
  await project?.dispose();
  project = undefined;
});

/** Turn 1 writes a file, turn 2 hits the limit (once); the session after the wait finishes the phase. */
function limitedScript(limit: () => ScriptedTurn) {
  let hit = false;
  return (req: RecordedRequest): ScriptedTurn => {
    if (sessionKind(req) === 'checkpoint') return [bash('debussy done --phase 1'), done()][assistantTurns(req)] ?? done();
    const turn = assistantTurns(req);
    if (turn === 0) return write('before-limit.txt', 'written before the limit\n');
    if (!hit) {
      hit = true;
      return limit();
    }
    return done();
  };
}

async function expectWaitedAndResumed(p: E2EProject, source: string): Promise<void> {
  const events = await p.journal();
  const limits = eventsOf(events, 'usage_limit');
  expect(limits.map((e) => e.stage)).toEqual(['started', 'ended']);
  expect(limits[0]).toMatchObject({ phaseId: '1', kind: 'five_hour', source });
  // Restarts and retries untouched: no recovery decision, every attempt at restart 0 / retry 0.
  expect(eventsOf(events, 'recovery')).toEqual([]);
  expect(eventsOf(events, 'attempt_started').map((a) => [a.kind, a.restart, a.retry])).toEqual([['initial', 0, 0], ['resume', 0, 0]]);
  expect(eventsOf(events, 'phase_ended')).toMatchObject([{ phaseId: '1', status: 'completed' }]);
  // The work before the limit was committed before the wait.
  const checkpoint = eventsOf(events, 'commit').find((c) => c.purpose === 'checkpoint');
  expect(checkpoint).toBeDefined();
  expect(await p.git('show', '--name-only', '--format=%s', checkpoint?.sha ?? 'HEAD')).toContain('before-limit.txt');
  expect(existsSync(path.join(p.dir, 'before-limit.txt'))).toBe(true);
}

describe('a usage limit', () => {
  it('rate_limit_event (subscription auth, reset as an epoch a few seconds away): commits, waits, resumes by itself', async () => {
    let resetSeconds = 0;
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Limited' }],
      script: limitedScript(() => {
        resetSeconds = Math.ceil(Date.now() / 1000) + 4;
        return {
          kind: 'error', status: 429, type: 'rate_limit_error', message: 'usage limit',
          headers: { 'anthropic-ratelimit-unified-status': 'rejected', 'anthropic-ratelimit-unified-reset': String(resetSeconds), 'anthropic-ratelimit-unified-representative-claim': 'five_hour', 'x-should-retry': 'false' },
        };
      }),
    });
    // claude reads the unified rate-limit headers only with subscription (OAuth) auth.
    const result = await project.run(['run', project.planArg], { ANTHROPIC_API_KEY: '', CLAUDE_CODE_OAUTH_TOKEN: 'test-oauth-token' });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    await expectWaitedAndResumed(project, 'rate_limit_event');
    const limits = eventsOf(await project.journal(), 'usage_limit');
    expect(limits[0]?.resetAt).toBe(resetSeconds * 1000);
    expect(limits[0]?.until).toBe(resetSeconds * 1000 + 1000);
    expect(limits[1]?.waitedMs).toBeGreaterThanOrEqual(2000);
    // The checkpoint session started only after the reset.
    const resumedAt = project.api.mainRequests().find((r) => sessionKind(r) === 'checkpoint')?.receivedAt ?? 0;
    expect(resumedAt).toBeGreaterThanOrEqual(resetSeconds * 1000);
    // Notified when the wait started and when the phase resumed.
    expect(result.stdout).toContain('debussy is waiting for a usage limit (five_hour) to reset');
    expect(result.stdout).toContain('debussy resumes phase 1: the usage limit (five_hour) has reset');
  }, 120_000);
});
