/**
 * Issue "nothing taken on faith": a full disk cut session logs short without a word, exit 0. A
 * session log that cannot be written is a warning when it happens, the session goes on, and the
 * end of the run names every incomplete log. Through the built debussy and the real claude against
 * the scripted server. Unprivileged: phase 1's agent links phase 2's log files to /dev/full (every
 * write fails with ENOSPC). As root where mounting works, a real full file system too: a tmpfs of
 * 16 KB over the sessions folder, which phase 2's logs fill part way. The journal, the run summary
 * and --json's run_summary for a log the agent reports incomplete: test/orchestrator/unwritable-logs.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { firstUserText, type RecordedRequest, type ScriptedTurn } from '../support/scripted-api.js';
import { E2EProject, eventsOf } from './e2e-project.js';
import { assistantTurns, bash, done, write } from './session-script.js';

let project: E2EProject | undefined;
let mounted: string | undefined;
afterEach(async () => {
  if (mounted !== undefined) execFileSync('umount', [mounted]);
  mounted = undefined;
  await project?.dispose();
  project = undefined;
});

const SESSIONS = '"$DEBUSSY_PROJECT_ROOT/.debussy/runs/$DEBUSSY_RUN_ID/sessions"';
const phaseOf = (req: RecordedRequest): string => /executing phase (\S+) /.exec(firstUserText(req))?.[1] ?? '?';

/** Phase 1 runs `prepare` (what breaks phase 2's logs), phase 2 writes some work; both signal done. */
function twoPhases(prepare: string): (req: RecordedRequest) => ScriptedTurn {
  const turns: Record<string, ScriptedTurn[]> = {
    '1': [bash(prepare), write('one.txt', 'one\n'), bash('debussy done --phase 1'), done()],
    '2': [write('two.txt', 'two\n'), bash('echo "some output for the log" && (sleep 1)'), bash('debussy done --phase 2'), done()],
  };
  return (req) => turns[phaseOf(req)]?.[assistantTurns(req)] ?? done();
}

const PHASES = [{ id: '1', title: 'Breaks the logs' }, { id: '2', title: 'Logs on a full disk' }];

async function expectRunCompleted(p: E2EProject, result: { code: number | null; stdout: string; stderr: string }): Promise<void> {
  expect(result.code, result.stdout + result.stderr).toBe(0);
  const events = await p.journal();
  expect(eventsOf(events, 'phase_ended').map((e) => [e.phaseId, e.status])).toEqual([['1', 'completed'], ['2', 'completed']]);
  expect(await p.git('log', '--name-only', '--format=', '-2')).toMatch(/two\.txt[\s\S]*one\.txt/);
}

describe.runIf(existsSync('/dev/full'))('a session log that cannot be written', () => {
  it('is a warning when it happens; the session and the run go on; the end names the incomplete logs', async () => {
    project = await E2EProject.create({
      phases: PHASES,
      script: twoPhases(`ln -s /dev/full ${SESSIONS}/2-01.log && ln -s /dev/full ${SESSIONS}/2-01.stream.ndjson`),
    });
    const result = await project.run(['run', project.planArg]);
    await expectRunCompleted(project, result);

    const events = await project.journal();
    const warnings = eventsOf(events, 'notice').filter((n) => n.level === 'warning' && n.phaseId === '2').map((n) => n.message);
    expect(warnings).toContainEqual(expect.stringMatching(/^session log \.debussy\/runs\/[^/]+\/sessions\/2-01\.log could not be written \(ENOSPC: no space left on device\): it is incomplete/));
    expect(warnings).toContainEqual(expect.stringMatching(/^session log \.debussy\/runs\/[^/]+\/sessions\/2-01\.stream\.ndjson could not be written \(ENOSPC/));
    const [phase1, phase2] = eventsOf(events, 'session_ended');
    expect(phase1?.incompleteLogs).toBeUndefined();
    expect(phase2?.incompleteLogs?.map((log) => path.basename(log.path))).toEqual(['2-01.stream.ndjson', '2-01.log']);

    // The end of the run, under the table.
    expect(result.stdout).toMatch(/incomplete session logs \(could not be written\): \.debussy\/runs\/[^/]+\/sessions\/2-01\.stream\.ndjson, \.debussy\/runs\/[^/]+\/sessions\/2-01\.log \(ENOSPC: no space left on device\)/);
    // Phase 1's log is whole (phase 2's files are links to /dev/full: never read them, they never end).
    const sessions = path.dirname(path.join(project.dir, phase2?.incompleteLogs?.[0]?.path ?? '.'));
    expect(readFileSync(path.join(sessions, '1-01.log'), 'utf8')).toContain('session ended: completed');
  });
});

/** Root, with mount(8), and a kernel that lets this process mount a tmpfs (not in most CI containers). */
function canMountTmpfs(): boolean {
  if (process.getuid?.() !== 0) return false;
  try {
    execFileSync('sh', ['-c', 'd=$(mktemp -d) && mount -t tmpfs -o size=16k tmpfs "$d" && umount "$d" && rmdir "$d"'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe.runIf(canMountTmpfs())('a file system that fills up during a session (root: a 16 KB tmpfs)', () => {
  it('keeps what was written, warns, and the end names the logs cut short', async () => {
    project = await E2EProject.create({ phases: PHASES, script: twoPhases(`mount -t tmpfs -o size=16k tmpfs ${SESSIONS}`) });
    const result = await project.run(['run', project.planArg]);
    const sessions = readFileSync('/proc/mounts', 'utf8').split('\n').map((line) => line.split(' ')[1] ?? '').find((where) => where.startsWith(project?.dir ?? '?'));
    mounted = sessions;
    expect(sessions).toMatch(/\/sessions$/);
    await expectRunCompleted(project, result);

    const log = path.join(sessions ?? '', '2-01.stream.ndjson');
    // Cut at a page or a few: what was written stays.
    expect(statSync(log).size).toBeGreaterThan(0);
    expect(statSync(log).size).toBeLessThanOrEqual(16 * 1024);
    expect(result.stdout).toMatch(/warning: phase 2: session log \.debussy\/runs\/[^/]+\/sessions\/2-01\.stream\.ndjson could not be written \(ENOSPC: no space left on device\)/);
    expect(result.stdout).toMatch(/incomplete session logs \(could not be written\): .*2-01\.stream\.ndjson/);
  });
});
