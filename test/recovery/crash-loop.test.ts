import { describe, expect, it } from 'vitest';
import { CrashLoopGuard, DEFAULT_CRASH_LOOP_CONFIG, parseCrashLoopSnapshot } from '../../src/recovery/index.js';

function manualClock(start = 5_000_000): { now: () => number; advance: (ms: number) => void } {
  let t = start;
  return { now: () => t, advance: (ms) => (t += ms) };
}

const MINUTE = 60_000;

describe('CrashLoopGuard', () => {
  it('defaults: 3 crashes in 10 minutes', () => {
    expect(DEFAULT_CRASH_LOOP_CONFIG).toEqual({ max_crashes: 3, crash_window: 600_000 });
  });

  it('the fourth crash within the window stops automatic restarts', () => {
    const clock = manualClock();
    const guard = new CrashLoopGuard({}, clock.now);
    for (let i = 1; i <= 3; i += 1) {
      expect(guard.recordCrash('2', `killed by SIGKILL #${i}`).looping).toBe(false);
      clock.advance(2 * MINUTE);
    }
    const status = guard.recordCrash('2', 'killed by SIGKILL #4');
    expect(status).toMatchObject({ phaseId: '2', crashesInWindow: 4, looping: true, maxCrashes: 3, windowMs: 600_000 });
    expect(status.crashes.map((c) => c.message)).toEqual(['killed by SIGKILL #1', 'killed by SIGKILL #2', 'killed by SIGKILL #3', 'killed by SIGKILL #4']);
  });

  it('crashes spread over more than the window never loop', () => {
    const clock = manualClock();
    const guard = new CrashLoopGuard({}, clock.now);
    for (let i = 0; i < 10; i += 1) {
      expect(guard.recordCrash('1', 'crash').looping).toBe(false);
      clock.advance(4 * MINUTE);
    }
  });

  it('counts per phase', () => {
    const clock = manualClock();
    const guard = new CrashLoopGuard({ max_crashes: 1 }, clock.now);
    guard.recordCrash('a', 'x');
    expect(guard.recordCrash('b', 'y').looping).toBe(false);
    expect(guard.recordCrash('a', 'z').looping).toBe(true);
    expect(guard.status('b').crashesInWindow).toBe(1);
  });

  it('a loop ends by itself once the window has passed', () => {
    const clock = manualClock();
    const guard = new CrashLoopGuard({ max_crashes: 1, crash_window: 10 * MINUTE }, clock.now);
    guard.recordCrash('1', 'x');
    guard.recordCrash('1', 'x');
    expect(guard.status('1').looping).toBe(true);
    clock.advance(10 * MINUTE);
    expect(guard.status('1')).toMatchObject({ looping: false, crashesInWindow: 0 });
  });

  it('survives a resume through JSON; clear forgets a phase', () => {
    const clock = manualClock();
    const guard = new CrashLoopGuard({}, clock.now);
    for (let i = 0; i < 4; i += 1) guard.recordCrash('3', `crash ${i}`);
    const resumed = CrashLoopGuard.fromSnapshot(JSON.parse(JSON.stringify(guard)), {}, clock.now);
    expect(resumed.status('3')).toEqual(guard.status('3'));
    resumed.clear('3');
    expect(resumed.status('3').crashesInWindow).toBe(0);
  });

  it('drops crashes outside the window from the snapshot; rejects malformed snapshots', () => {
    const clock = manualClock();
    const guard = new CrashLoopGuard({}, clock.now);
    guard.recordCrash('1', 'old');
    clock.advance(11 * MINUTE);
    guard.recordCrash('2', 'new');
    expect(Object.keys(guard.toJSON().phases)).toEqual(['2']);
    expect(parseCrashLoopSnapshot({ version: 1, phases: { a: [{ at: 'x', message: 'm' }] } })).toBeUndefined();
    expect(parseCrashLoopSnapshot({ version: 1, phases: [] })).toBeUndefined();
    expect(CrashLoopGuard.fromSnapshot(42).toJSON()).toEqual({ version: 1, phases: {} });
  });
});
