import { readdir, readFile } from 'node:fs/promises';
import { parseProcStat } from '../../src/process/procfs-table.js';

/**
 * Pids of every live descendant of `rootPid`, found through /proc parent links. Needed because the
 * claude CLI starts each tool shell in its own session, out of reach of a process-group kill.
 */
export async function descendantsOf(rootPid: number): Promise<number[]> {
  const children = new Map<number, number[]>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const ppid = await parentPid(Number(entry));
    if (ppid === undefined) continue;
    const list = children.get(ppid) ?? [];
    list.push(Number(entry));
    children.set(ppid, list);
  }
  const found: number[] = [];
  const queue = [rootPid];
  for (let pid = queue.shift(); pid !== undefined; pid = queue.shift()) {
    for (const child of children.get(pid) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

async function parentPid(pid: number): Promise<number | undefined> {
  return (await statOf(pid))?.ppid;
}

async function statOf(pid: number): Promise<ReturnType<typeof parseProcStat>> {
  try {
    return parseProcStat(pid, await readFile(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined; // exited while we were looking
  }
}

/** Sends `signal` to the process and all its descendants (collected before any is signalled). */
export async function killTree(rootPid: number, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  const pids = await descendantsOf(rootPid);
  for (const pid of [rootPid, ...pids]) {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

/** Whether a process with this pid exists and is not a zombie. */
export async function isAlive(pid: number): Promise<boolean> {
  const stat = await statOf(pid);
  return stat !== undefined && !stat.exited;
}

/** The command line of a process, arguments joined by spaces ('' if it is gone). */
export async function commandLineOf(pid: number): Promise<string> {
  try {
    return (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0').join(' ').trim();
  } catch {
    return '';
  }
}

/** Descendants of rootPid whose command line matches `pattern`. */
export async function findDescendants(rootPid: number, pattern: RegExp): Promise<number[]> {
  const found: number[] = [];
  for (const pid of await descendantsOf(rootPid)) {
    if (pattern.test(await commandLineOf(pid))) found.push(pid);
  }
  return found;
}
