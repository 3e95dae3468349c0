/**
 * A session log that cannot be written (a full disk) is a warning when it happens, the session and
 * the run go on, and the end of the run names it: through the whole orchestrator (runPlan) with the
 * in-process agent, whose `logFails` step reports a log failure as a driver's SessionLogs does.
 * What a real full disk does to the real claude session's logs stays in
 * test/e2e/unwritable-logs.test.ts; SessionLogs itself is test/agent/session-logs.test.ts's.
 */
import { describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../src/errors/index.js';
import { renderRunSummary, summarizeRun } from '../../src/report/run-summary.js';
import { done, LoopProject, ofType, script, success, touch, useLoopStateDir } from '../support/in-process-run.js';

useLoopStateDir();

describe('a session log that cannot be written', () => {
  it('is a warning notice when it happens; the session and the run go on; the run summary lists the incomplete log', async () => {
    const project = LoopProject.create([{ id: '1', title: 'Logs fine' }, { id: '2', title: 'Logs on a full disk' }], { git: true });
    try {
      const out = await project.run([
        script({ call: 20_000 }, touch('one.txt', 'one\n'), done, success),
        script({ call: 20_000 }, { logFails: 'readable' }, touch('two.txt', 'two\n'), { call: 25_000 }, done, success),
      ]);
      expect(out.exitCode).toBe(EXIT_CODES.success.code);
      expect(ofType(out.events, 'phase_ended').map((e) => [e.phaseId, e.status])).toEqual([['1', 'completed'], ['2', 'completed']]);
      expect(project.committed()).toEqual(expect.arrayContaining(['one.txt', 'two.txt']));

      const warnings = ofType(out.events, 'notice').filter((n) => n.level === 'warning' && n.phaseId === '2').map((n) => n.message);
      expect(warnings).toEqual([expect.stringMatching(/^session log \.debussy\/runs\/[^/]+\/sessions\/2-01\.log could not be written \(ENOSPC: no space left on device\): it is incomplete/)]);
      const [phase1, phase2] = ofType(out.events, 'session_ended');
      expect(phase1?.incompleteLogs).toBeUndefined();
      expect(phase2?.incompleteLogs).toEqual([{ path: expect.stringMatching(/^\.debussy\/runs\/[^/]+\/sessions\/2-01\.log$/) as unknown, error: 'ENOSPC: no space left on device' }]);

      // --json passes the journal's notice through and ends with run_summary (summarizeRun); the end of the run prints the line under the table.
      expect(summarizeRun(out.state).incompleteLogs).toEqual([{ phaseId: '2', path: expect.stringMatching(/sessions\/2-01\.log$/) as unknown, error: 'ENOSPC: no space left on device' }]);
      expect(renderRunSummary(out.state)).toMatch(/incomplete session logs \(could not be written\): \.debussy\/runs\/[^/]+\/sessions\/2-01\.log \(ENOSPC: no space left on device\)/);
    } finally {
      project.cleanup();
    }
  });
});
