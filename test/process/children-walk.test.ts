/** The pure parts of reading one tree through children lists: the list format and the walk. */
import { describe, expect, it } from 'vitest';
import { parseChildrenList, walkChildren } from '../../src/process/children-walk.js';
import type { ProcessEntry } from '../../src/process/process-entry.js';

describe('parseChildrenList', () => {
  it.each([
    ['', []],
    ['412 ', [412]],
    ['412 5003 77 ', [412, 5003, 77]],
    ['412 5003\n', [412, 5003]],
    ['412 x 0 -3 9 ', [412, 9]],
  ])('%j: %j', (text, pids) => {
    expect(parseChildrenList(text)).toEqual(pids);
  });
});

/** A table to walk: pid -> [ppid, children listed, exited]. */
type Table = Record<number, { ppid: number; children?: number[]; exited?: boolean }>;

function walk(table: Table, root: number, unreadable: number[] = []): number[] | undefined {
  const entryOf = (pid: number): ProcessEntry | undefined => {
    const row = table[pid];
    return row === undefined ? undefined : { pid, ppid: row.ppid, pgid: pid, startTime: 100 + pid, exited: row.exited === true };
  };
  const childrenOf = (pid: number) => (unreadable.includes(pid) ? undefined : (table[pid]?.children ?? []));
  return walkChildren(root, entryOf, childrenOf)?.map((entry) => entry.pid);
}

describe('walkChildren', () => {
  it.each<{ name: string; table: Table; root: number; unreadable?: number[]; found: number[] | undefined }>([
    { name: 'a root alone', table: { 10: { ppid: 1 } }, root: 10, found: [10] },
    {
      name: 'children and grandchildren, root first',
      table: { 10: { ppid: 1, children: [11, 12] }, 11: { ppid: 10, children: [13] }, 12: { ppid: 10 }, 13: { ppid: 11, children: [14] }, 14: { ppid: 13 } },
      root: 10,
      found: [10, 11, 12, 13, 14],
    },
    { name: 'a root that is gone', table: {}, root: 10, found: [] },
    { name: 'a root that has exited', table: { 10: { ppid: 1, children: [11], exited: true }, 11: { ppid: 10 } }, root: 10, found: [] },
    { name: 'a child gone before its entry was read', table: { 10: { ppid: 1, children: [11, 12] }, 12: { ppid: 10 } }, root: 10, found: [10, 12] },
    {
      name: 'an exited child (a zombie) and what it listed are left out',
      table: { 10: { ppid: 1, children: [11, 12] }, 11: { ppid: 10, exited: true, children: [13] }, 12: { ppid: 10 }, 13: { ppid: 11 } },
      root: 10,
      found: [10, 12],
    },
    {
      name: 'a PID reused by an unrelated process between the list and the entry is not followed',
      table: { 10: { ppid: 1, children: [11] }, 11: { ppid: 500, children: [12] }, 12: { ppid: 11 } },
      root: 10,
      found: [10],
    },
    {
      name: 'a PID listed twice (re-parented while we read) is taken once, under its real parent',
      table: { 10: { ppid: 1, children: [11, 12] }, 11: { ppid: 10, children: [13] }, 12: { ppid: 10, children: [13] }, 13: { ppid: 12 } },
      root: 10,
      found: [10, 11, 12, 13],
    },
    { name: 'a list that cannot be read: cannot tell', table: { 10: { ppid: 1, children: [11] }, 11: { ppid: 10 } }, root: 10, unreadable: [11], found: undefined },
    { name: 'an unreadable list outside the tree does not matter', table: { 10: { ppid: 1 }, 20: { ppid: 1 } }, root: 10, unreadable: [20], found: [10] },
  ])('$name', ({ table, root, unreadable, found }) => {
    expect(walk(table, root, unreadable)).toEqual(found);
  });
});
