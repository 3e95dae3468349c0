/** Which completed phases a changed plan puts in doubt. */
import { describe, expect, it } from 'vitest';
import type { PlanChange } from '../../src/plan/plan-diff.js';
import { decidePlanChange, planChangeLines } from '../../src/verification/plan-change.js';

const gates: PlanChange = { kind: 'gates_changed', id: '1', added: [], removed: [], changed: [{ name: 'tests', from: 'a', to: 'b' }] };
const edited: PlanChange = { kind: 'file_changed', id: '2', file: 'phase-2.md' };
const deps: PlanChange = { kind: 'dependencies_changed', id: '1', from: [], to: ['0'] };
const renamed: PlanChange = { kind: 'renamed', id: '1', from: 'A', to: 'B' };
const renumbered: PlanChange = { kind: 'renumbered', from: '2', id: '3', title: 'Two' };
const removed: PlanChange = { kind: 'removed', id: '4', title: 'Four' };
const done = (...ids: string[]) => new Map(ids.map((id) => [id, `completed in run r1`]));

describe('decidePlanChange', () => {
  const cases: { name: string; changes: PlanChange[]; completed: string[]; trust?: boolean; reverify: string[]; renumbered?: string[]; lastLine?: string }[] = [
    { name: 'a completed phase whose gates changed is verified again', changes: [gates], completed: ['1'], reverify: ['1'], lastLine: 'phase 1: its gates changed since it completed: its gates run again before it counts as done (--trust-completed skips this)' },
    { name: 'a completed phase whose file changed is verified again', changes: [edited], completed: ['2'], reverify: ['2'] },
    { name: 'a pending phase whose gates changed simply runs', changes: [gates], completed: [], reverify: [] },
    { name: '--trust-completed keeps it done and says so', changes: [gates, edited], completed: ['1', '2'], trust: true, reverify: [], lastLine: 'phase 2: its phase file changed; still taken as done (--trust-completed)' },
    { name: 'a rename or new dependencies do not undo a completion', changes: [renamed, deps], completed: ['1'], reverify: [] },
    { name: 'a renumbered completed phase stays done under its new id', changes: [renumbered], completed: ['2'], reverify: [], renumbered: ['3'] },
    { name: 'a renumbered phase whose gates changed is verified again under its new id', changes: [renumbered, { ...gates, id: '3' }], completed: ['2'], reverify: ['3'], renumbered: ['3'] },
    { name: 'a removed phase is only named', changes: [removed], completed: ['4'], reverify: [], lastLine: 'phase 4 removed (Four): its record is kept, it is not run' },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const decision = decidePlanChange({ changes: c.changes, completed: done(...c.completed), trustCompleted: c.trust === true });
      expect([...decision.reverify.keys()]).toEqual(c.reverify);
      expect([...decision.renumberedDone.keys()]).toEqual(c.renumbered ?? []);
      const lines = planChangeLines(c.changes, [...decision.reverify.keys()], decision.kept);
      expect(lines.length).toBe(c.changes.length + decision.reverify.size + decision.kept.length);
      if (c.lastLine) expect(lines.at(-1)).toBe(c.lastLine);
    });
  }
});
