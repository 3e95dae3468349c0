/** A plan's fingerprint and the diff of two: what a later run says changed. */
import { describe, expect, it } from 'vitest';
import { fingerprintPlan, normalizedMasterText, normalizedPhaseText, textHash, type PhaseFingerprint, type PlanFingerprint } from '../../src/plan/fingerprint.js';
import { journalEventOf, NotARecord } from '../../src/state/index.js';
import { describePlanChange, diffPlans } from '../../src/plan/plan-diff.js';
import type { Plan } from '../../src/plan/types.js';

const phaseFp = (id: string, over: Partial<PhaseFingerprint> = {}): PhaseFingerprint => ({
  id, title: `Phase ${id}`, file: `phase-${id}.md`, fileHash: `hash-${id}`, gates: [{ name: 'tests', command: 'npm test' }], dependsOn: [], ...over,
});
const planFp = (phases: PhaseFingerprint[], masterHash = 'm'): PlanFingerprint => ({ masterHash, phases });

/** A fingerprint as a journal's run_started line gives it back (state/events.ts). */
function fingerprintReadBack(planFingerprint: unknown): PlanFingerprint | NotARecord | undefined {
  const read = journalEventOf({ type: 'run_started', ts: 't', pid: 1, runId: 'r', planPath: 'p', planName: 'P', phaseIds: [], options: {}, planFingerprint });
  if (read instanceof NotARecord) return read;
  return read?.type === 'run_started' ? read.planFingerprint : undefined;
}

describe('normalized texts', () => {
  it('a phase file compares without its Status line and with every box unticked', () => {
    const before = '# Phase 1\n\n**Status:** Pending\n\n## Tasks\n- [ ] 1.1 do it\n1. [ ] second\n';
    const after = '# Phase 1\n\n**Status:** ✅ Complete\n\n## Tasks\n- [x] 1.1 do it\n1. [X] second\n';
    expect(normalizedPhaseText(after)).toBe(normalizedPhaseText(before));
    expect(normalizedPhaseText(before.replace('do it', 'do more'))).not.toBe(normalizedPhaseText(before));
  });

  it('a master plan compares without its Status cells', () => {
    const table = (s1: string, s2: string) => `# P - Master Plan\n\n| Phase | Title | Status |\n|---|---|---|\n| 1 | [One](phase-1.md) | ${s1} |\n| 2 | [Two](phase-2.md) | ${s2} |\n`;
    expect(normalizedMasterText(table('Pending', 'Pending'))).toBe(normalizedMasterText(table('✅ Completed', 'In Progress')));
    expect(normalizedMasterText(table('Pending', 'Pending'))).not.toBe(normalizedMasterText(table('Pending', 'Pending').replace('[Two]', '[Deux]')));
  });
});

describe('fingerprintPlan', () => {
  it('records per phase its id, title, file, gates and dependencies; a missing file hashes to null', () => {
    const plan = {
      name: 'P', path: '/p/plans/x/MASTER_PLAN.md',
      phases: [
        { id: '1', title: 'One', link: 'phase-1.md', path: '/p/plans/x/phase-1.md', dependsOn: [], file: { gates: [{ name: 'tests', command: 'npm test' }, { name: 'review', command: undefined }] } },
        { id: '2', title: 'Two', link: 'phase-2.md', path: '/p/plans/x/phase-2.md', dependsOn: ['1'], file: undefined },
      ],
    } as unknown as Plan;
    const texts: Record<string, string> = { '/p/plans/x/MASTER_PLAN.md': '# P', '/p/plans/x/phase-1.md': '# One' };
    const fp = fingerprintPlan(plan, (path) => texts[path]);
    expect(fp.masterHash).toMatch(/^[0-9a-f]{16}$/);
    expect(fp.phases).toEqual([
      { id: '1', title: 'One', file: 'phase-1.md', fileHash: expect.stringMatching(/^[0-9a-f]{16}$/) as string, gates: [{ name: 'tests', command: 'npm test', commandHash: textHash('npm test') }, { name: 'review', command: '', commandHash: textHash('') }], dependsOn: [] },
      { id: '2', title: 'Two', file: 'phase-2.md', fileHash: null, gates: [], dependsOn: ['1'] },
    ]);
    expect(fingerprintReadBack(JSON.parse(JSON.stringify(fp)))).toEqual(fp);
  });

  it('a fingerprint read back from a journal is checked: a wrong shape makes its run_started line a bad one', () => {
    expect(fingerprintReadBack(undefined)).toBeUndefined();
    expect(fingerprintReadBack({ masterHash: 'm', phases: [{ id: 1 }] })).toEqual(new NotARecord('run_started: planFingerprint.phases.0.id: Invalid type: Expected string but received 1'));
    expect(fingerprintReadBack({ masterHash: 'm', phases: 'x' })).toBeInstanceOf(NotARecord);
  });
});

describe('diffPlans', () => {
  const cases: { name: string; before: PlanFingerprint; after: PlanFingerprint; lines: string[] }[] = [
    { name: 'nothing changed', before: planFp([phaseFp('1')]), after: planFp([phaseFp('1')]), lines: [] },
    {
      name: 'a phase added and one removed',
      before: planFp([phaseFp('1'), phaseFp('2')]),
      after: planFp([phaseFp('1'), phaseFp('3')]),
      lines: ['phase 3 added (Phase 3)', 'phase 2 removed (Phase 2): its record is kept, it is not run'],
    },
    {
      name: 'same file content under another id is a renumbering',
      before: planFp([phaseFp('1'), phaseFp('2')]),
      after: planFp([phaseFp('1'), phaseFp('3', { fileHash: 'hash-2', title: 'Phase 2' })]),
      lines: ['phase 2 is now phase 3 (Phase 2; same phase file content)'],
    },
    {
      name: 'a new title under the same id is a rename',
      before: planFp([phaseFp('1')]),
      after: planFp([phaseFp('1', { title: 'Setup' })]),
      lines: ['phase 1 renamed: "Phase 1" -> "Setup"'],
    },
    {
      name: 'a gate command changed, one added, one removed (the file edit is implied, not repeated)',
      before: planFp([phaseFp('1', { gates: [{ name: 'tests', command: 'npm test' }, { name: 'lint', command: 'npm run lint' }] })]),
      after: planFp([phaseFp('1', { fileHash: 'other', gates: [{ name: 'tests', command: 'npm test -- --run' }, { name: 'types', command: 'tsc' }] })]),
      lines: ['phase 1: gate tests changed: `npm test` -> `npm test -- --run`; gate types added: `tsc`; gate lint removed'],
    },
    {
      name: 'dependencies changed',
      before: planFp([phaseFp('1'), phaseFp('2', { dependsOn: [] })]),
      after: planFp([phaseFp('1'), phaseFp('2', { fileHash: 'other', dependsOn: ['1'] })]),
      lines: ['phase 2: dependencies changed: none -> 1'],
    },
    {
      name: 'dependencies in another order are the same',
      before: planFp([phaseFp('3', { dependsOn: ['1', '2'] })]),
      after: planFp([phaseFp('3', { dependsOn: ['2', '1'] })]),
      lines: [],
    },
    {
      name: 'only the text of the phase file changed',
      before: planFp([phaseFp('1')]),
      after: planFp([phaseFp('1', { fileHash: 'other' })]),
      lines: ['phase 1: phase file phase-1.md edited'],
    },
    {
      name: 'a command with a secret: compared by the hashes of what the plans said, not by what was shown',
      before: planFp([phaseFp('1', { gates: [{ name: 'db', command: 'PGPASSWORD=[REDACTED] psql -c 1', commandHash: textHash('PGPASSWORD=abc psql -c 1') }] })]),
      after: planFp([phaseFp('1', { gates: [{ name: 'db', command: 'PGPASSWORD=abc psql -c 1', commandHash: textHash('PGPASSWORD=abc psql -c 1') }] })]),
      lines: [],
    },
    {
      name: 'the same, edited',
      before: planFp([phaseFp('1', { gates: [{ name: 'db', command: 'PGPASSWORD=[REDACTED] psql -c 1', commandHash: textHash('PGPASSWORD=abc psql -c 1') }] })]),
      after: planFp([phaseFp('1', { gates: [{ name: 'db', command: 'PGPASSWORD=abd psql -c 1', commandHash: textHash('PGPASSWORD=abd psql -c 1') }] })]),
      lines: ['phase 1: gate db changed: `PGPASSWORD=[REDACTED] psql -c 1` -> `PGPASSWORD=abd psql -c 1`'],
    },
    {
      name: 'an older journal without hashes: a redacted command matches the command it was shown from',
      before: planFp([phaseFp('1', { gates: [{ name: 'db', command: 'curl -u [REDACTED] https://x/[REDACTED:TOKEN]?a=1' }] })]),
      after: planFp([phaseFp('1', { gates: [{ name: 'db', command: 'curl -u me:pw.+ https://x/t0k?a=1', commandHash: 'h' }] })]),
      lines: [],
    },
    {
      name: 'an older journal without hashes: a command that differs outside its redactions changed',
      before: planFp([phaseFp('1', { gates: [{ name: 'db', command: 'curl -u [REDACTED] https://x/?a=1' }] })]),
      after: planFp([phaseFp('1', { gates: [{ name: 'db', command: 'curl -u me:pw https://x/?a=2', commandHash: 'h' }] })]),
      lines: ['phase 1: gate db changed: `curl -u [REDACTED] https://x/?a=1` -> `curl -u me:pw https://x/?a=2`'],
    },
    {
      name: 'the master plan changed outside its rows',
      before: planFp([phaseFp('1')], 'a'),
      after: planFp([phaseFp('1')], 'b'),
      lines: ['the master plan was edited (outside its phase rows)'],
    },
    {
      name: 'a master change that added a row is named by the row alone',
      before: planFp([phaseFp('1')], 'a'),
      after: planFp([phaseFp('1'), phaseFp('2')], 'b'),
      lines: ['phase 2 added (Phase 2)'],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(diffPlans(c.before, c.after).map(describePlanChange)).toEqual(c.lines);
    });
  }
});
