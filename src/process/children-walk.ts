/**
 * A process and its descendants, found by following children lists down from it (Linux keeps one
 * per thread in /proc/<pid>/task/<tid>/children) rather than by reading every process on the
 * machine and joining parent links. Pure: the reads are passed in, so procfs-table.ts does the I/O.
 */
import type { ProcessEntry } from './process-entry.js';

/**
 * The PIDs a children file lists: decimal PIDs, each followed by a space. Anything else (there is
 * nothing else today) is skipped rather than guessed at.
 */
export function parseChildrenList(text: string): number[] {
  const pids: number[] = [];
  for (const word of text.split(/\s+/)) {
    if (!/^\d+$/.test(word)) continue;
    const pid = Number(word);
    if (Number.isSafeInteger(pid) && pid > 0) pids.push(pid);
  }
  return pids;
}

/**
 * `rootPid` (first) and every descendant of it that has not exited, as `entryOf` reads them;
 * none when the root is gone or has exited. `childrenOf` gives the PIDs a process's threads list
 * as their children (empty for one that is gone), or undefined when it cannot tell: the walk then
 * cannot either, and says so with undefined.
 *
 * The lists and the entries are read at different moments, so an entry is kept only if it still
 * names the process it was listed under as its parent: a PID that was reused in between belongs
 * to another process, and is not followed.
 */
export function walkChildren(
  rootPid: number,
  entryOf: (pid: number) => ProcessEntry | undefined,
  childrenOf: (pid: number) => readonly number[] | undefined,
): ProcessEntry[] | undefined {
  const root = entryOf(rootPid);
  if (root === undefined || root.exited) return [];
  const found: ProcessEntry[] = [root];
  const visited = new Set<number>([rootPid]);
  for (let next = 0; next < found.length; next++) {
    const parent = found[next] as ProcessEntry;
    const children = childrenOf(parent.pid);
    if (children === undefined) return undefined;
    for (const pid of children) {
      if (visited.has(pid)) continue;
      const entry = entryOf(pid);
      if (entry === undefined || entry.exited || entry.ppid !== parent.pid) continue;
      visited.add(pid);
      found.push(entry);
    }
  }
  return found;
}
