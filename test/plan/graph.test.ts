import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { executionOrder, findCycles, parsePlan, type Phase, type Plan } from '../../src/plan/index.js';

const fixtures = fileURLToPath(new URL('../fixtures/plans/', import.meta.url));

/** A plan from `id:dep,dep` specs, in table order. */
function planOf(...specs: string[]): Plan {
  const phases: Phase[] = specs.map((spec, index) => {
    const [id = '', deps = ''] = spec.split(':');
    return {
      id,
      title: `Phase ${id}`,
      link: `p${id}.md`,
      path: `/plan/p${id}.md`,
      status: undefined,
      statusText: undefined,
      dependsOn: deps === '' ? [] : deps.split(','),
      dependencyRefs: [],
      extra: {},
      line: index + 3,
      file: undefined,
    };
  });
  return { name: 'test', path: '/plan/MASTER_PLAN.md', phases };
}

const ids = (phases: Phase[]): string[] => phases.map((phase) => phase.id);

describe('executionOrder', () => {
  it.each([
    { name: 'table order when nothing depends on anything', specs: ['1', '2', '3'], order: ['1', '2', '3'] },
    { name: 'a chain written backwards', specs: ['3:2', '2:1', '1'], order: ['1', '2', '3'] },
    { name: 'the earliest ready phase in the table goes first', specs: ['1:3', '2', '3', '4:1', '5'], order: ['2', '3', '1', '4', '5'] },
    { name: 'diamond', specs: ['A', '2b:A', '3.1:A', '6D:3.1,2b'], order: ['A', '2b', '3.1', '6D'] },
    { name: 'a cycle and what waits on it go last, in table order', specs: ['1:2', '2:1', '3:1', '4'], order: ['4', '1', '2', '3'] },
    { name: 'an unknown dependency goes last', specs: ['1:9', '2', '3:1'], order: ['2', '1', '3'] },
    { name: 'a self-dependency goes last', specs: ['1:1', '2'], order: ['2', '1'] },
  ])('$name', ({ specs, order }) => {
    expect(ids(executionOrder(planOf(...specs)))).toEqual(order);
  });

  it('orders the fixture plans', async () => {
    const order = async (folder: string): Promise<string[]> => {
      const { plan } = await parsePlan(join(fixtures, folder, 'MASTER_PLAN.md'));
      return plan === undefined ? [] : ids(executionOrder(plan));
    };
    expect(await order('order')).toEqual(['2', '3', '1', '4', '5', '6']);
    expect(await order('cycle')).toEqual(['8', '1', '2', '3', '4', '5', '6', '7']);
    expect(await order('valid')).toEqual(['1', '2', '3']);
    expect(await order('ids-and-statuses')).toEqual(['1', '3.1', '2b', '6D', '7', '8', '9', '10', '11']);
  });

  it('returns every phase exactly once', () => {
    const plan = planOf('1:2', '2:3', '3:1', '4:9', '5', '5');
    const order = executionOrder(plan);
    expect(order).toHaveLength(plan.phases.length);
    expect(new Set(order).size).toBe(plan.phases.length);
  });
});

describe('findCycles', () => {
  it.each([
    { name: 'no cycle', specs: ['1', '2:1', '3:2'], cycles: [] },
    { name: 'one cycle rooted at its earliest phase', specs: ['1:2', '2:3', '3:1'], cycles: [['1', '2', '3', '1']] },
    { name: 'self-dependency', specs: ['1:1'], cycles: [['1', '1']] },
    { name: 'two separate cycles', specs: ['1:2', '2:1', '3:4', '4:3'], cycles: [['1', '2', '1'], ['3', '4', '3']] },
    {
      name: 'two cycles sharing a phase are both reported',
      specs: ['1:2', '2:1,3', '3:1'],
      cycles: [
        ['1', '2', '1'],
        ['1', '2', '3', '1'],
      ],
    },
    { name: 'unknown ids are not nodes', specs: ['1:9', '2:1'], cycles: [] },
  ])('$name', ({ specs, cycles }) => {
    expect(findCycles(planOf(...specs))).toEqual(cycles);
  });
});
