import { describe, expect, it } from 'vitest';
import { fencedCommand, gateFromBullet, isGatesHeading } from '../../src/plan/gates.js';
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
    { text: 'Independent', ids: [], unrecognised: [] },
    { text: '—', ids: [], unrecognised: [] },
    { text: 'N/A (runs in parallel with Phase 1)', ids: [], unrecognised: [] },
    { text: 'N/A (Independent - runs in parallel with Phase 1)', ids: [], unrecognised: [] },
    { text: 'None - first phase, Phase 2 comes later', ids: [], unrecognised: [] },
    { text: '**None** (can run independently)', ids: [], unrecognised: [] },
    { text: 'Phase 1 (Fetcher) - needs its data types', ids: ['1'], unrecognised: [] },
    { text: 'Phase 1, 2, 3 (Fetcher, Analyzer, Builder) - integrates all components', ids: ['1', '2', '3'], unrecognised: [] },
    { text: '[Phase 1: Context Estimation](renamed.md)', ids: ['1'], unrecognised: [] },
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
    { line: '- Previous phase: N/A (runs in parallel with Phase 1)', ids: [] },
    { line: '- Previous phase: None (this is the foundation)', ids: [] },
    { line: '- Independent - runs in parallel with Phase 2', ids: [] },
    { line: '- **Previous phase:** —', ids: [] },
    { line: '- None', ids: [] },
    { line: '- Previous phases: none; it can run in parallel with Phases 1-7', ids: [] },
    { line: '- Runs in parallel with Phase 1, after Phase 2', ids: ['2'] },
    { line: '- Previous phases: Phases 1-4 (all modules complete and tested)', ids: ['1', '2', '3', '4'] },
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
    { bullet: 'command: `uv run ruff check .` ➜ 0 errors', name: 'uv run ruff check .', command: 'uv run ruff check .', description: '`uv run ruff check .` ➜ 0 errors' },
    { bullet: 'eslint: `command: pnpm lint` - 0 errors', name: 'eslint', command: 'pnpm lint', description: '`command: pnpm lint` - 0 errors' },
  ])('$bullet', ({ bullet, name, command, description }) => {
    expect(gateFromBullet(bullet, 7, {})).toEqual({ name, command, commandSource: command === undefined ? 'none' : 'plan', description, line: 7 });
  });

  it('takes the command from a fenced block under the bullet before a code span in its text', () => {
    expect(gateFromBullet('audit: `npm audit` reports nothing', 4, {}, 'npm audit --audit-level=high')).toMatchObject({ name: 'audit', command: 'npm audit --audit-level=high', commandSource: 'plan' });
    expect(gateFromBullet('tests: (command: `npm test`)', 4, {}, 'ignored')).toMatchObject({ command: 'npm test' });
  });

  it('takes a missing command from the config, matching the name without case', () => {
    expect(gateFromBullet('Coverage: no decrease', 3, { coverage: 'npm run cov' })).toMatchObject({ command: 'npm run cov', commandSource: 'config' });
  });
});

describe('isGatesHeading', () => {
  it.each([
    { text: 'Gates', gates: true },
    { text: 'Gates (must pass before completion)', gates: true },
    { text: 'Quality Gates', gates: true },
    { text: 'Gate', gates: true },
    { text: 'Gates: all blocking', gates: true },
    { text: 'Validation gates - run from the project root', gates: true },
    { text: 'Quality gates for the release pipeline', gates: false },
    { text: 'Missing Gates Phase 1: Phase One', gates: false },
    { text: 'Gate review notes', gates: false },
    { text: 'Tasks', gates: false },
  ])('$text', ({ text, gates }) => {
    expect(isGatesHeading(text)).toBe(gates);
  });
});

describe('fencedCommand', () => {
  const lines = (text: string) => scanMarkdown(text);
  it.each([
    { label: 'a label inside the block', text: '  ```bash\n  command: npm run lint\n  ```', command: 'npm run lint' },
    { label: 'comments and blanks dropped, lines joined', text: '  ```sh\n  # first\n  npm run a\n\n  $ npm run b\n  ```', command: 'npm run a && npm run b' },
    { label: 'right below the bullet, at the margin', text: '```\nmake check\n```', command: 'make check' },
    { label: 'at the margin after a blank line: the section\'s, not the bullet\'s', text: '\n```\nmake check\n```', command: undefined },
    { label: 'after unindented text', text: 'Example:\n  ```\nmake check\n  ```', command: undefined },
    { label: 'an empty block', text: '  ```\n  ```', command: undefined },
    { label: 'no block', text: '  more words', command: undefined },
  ])('$label', ({ text, command }) => {
    expect(fencedCommand(lines(text))).toBe(command);
  });
});
