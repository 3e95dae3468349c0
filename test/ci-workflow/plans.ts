/** Plans for the generator's table tests, built in memory from short specs. */
import type { Phase, Plan } from '../../src/plan/types.js';

/**
 * A plan from `id:dep,dep` specs in table order; a trailing `!` marks the phase completed in the
 * master plan (`2:1!`). Each phase has one gate.
 */
export function planOf(...specs: string[]): Plan {
  const phases: Phase[] = specs.map((spec, index) => {
    const completed = spec.endsWith('!');
    const [id = '', deps = ''] = spec.replace(/!$/, '').split(':');
    return {
      id,
      title: `Phase ${id} title`,
      link: `phase-${id}.md`,
      path: `/repo/plans/demo/phase-${id}.md`,
      status: completed ? 'completed' : 'pending',
      statusText: completed ? 'Completed' : 'Pending',
      dependsOn: deps === '' ? [] : deps.split(','),
      dependencyRefs: [],
      extra: {},
      line: index + 5,
      file: {
        path: `/repo/plans/demo/phase-${id}.md`, title: undefined, statusText: undefined, status: undefined, dependencyRefs: [],
        gates: [{ name: 'tests', command: 'npm test', commandSource: 'plan', description: '', line: 9 }],
        tasks: { total: 1, done: 0 }, notesToWrite: [], notesToRead: [], completionSignals: [],
      },
    };
  });
  return { name: 'Demo', path: '/repo/plans/demo/MASTER_PLAN.md', phases };
}

export const GRAPHS = {
  chain: planOf('1', '2:1', '3:2'),
  diamond: planOf('1', '2:1', '3:1', '4:2,3'),
  independent: planOf('1', '2', '3'),
  'a completed phase': planOf('1!', '2:1', '3:2'),
  'dotted ids': planOf('A', '2b:A', '3.1:A', '6D:3.1,2b'),
} as const;
