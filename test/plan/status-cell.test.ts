import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parsePlan, updatePhaseStatusCell } from '../../src/plan/index.js';

const fixtures = fileURLToPath(new URL('../fixtures/plans/', import.meta.url));

describe('updatePhaseStatusCell', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'debussy-status-cell-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** The lines that differ between two texts, as [line number, before, after]. */
  function changedLines(before: string, after: string): [number, string, string][] {
    const a = before.split('\n');
    const b = after.split('\n');
    expect(b).toHaveLength(a.length);
    return a.flatMap((line, index) => (line === b[index] ? [] : [[index + 1, line, b[index] ?? '']] as [number, string, string][]));
  }

  it('rewrites only that row’s Status cell, keeping the column width', async () => {
    await cp(join(fixtures, 'valid'), dir, { recursive: true });
    const master = join(dir, 'MASTER_PLAN.md');
    const before = await readFile(master, 'utf8');

    expect(await updatePhaseStatusCell(master, '2', 'completed')).toBe(true);
    const after = await readFile(master, 'utf8');
    expect(changedLines(before, after)).toEqual([
      [
        10,
        '| 2 | [Add the greeting endpoint](phase-2-endpoint.md) | Pending | 1 |',
        '| 2 | [Add the greeting endpoint](phase-2-endpoint.md) | Completed | 1 |',
      ],
    ]);
    const { plan } = await parsePlan(master);
    expect(plan?.phases.map((phase) => phase.status)).toEqual(['pending', 'completed', 'pending']);
  });

  it('pads a shorter word to the old width and keeps CRLF endings and bold', async () => {
    const master = join(dir, 'MASTER_PLAN.md');
    const lines = [
      '# CRLF plan',
      '',
      '| Phase | Title                 | Status          |',
      '|-------|-----------------------|-----------------|',
      '| 1     | [One](p1.md)          | **In Progress** |',
      '| 6D    | [Six D](p6d.md)       | Pending         |',
      '',
    ];
    await writeFile(master, lines.join('\r\n'));

    expect(await updatePhaseStatusCell(master, '1', 'failed')).toBe(true);
    expect(await updatePhaseStatusCell(master, '6D', 'in_progress')).toBe(true);
    const expected = [...lines];
    expected[4] = '| 1     | [One](p1.md)          | **Failed**      |';
    expected[5] = '| 6D    | [Six D](p6d.md)       | In Progress     |';
    expect(await readFile(master, 'utf8')).toBe(expected.join('\r\n'));
  });

  it.each([
    { name: 'no such phase', text: '# P\n\n| Phase | Title | Status |\n|---|---|---|\n| 1 | [One](p1.md) | Pending |\n', id: '2' },
    { name: 'no Status column', text: '# P\n\n| Phase | Title |\n|---|---|\n| 1 | [One](p1.md) |\n', id: '1' },
    { name: 'the row is inside a code fence', text: '# P\n\n```\n| Phase | Title | Status |\n|---|---|---|\n| 1 | [One](p1.md) | Pending |\n```\n', id: '1' },
  ])('returns false and leaves the file alone: $name', async ({ text, id }) => {
    const master = join(dir, 'MASTER_PLAN.md');
    await writeFile(master, text);
    expect(await updatePhaseStatusCell(master, id, 'completed')).toBe(false);
    expect(await readFile(master, 'utf8')).toBe(text);
  });

  it('throws a PlanError when the master plan cannot be read', async () => {
    await expect(updatePhaseStatusCell(join(dir, 'missing.md'), '1', 'completed')).rejects.toMatchObject({ code: 'E_PLAN_UNREADABLE' });
  });
});
