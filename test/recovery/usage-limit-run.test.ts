/**
 * Issue 16, usage limits told in text, in process: a limit hit mid-phase is committed, waited out
 * and the phase continues from a checkpoint by itself, using no restart and no retry; a reset
 * beyond max_wait ends the run (exit 10) with the time and the command. The texts are claude's:
 * "You've hit your session limit · resets <clock> (<zone>)" and "Claude AI usage limit
 * reached|<epoch>". The whole orchestrator (runPlan, real git) with the in-process agent; the
 * rate_limit_event of the real claude stream (subscription auth) stays in
 * test/e2e/usage-limit.test.ts.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../src/errors/index.js';
import { zonedTime } from '../../src/recovery/usage-limit.js';
import { done, LoopProject, type LoopOutcome, ofType, type ScriptStep, type SessionScript, success, touch, useLoopStateDir } from '../support/in-process-run.js';

useLoopStateDir();

/** Turn 1 writes a file, turn 2 hits the limit; the checkpoint session after the wait finishes the phase. */
const limited = (text: string): SessionScript => (launch) => /checkpoint/i.test(launch.prompt)
  ? [{ call: 20_000 }, done, success]
  : [{ call: 20_000 }, touch('before-limit.txt', 'written before the limit\n'), { call: 25_000 }, { apiError: 429, errorType: 'rate_limit_error', text } satisfies ScriptStep];

/** Runs `body` with the process's time zone set to `zone` (this file's tests run one at a time). */
async function inZone<T>(zone: string, body: () => Promise<T>): Promise<T> {
  const saved = process.env.TZ;
  process.env.TZ = zone;
  try {
    return await body();
  } finally {
    if (saved === undefined) delete process.env.TZ;
    else process.env.TZ = saved;
  }
}

function expectWaitedAndResumed(project: LoopProject, out: LoopOutcome, source: string): void {
  const limits = ofType(out.events, 'usage_limit');
  expect(limits.map((e) => e.stage)).toEqual(['started', 'ended']);
  expect(limits[0]).toMatchObject({ phaseId: '1', kind: 'five_hour', source });
  // Restarts and retries untouched: no recovery decision, every attempt at restart 0 / retry 0.
  expect(ofType(out.events, 'recovery')).toEqual([]);
  expect(ofType(out.events, 'attempt_started').map((a) => [a.kind, a.restart, a.retry])).toEqual([['initial', 0, 0], ['resume', 0, 0]]);
  expect(ofType(out.events, 'phase_ended')).toMatchObject([{ phaseId: '1', status: 'completed' }]);
  // The work before the limit was committed before the wait.
  const checkpoint = ofType(out.events, 'commit').find((c) => c.purpose === 'checkpoint');
  expect(checkpoint).toBeDefined();
  expect(project.git('show', '--name-only', '--format=%s', checkpoint?.sha ?? 'HEAD')).toContain('before-limit.txt');
  expect(existsSync(path.join(project.dir, 'before-limit.txt'))).toBe(true);
}

describe('a usage limit told in text', () => {
  it('"resets <clock> (<zone>)" is read in that zone, whatever TZ says; the phase resumes by itself', async () => {
    // The clock time of this minute in Paris, as claude prints it ("3:07pm", no seconds): just passed.
    const parts = new Intl.DateTimeFormat('en-US', { timeZone: 'Europe/Paris', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: '2-digit', hourCycle: 'h23' }).formatToParts(new Date());
    const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
    const expectedReset = zonedTime(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), 'Europe/Paris') ?? 0;
    const hour12 = get('hour') % 12 === 0 ? 12 : get('hour') % 12;
    const clock = `${hour12}:${String(get('minute')).padStart(2, '0')}${get('hour') < 12 ? 'am' : 'pm'}`;
    const project = LoopProject.create([{ id: '1', title: 'Limited' }], { git: true });
    try {
      const out = await inZone('America/New_York', () => project.run([limited(`You've hit your session limit · resets ${clock} (Europe/Paris)`)]));
      expect(out.exitCode).toBe(EXIT_CODES.success.code);
      expectWaitedAndResumed(project, out, 'text');
      expect(ofType(out.events, 'usage_limit')[0]?.resetAt).toBe(expectedReset);
      // Told when the wait started and when the phase resumed.
      expect(out.printed).toContain('debussy is waiting for a usage limit (five_hour) to reset');
      expect(out.printed).toContain('debussy resumes phase 1: the usage limit (five_hour) has reset');
    } finally {
      project.cleanup();
    }
  });

  it('a reset beyond max_wait ("usage limit reached|<epoch>") ends the run with exit 10, the reset time and the command; the work is committed', async () => {
    const resetSeconds = Math.floor(Date.now() / 1000) + 7 * 3600;
    const project = LoopProject.create([{ id: '1', title: 'Limited' }], { git: true });
    try {
      const out = await inZone('UTC', () => project.run([limited(`Claude AI usage limit reached|${resetSeconds}`)], { config: { max_wait: 6 * 3_600_000 } }));
      expect(out.exitCode).toBe(EXIT_CODES.usageLimit.code);
      const resetText = new Date(resetSeconds * 1000).toISOString().slice(0, 16).replace('T', ' ');
      expect(out.printed).toContain(`Resume after ${resetText} (UTC): debussy run ${project.planPath}`);
      expect(ofType(out.events, 'usage_limit')).toMatchObject([{ stage: 'beyond_max_wait', resetAt: resetSeconds * 1000, source: 'text' }]);
      expect(ofType(out.events, 'run_ended')).toMatchObject([{ status: 'interrupted', exitCode: EXIT_CODES.usageLimit.code }]);
      expect(ofType(out.events, 'recovery')).toEqual([]);
      expect(project.git('status', '--porcelain')).toBe('');
      expect(project.committed()).toContain('before-limit.txt');
    } finally {
      project.cleanup();
    }
  });
});
