/** parseProcStat: one /proc/<pid>/stat line, a command name with spaces and ')' included. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseProcStat } from '../../src/process/procfs-table.js';

/** Fields 3 to 22 after `pid (comm) `: state, ppid, pgrp, then 16 others, then starttime. */
function statLine(comm: string, state: string, ppid: number, pgrp: number, startTime: number): string {
  return `42 (${comm}) ${state} ${ppid} ${pgrp} ${Array.from({ length: 16 }, (_, i) => i + 100).join(' ')} ${startTime} 5 6 7\n`;
}

describe('parseProcStat', () => {
  it.each([
    { name: 'a plain process', line: statLine('node', 'S', 7, 42, 9000), entry: { pid: 42, ppid: 7, pgid: 42, startTime: 9000, exited: false } },
    { name: 'a name with spaces and parentheses', line: statLine('a) (b c', 'R', 1, 3, 12), entry: { pid: 42, ppid: 1, pgid: 3, startTime: 12, exited: false } },
    { name: 'a zombie', line: statLine('sh', 'Z', 7, 7, 5), entry: { pid: 42, ppid: 7, pgid: 7, startTime: 5, exited: true } },
    { name: 'a dead entry', line: statLine('sh', 'X', 7, 7, 5), entry: { pid: 42, ppid: 7, pgid: 7, startTime: 5, exited: true } },
    { name: 'no closing parenthesis', line: '42 (node S 7 42', entry: undefined },
    { name: 'cut short before the start time', line: '42 (node) S 7 42 1 2', entry: undefined },
  ])('$name', ({ line, entry }) => {
    expect(parseProcStat(42, line)).toEqual(entry);
  });

  it('reads this process as the kernel writes it', () => {
    const entry = parseProcStat(process.pid, readFileSync('/proc/self/stat', 'utf8'));
    expect(entry).toMatchObject({ pid: process.pid, ppid: process.ppid, exited: false });
  });
});
