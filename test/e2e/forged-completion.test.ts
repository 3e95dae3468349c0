/**
 * A journal anyone can write: the agent leaves a process behind that appends a completion to the
 * run's journal once the run has ended, and the next run must not take it for debussy's verdict.
 * Through the built binary and the real claude CLI against the scripted server.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RecordedRequest, ScriptedTurn } from '../support/scripted-api.js';
import { firstUserText } from '../support/scripted-api.js';
import { E2EProject, eventsOf } from './e2e-project.js';
import { waitFor } from './processes.js';
import { assistantTurns, bash, done, write } from './session-script.js';

let project: E2EProject | undefined;
let scratch: string | undefined;
afterEach(async () => {
  await project?.dispose();
  project = undefined;
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  scratch = undefined;
});

/** The agent's tool call that leaves a process outside debussy's reach (no markers, its own session) running `script`. */
const leaveBehind = (script: string, ...args: string[]): ScriptedTurn =>
  bash(`env -u DEBUSSY_OWNER -u DEBUSSY_SESSION_MARKER setsid sh ${script} ${args.join(' ')} >/dev/null 2>&1 </dev/null &`);

/** A shell script that waits for the run to end (its journal's run_ended) and then does `then` to $J. */
function forgerScript(dir: string, then: string): string {
  const file = path.join(dir, 'forge.sh');
  writeFileSync(file, [
    'J="$1"',
    'i=0',
    'until grep -q \'"run_ended"\' "$J" 2>/dev/null; do sleep 0.2; i=$((i+1)); [ $i -gt 900 ] && exit 1; done',
    'sleep 0.5',
    then,
    '',
  ].join('\n'));
  return file;
}

const journalOf = '"$PWD/.debussy/runs/$DEBUSSY_RUN_ID/journal.ndjson"';

function runIds(dir: string): string[] {
  return readdirSync(path.join(dir, '.debussy/runs')).filter((name) => !name.startsWith('.')).sort();
}

const phaseOf = (req: RecordedRequest): string => /executing phase (\S+) /.exec(firstUserText(req))?.[1] ?? '?';

/** A script per round of the test and per phase: the turns of each session, picked by how far the session is. */
function scriptByRound(round: () => number, turns: Record<string, ScriptedTurn[]>) {
  return (req: RecordedRequest): ScriptedTurn => turns[`${round()}:${phaseOf(req)}`]?.[assistantTurns(req)] ?? done();
}

describe('a completion appended to the journal after the run ended', () => {
  it('does not make the next run skip the phase: its gates run again, and the user is told why', async () => {
    scratch = mkdtempSync(path.join(tmpdir(), 'debussy-forge-'));
    const forged = JSON.stringify({ type: 'phase_ended', phaseId: '1', status: 'completed', v: 1, ts: new Date().toISOString(), pid: 4242 });
    const forger = forgerScript(scratch, `printf '%s\\n' '${forged}' >> "$J"`);
    let round = 1;
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Forged', gates: [{ name: 'check', command: 'test -f done.txt' }] }],
      script: scriptByRound(() => round, {
        // The agent does not do the work; it leaves a forger behind and signals done.
        '1:1': [leaveBehind(forger, journalOf), bash('debussy done --phase 1'), done()],
        '2:1': [write('done.txt', 'done\n'), bash('debussy done --phase 1'), done()],
      }),
      config: { max_retries: 0, regression_gates: 'off' },
    });

    const first = await project.run(['run', project.planArg]);
    expect(first.code, first.stdout + first.stderr).toBe(1);
    const [firstRun = ''] = runIds(project.dir);
    const journal = path.join(project.dir, '.debussy/runs', firstRun, 'journal.ndjson');
    await waitFor('the forged completion in the ended run\'s journal', () => readFileSync(journal, 'utf8').includes('"pid":4242'), 30_000);
    expect(readFileSync(journal, 'utf8').trimEnd().split('\n').at(-1)).toBe(forged);

    // status says what it cannot believe, and --json carries it.
    const status = await project.run(['status']);
    expect(status.stdout).toMatch(/Note: debussy cannot prove it recorded the completion of phase 1 in this journal \(it carries no seal of debussy/);
    const statusJson = JSON.parse((await project.run(['status', '--json'])).stdout) as { run: { unproven?: unknown[] } };
    expect(statusJson.run.unproven).toMatchObject([{ type: 'phase_ended', phaseId: '1', status: 'completed', why: 'unsealed' }]);
    const dry = JSON.parse((await project.run(['run', '--dry-run', '--json', project.planArg])).stdout) as { phases: { id: string; action: string; note: string }[] };
    expect(dry.phases).toMatchObject([{ id: '1', action: 'verify', note: expect.stringContaining(`its completion recorded in run ${firstRun} cannot be proven`) as string }]);

    round = 2;
    const requestsBefore = project.api.mainRequests().length;
    const second = await project.run(['run', project.planArg]);
    expect(second.code, second.stdout + second.stderr).toBe(0);
    const told = `phase 1: its completion recorded in run ${firstRun} cannot be proven: it carries no seal of debussy (another process wrote it, or a debussy from before sealed journals); its gates run again before it counts as done (--trust-completed skips this)`;
    expect(second.stdout + second.stderr).toContain(told);
    expect(second.stdout + second.stderr).not.toMatch(/phase 1 already complete/);
    const events = await project.journal();
    expect(eventsOf(events, 'notice').map((n) => n.message)).toContain(told);
    // Its gates ran first and failed, so the agent worked on it (a paid session), and then they passed.
    expect(eventsOf(events, 'baseline_result')[0]).toMatchObject({ phaseId: '1', name: 'check', passed: false, reverify: true });
    // The failed first run's baseline is carried too (the phase resumes where that run left it).
    expect(eventsOf(events, 'baseline_result').slice(1)).toMatchObject(eventsOf(events, 'baseline_result').slice(1).map(() => ({ phaseId: '1', passed: false, fromRunId: firstRun })));
    expect(project.api.mainRequests().length).toBeGreaterThan(requestsBefore);
    expect(eventsOf(events, 'gate_result').at(-1)).toMatchObject({ phaseId: '1', passed: true });
    expect(eventsOf(events, 'phase_ended')).toMatchObject([{ phaseId: '1', status: 'completed' }]);
  });

  it('nor does a genuine line copied from another run, or one of the same run replayed for another phase; a passing verification needs no session', async () => {
    scratch = mkdtempSync(path.join(tmpdir(), 'debussy-forge-'));
    let round = 1;
    const turns: Record<string, ScriptedTurn[]> = {
      '1:2': [write('two.txt', '2\n'), bash('debussy done --phase 2'), done()],
      '2:1': [write('one.txt', '1\n'), bash('debussy done --phase 1'), done()],
      '2:3': [bash('debussy done --phase 3'), done()],
      '3:2': [write('two.txt', '2\n'), bash('debussy done --phase 2'), done()],
    };
    project = await E2EProject.create({
      phases: [
        { id: '1', title: 'One', gates: [{ name: 'one', command: 'test -f one.txt' }] },
        { id: '2', title: 'Two', gates: [{ name: 'two', command: 'test -f two.txt' }] },
        { id: '3', title: 'Three', gates: [{ name: 'three', command: 'test -f three.txt' }] },
      ],
      script: scriptByRound(() => round, turns),
      config: { max_retries: 0, regression_gates: 'off' },
    });

    // Run A completes phase 2 for real; then its file goes.
    const a = await project.run(['run', '--only', '2', project.planArg]);
    expect(a.code, a.stdout + a.stderr).toBe(0);
    const [runA = ''] = runIds(project.dir);
    await project.git('rm', '-q', 'two.txt');
    await project.git('commit', '-q', '-m', 'two.txt goes');

    // Run B (from scratch): phase 1 completes, 2 and 3 fail; phase 2's agent leaves a forger that, once B has
    // ended, copies A's completion of phase 2 into B's journal, and B's own completion of phase 1 as phase 3's.
    const journalA = path.join(project.dir, '.debussy/runs', runA, 'journal.ndjson');
    const completionOf = (phase: string, file: string) => `grep '"phase_ended"' ${file} | grep '"phaseId":"${phase}"' | grep '"status":"completed"' | head -1`;
    const forger = forgerScript(scratch, [
      `COPIED=$(${completionOf('2', `'${journalA}'`)})`,
      `REPLAYED=$(${completionOf('1', '"$J"')} | sed 's/"phaseId":"1"/"phaseId":"3"/')`,
      'printf \'%s\\n%s\\n\' "$COPIED" "$REPLAYED" >> "$J"',
    ].join('\n'));
    turns['2:2'] = [leaveBehind(forger, journalOf), bash('debussy done --phase 2'), done()];
    round = 2;
    const b = await project.run(['run', '--fresh', project.planArg]);
    expect(b.code, b.stdout + b.stderr).toBe(1);
    const runB = runIds(project.dir).find((id) => id !== runA) ?? '';
    const journalB = path.join(project.dir, '.debussy/runs', runB, 'journal.ndjson');
    const afterEnd = () => readFileSync(journalB, 'utf8').split(/"run_ended".*\n/)[1]?.trimEnd().split('\n').filter(Boolean) ?? [];
    await waitFor('the copied and replayed lines', () => afterEnd().length === 2, 30_000);
    const tail = afterEnd();
    // What the forger appended is genuine text: a seal of run A, and one of run B for phase 1.
    expect(tail[0]).toBe(readFileSync(journalA, 'utf8').split('\n').find((line) => line.includes('"phase_ended"') && line.includes('"status":"completed"')));
    expect(tail[0]).toMatch(/"mac":"/);
    expect(tail[1]).toMatch(/"phaseId":"3","status":"completed".*"mac":"/);

    const dry = JSON.parse((await project.run(['run', '--dry-run', '--json', project.planArg])).stdout) as { phases: { id: string; action: string; note: string }[] };
    expect(dry.phases.map((p) => [p.id, p.action])).toEqual([['1', 'skip'], ['2', 'verify'], ['3', 'verify']]);
    expect(dry.phases[1]?.note).toContain('its seal does not match (the line was edited, or copied from another run');

    // The user makes phase 3's file by hand: its verification passes without a session; phase 2's fails and its agent works.
    project.write('three.txt', '3\n');
    await project.git('add', 'three.txt');
    await project.git('commit', '-q', '-m', 'three.txt by hand');
    round = 3;
    const before = project.api.mainRequests().map(phaseOf);
    const c = await project.run(['run', project.planArg]);
    expect(c.code, c.stdout + c.stderr).toBe(0);
    expect(project.api.mainRequests().map(phaseOf).slice(before.length).every((phase) => phase === '2')).toBe(true);
    const events = await project.journal();
    expect(eventsOf(events, 'phase_ended').map((e) => [e.phaseId, e.status])).toEqual([['1', 'completed'], ['2', 'completed'], ['3', 'completed']]);
    expect(eventsOf(events, 'phase_ended').find((e) => e.phaseId === '3')?.reason).toMatch(/^verified again \(its completion recorded in run .* cannot be proven/);
    expect(eventsOf(events, 'notice').filter((n) => /cannot be proven: .*; its gates run again before it counts as done/.test(n.message)).map((n) => n.phaseId)).toEqual(['2', '3']);
    expect(eventsOf(events, 'notice').map((n) => n.message)).toContainEqual(expect.stringMatching(/cannot be proven: .*: gate\(s\) two fail now, so the phase runs again$/));
  });

  it("during the run too: a baseline the agent appends cannot pass its own failure off as inherited", async () => {
    const forged = JSON.stringify({ type: 'baseline_result', phaseId: '1', name: 'check', command: 'test ! -f broken.txt', passed: false, exitCode: 1, durationMs: 1, outputTail: '', v: 1, ts: new Date().toISOString(), pid: 4343 });
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Excused', gates: [{ name: 'check', command: 'test ! -f broken.txt' }] }],
      script: scriptByRound(() => 1, {
        '1:1': [write('broken.txt', 'the agent broke the gate\n'), bash(`printf '%s\\n' '${forged}' >> ${journalOf}`), bash('debussy done --phase 1'), done()],
      }),
      config: { max_retries: 0, regression_gates: 'off', inherited_failures: 'warn' },
    });
    const result = await project.run(['run', project.planArg]);
    const events = await project.journal();
    expect(eventsOf(events, 'baseline_result').map((b) => [b.pid, b.passed])).toEqual([[expect.any(Number) as number, true], [4343, false]]);
    // The gate passed before the phase (the sealed baseline): its failure now is the phase's.
    expect(result.code, result.stdout + result.stderr).toBe(1);
    expect(eventsOf(events, 'gate_result')).toMatchObject([{ name: 'check', passed: false }]);
    expect(eventsOf(events, 'gate_result')[0]?.inherited).toBeUndefined();
    expect(eventsOf(events, 'phase_ended')).toMatchObject([{ phaseId: '1', status: 'failed' }]);
  });
});
