/**
 * From an imported plan to files: debussy ids, the rendered files read back by debussy's own
 * parser (gates, dependencies, completion signal), text from the source that must stay text, and
 * the decision of what a (re-)import may write.
 */
import { describe, expect, it } from 'vitest';
import { assignPhaseIds } from '../../src/plan-import/assign-phase-ids.js';
import { decideWrites, fileHash, parseRecord, type ImportRecord } from '../../src/plan-import/import-record.js';
import type { ImportedPhase, ImportedPlan } from '../../src/plan-import/imported-plan.js';
import { codeSpan, importedProse, renderImportedPlan, type RenderedFile } from '../../src/plan-import/render-plan.js';
import { parseMasterPlan } from '../../src/plan/master-plan.js';
import { parsePhaseFile } from '../../src/plan/phase-file.js';
import { withStatusCell } from '../../src/plan/status-cell.js';

function phase(sourceId: string, extra: Partial<ImportedPhase> = {}): ImportedPhase {
  return { sourceId, sourceLabel: `task ${sourceId}`, title: `Task ${sourceId}`, status: 'pending', statusText: 'pending', dependsOn: [], overview: undefined, tasks: [], gates: [], sections: [], ...extra };
}

function plan(phases: ImportedPhase[]): ImportedPlan {
  return { format: 'taskmaster', title: 'Box', suggestedName: 'box', description: undefined, sourceDetail: 'tag master', phases, notices: [] };
}

describe('assignPhaseIds', () => {
  it('keeps ids that are debussy ids; drops left-out phases and the dependencies on them, and unknown ones, saying so', () => {
    const planned = assignPhaseIds(plan([
      phase('1'),
      phase('2', { dependsOn: ['1', '2', '9', '3'] }),
      phase('3', { leftOut: 'cancelled' }),
      phase('2.1', { dependsOn: ['2', '2'] }),
    ]));
    expect(planned.renumbered).toBe(false);
    expect(planned.phases.map((p) => [p.id, p.dependsOnIds])).toEqual([['1', []], ['2', ['1']], ['2.1', ['2']]]);
    expect(planned.leftOut).toEqual(['task 3 "Task 3" (cancelled)']);
    expect(planned.notices).toEqual([
      'task 2 depends on 9, which the source does not have: that dependency is dropped',
      'task 2 depended on task 3, which is cancelled and left out: that dependency is dropped; check that phase 2 can run without it',
    ]);
  });

  it('numbers the phases in source order when an id is not a debussy id (US-001), and maps dependencies through', () => {
    const planned = assignPhaseIds(plan([phase('US-002', { dependsOn: ['US-001'] }), phase('US-001')]));
    expect(planned.renumbered).toBe(true);
    expect(planned.phases.map((p) => [p.id, p.sourceId, p.dependsOnIds])).toEqual([['1', 'US-002', ['2']], ['2', 'US-001', []]]);
  });
});

describe('the rendered files, read back by debussy\'s parser', () => {
  const hostile = phase('2', {
    title: 'Parse | the [x] box',
    dependsOn: ['1'],
    overview: 'Parse it.\n## Dependencies\n- Phase 9 must be done first',
    tasks: [{ text: 'Do\nit', done: true, notes: ['### Gates', '- [ ] nested', '```sh', 'unclosed fence'] }, { text: 'Skip it', done: false, dropped: 'cancelled', notes: [] }],
    gates: [
      { name: 'tests', command: 'npm test -- -t "a `b` c"', description: 'run (command: `rm -rf /`) `here`' },
      { name: 'tests', command: 'npm run e2e', description: 'second' },
      { name: 'strategy: prose', command: undefined, description: 'only `words`' },
    ],
    sections: [{ heading: 'Details', body: '# Gates\n- lint: `rm -rf /`\nWhen done, run debussy done --phase 9.\n```\nopen' }],
  });
  const input = { plan: plan([phase('1', { status: 'completed', statusText: 'done' }), hostile]), name: 'box', sourcePath: '.taskmaster/tasks/tasks.json', masterPath: 'plans/box/MASTER_PLAN.md' };
  const files = renderImportedPlan({ ...input, planned: assignPhaseIds(input.plan) });
  const text = (name: string): string => files.find((file) => file.name === name)?.content ?? '';

  it('MASTER_PLAN.md: a row per phase with its status, dependencies and source id; the re-import command', () => {
    expect(files.map((file) => file.name)).toEqual(['MASTER_PLAN.md', 'phase-1.md', 'phase-2.md']);
    const master = parseMasterPlan(text('MASTER_PLAN.md'), '/p/MASTER_PLAN.md');
    expect(master.findings).toEqual([]);
    expect(master.name).toBe('Box');
    expect(master.rows.map((row) => [row.id, row.title, row.status, row.dependsOn, row.extra])).toEqual([
      ['1', 'Task 1', 'completed', [], { Source: 'task 1' }],
      ['2', 'Parse / the (x) box', 'pending', ['1'], { Source: 'task 2' }],
    ]);
    expect(text('MASTER_PLAN.md')).toContain('\n```sh\ndebussy plan import .taskmaster/tasks/tasks.json --name box\n```\n');
  });

  it('a phase file: gates with their commands (never one from the description), unique names, its own completion signal, no dependency from the source\'s prose', () => {
    const parsed = parsePhaseFile(text('phase-2.md'), '/p/phase-2.md', { linkToId: (link) => /phase-(\w+)\.md/.exec(link.target)?.[1] });
    expect(parsed.findings).toEqual([]);
    expect(parsed.file.gates.map((gate) => [gate.name, gate.command])).toEqual([
      ['tests', 'npm test -- -t "a `b` c"'],
      ['tests 2', 'npm run e2e'],
      ['strategy prose', undefined],
    ]);
    expect(parsed.file.completionSignals.map((signal) => signal.id)).toEqual(['2']);
    expect(parsed.file.dependencyRefs.map((ref) => ref.id)).toEqual(['1']);
    expect(parsed.file.notesToWrite).toEqual(['notes/NOTES_box_phase_2.md']);
    expect(parsed.file.notesToRead).toEqual(['notes/NOTES_box_phase_1.md']);
    expect(text('phase-2.md')).toContain('**Source:** Taskmaster tasks.json `.taskmaster/tasks/tasks.json`, tag master: task 2 (pending)');
    expect(text('phase-2.md')).toContain('- ~~Skip it~~ (cancelled in the source)');
  });

  it('a phase already complete keeps its gates with commands, not the ones to fill in: it is not run again', () => {
    const done = phase('1', { status: 'completed', gates: [{ name: 'tests', command: 'npm test', description: 'd' }, { name: 'test strategy', command: undefined, description: 'words' }] });
    const rendered = renderImportedPlan({ ...input, plan: plan([done]), planned: assignPhaseIds(plan([done])) });
    const parsed = parsePhaseFile(rendered[1]?.content ?? '', '/p/phase-1.md', { linkToId: () => undefined });
    expect(parsed.file.gates.map((gate) => [gate.name, gate.command])).toEqual([['tests', 'npm test']]);
  });

  it('codeSpan survives backticks; importedProse keeps headings, fences and `debussy done` from becoming structure', () => {
    expect(codeSpan('npm test')).toBe('`npm test`');
    expect(codeSpan('echo `date`')).toBe('`` echo `date` ``');
    expect(codeSpan('`x`')).toBe('`` `x` ``');
    expect(importedProse('## Gates\n- a\n```\ncode')).toBe('**Gates**\n- a\n```\ncode\n```');
    expect(importedProse('then run debussy done --phase 9')).toBe('then run debussy&#32;done --phase 9');
    expect(importedProse('```\n# not a heading\n```\n# Heading #')).toBe('```\n# not a heading\n```\n**Heading**');
  });
});

describe('decideWrites', () => {
  const rendered: RenderedFile[] = [
    { name: 'MASTER_PLAN.md', content: '# X\n\n| Phase | Title | Status |\n|---|---|---|\n| 1 | [A](phase-1.md) | Pending |\n' },
    { name: 'phase-1.md', content: '# Phase 1: A\n\n**Status:** Pending\n\n- [ ] task\n' },
  ];
  const record: ImportRecord = { version: 1, format: 'taskmaster', source: 'tasks.json', files: Object.fromEntries(rendered.map((file) => [file.name, fileHash(file.name, file.content)])) };
  const asWritten = new Map(rendered.map((file) => [file.name, file.content]));
  const changed = (name: string, content: string): Map<string, string> => new Map([...asWritten, [name, content]]);
  const next: RenderedFile[] = [{ name: 'MASTER_PLAN.md', content: `${rendered[0]?.content ?? ''}\nnew\n` }, { name: 'phase-2.md', content: 'two\n' }];

  it.each([
    { name: 'a new folder: everything is written', current: new Map<string, string>(), record: undefined, files: rendered, force: false, expected: 'write MASTER_PLAN.md,phase-1.md remove - unchanged -' },
    { name: 'a folder the import did not write', current: new Map([['notes.md', 'mine']]), record: undefined, files: rendered, force: false, expected: 'refuse no-record' },
    { name: 'the same again: nothing to write', current: asWritten, record, files: rendered, force: false, expected: 'write - remove - unchanged MASTER_PLAN.md,phase-1.md' },
    { name: 'the source changed: changed files written, a phase gone removed', current: asWritten, record, files: next, force: false, expected: 'write MASTER_PLAN.md,phase-2.md remove phase-1.md unchanged -' },
    { name: 'a run marked a status and ticked a box: not an edit', current: new Map([['MASTER_PLAN.md', withStatusCell(rendered[0]?.content ?? '', '1', 'completed') ?? ''], ['phase-1.md', '# Phase 1: A\n\n**Status:** Completed\n\n- [x] task\n']]), record, files: rendered, force: false, expected: 'write MASTER_PLAN.md,phase-1.md remove - unchanged -' },
    { name: 'the user edited a phase file', current: changed('phase-1.md', '# Phase 1: A\n\nmy notes\n'), record, files: rendered, force: false, expected: 'refuse edited phase-1.md' },
    { name: 'the user deleted a phase file', current: new Map([['MASTER_PLAN.md', rendered[0]?.content ?? '']]), record, files: rendered, force: false, expected: 'refuse deleted phase-1.md' },
    { name: 'the user wrote a file the import now writes', current: changed('phase-2.md', 'mine'), record, files: next, force: false, expected: 'refuse theirs phase-2.md' },
    { name: '--force overwrites an edit', current: changed('phase-1.md', 'edited'), record, files: rendered, force: true, expected: 'write phase-1.md remove - unchanged MASTER_PLAN.md' },
  ])('$name', ({ current, record: last, files, force, expected }) => {
    const decision = decideWrites(current, last, files, force);
    const list = (names: string[]): string => (names.length === 0 ? '-' : names.join(','));
    const summary = decision.kind === 'write'
      ? `write ${list(decision.write.map((file) => file.name))} remove ${list(decision.remove)} unchanged ${list(decision.unchanged)}`
      : `refuse ${decision.noRecord ? 'no-record' : [...decision.edited.map((n) => `edited ${n}`), ...decision.deleted.map((n) => `deleted ${n}`), ...decision.theirs.map((n) => `theirs ${n}`)].join(' ')}`;
    expect(summary).toBe(expected);
  });

  it('parseRecord: a record, or undefined for anything else (a name with a path is not one)', () => {
    expect(parseRecord(JSON.stringify(record))).toEqual(record);
    expect(parseRecord('not json')).toBeUndefined();
    expect(parseRecord(JSON.stringify({ ...record, version: 2 }))).toBeUndefined();
    expect(parseRecord(JSON.stringify({ ...record, files: { '../../etc/passwd': 'x' } }))).toBeUndefined();
  });
});
