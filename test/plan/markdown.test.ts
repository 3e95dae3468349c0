import { describe, expect, it } from 'vitest';
import { gateFromBullet } from '../../src/plan/gates.js';
import { findSections, scanMarkdown } from '../../src/plan/markdown.js';
import { leadingPhaseId, parseDependencyList, phaseReferencesInLine } from '../../src/plan/phase-ids.js';
import { splitTableRow } from '../../src/plan/table.js';

describe('scanMarkdown', () => {
  it('marks fenced code (any indentation, ``` or ~~~, closed only by a fence as long) and finds headings outside it', () => {
    const lines = scanMarkdown(['# Title', '  ```bash', '# not a heading', '  ```', '~~~~', '~~~', '## also not', '~~~~', '### Real ##'].join('\r\n'));
    expect(lines.map((line) => [line.number, line.inFence, line.heading?.level ?? null, line.heading?.text ?? null])).toEqual([
      [1, false, 1, 'Title'],
      [2, true, null, null],
      [3, true, null, null],
      [4, true, null, null],
      [5, true, null, null],
      [6, true, null, null],
      [7, true, null, null],
      [8, true, null, null],
      [9, false, 3, 'Real'],
    ]);
  });

  it('ends a section at the next heading of the same or a higher level only', () => {
    const lines = scanMarkdown(['## Tasks', 'a', '### Sub', 'b', '#### Deeper', 'c', '## Next', 'd'].join('\n'));
    const [tasks] = findSections(lines, (text) => text === 'Tasks');
    expect(tasks?.body.map((line) => line.text)).toEqual(['a', '### Sub', 'b', '#### Deeper', 'c']);
  });
});

describe('splitTableRow', () => {
  it.each([
    { line: '| a | b |', cells: ['a', 'b'] },
    { line: 'a | b', cells: ['a', 'b'] },
    { line: '| a | b', cells: ['a', 'b'] },
    { line: '|a||c|', cells: ['a', '', 'c'] },
    { line: '| `x | y` | b \\| c |', cells: ['`x | y`', 'b \\| c'] },
  ])('$line', ({ line, cells }) => {
    const split = splitTableRow(line);
    expect(split.map((cell) => cell.text)).toEqual(cells);
    for (const cell of split) expect(line.slice(cell.start, cell.end).trim()).toBe(cell.text);
  });
});

describe('leadingPhaseId', () => {
  it.each([
    ['1', '1', ''],
    ['**3.1**', '3.1', ''],
    ['Phase 6D', '6D', ''],
    ['2b: Backfill', '2b', 'Backfill'],
    ['Phase 7 - Cleanup', '7', 'Cleanup'],
    ['A', 'A', ''],
  ])('%j', (text, id, rest) => {
    expect(leadingPhaseId(text)).toEqual({ id, rest });
  });

  it.each(['', 'Setup', 'Phase', 'is'])('%j has no id', (text) => {
    expect(leadingPhaseId(text)).toBeUndefined();
  });
});

describe('parseDependencyList', () => {
  const linkToId = (link: { target: string }): string | undefined => (link.target === 'phase-one.md' ? '1' : undefined);

  it.each([
    { text: '1, 2', ids: ['1', '2'], unrecognised: [] },
    { text: 'Phase 2 and Phase 3', ids: ['2', '3'], unrecognised: [] },
    { text: '[Setup](phase-one.md), [Phase 4](elsewhere.md)', ids: ['1', '4'], unrecognised: [] },
    { text: '3.1 2b 6D', ids: ['3.1', '2b', '6D'], unrecognised: [] },
    { text: '1-3', ids: ['1', '2', '3'], unrecognised: [] },
    { text: '2 (API only)', ids: ['2'], unrecognised: [] },
    { text: 'None', ids: [], unrecognised: [] },
    { text: 'N/A', ids: [], unrecognised: [] },
    { text: '-', ids: [], unrecognised: [] },
    { text: '', ids: [], unrecognised: [] },
    { text: 'the auth work', ids: [], unrecognised: ['the', 'auth', 'work'] },
  ])('$text', ({ text, ids, unrecognised }) => {
    expect(parseDependencyList(text, linkToId)).toEqual({ ids, unrecognised });
  });
});

describe('phaseReferencesInLine', () => {
  const linkToId = (link: { target: string }): string | undefined => (link.target === 'p1.md' ? '1' : undefined);

  it.each([
    { line: '- Previous phases: ALL (1, 2, 3) - This phase integrates all previous work', ids: ['1', '2', '3'] },
    { line: '- Internal: Orchestrator, ClaudeRunner, Config, StateManager', ids: [] },
    { line: '- External: None (all components built in previous phases)', ids: [] },
    { line: '- Phase 2', ids: ['2'] },
    { line: '- Requires Phase 2 and Phase 3.1 to be done.', ids: ['2', '3.1'] },
    { line: '- [Scaffold](p1.md) must be merged', ids: ['1'] },
    { line: '- Depends on: 4, 6D', ids: ['4', '6D'] },
    { line: '- The `phase 9` helper script', ids: [] },
    { line: 'This phase integrates everything', ids: [] },
  ])('$line', ({ line, ids }) => {
    expect(phaseReferencesInLine(line, linkToId)).toEqual(ids);
  });
});

describe('gateFromBullet', () => {
  it.each([
    { bullet: 'tests: ALL tests pass (command: `npm test`)', name: 'tests', command: 'npm test', description: 'ALL tests pass' },
    { bullet: 'lint: `npm run lint`', name: 'lint', command: 'npm run lint', description: '' },
    { bullet: '**types**: `tsc --noEmit` passes', name: 'types', command: 'tsc --noEmit', description: '`tsc --noEmit` passes' },
    { bullet: '**build:** succeeds (cmd: `npm run build`)', name: 'build', command: 'npm run build', description: 'succeeds' },
    { bullet: 'coverage: No decrease from current (~60%)', name: 'coverage', command: undefined, description: 'No decrease from current (~60%)' },
    { bullet: '`npm test` passes', name: 'npm test', command: 'npm test', description: '`npm test` passes' },
  ])('$bullet', ({ bullet, name, command, description }) => {
    expect(gateFromBullet(bullet, 7, {})).toEqual({ name, command, commandSource: command === undefined ? 'none' : 'plan', description, line: 7 });
  });

  it('takes a missing command from the config, matching the name without case', () => {
    expect(gateFromBullet('Coverage: no decrease', 3, { coverage: 'npm run cov' })).toMatchObject({ command: 'npm run cov', commandSource: 'config' });
  });
});
