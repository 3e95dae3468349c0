/**
 * The procfs process table (Linux): /proc/<pid>/stat for parent, group, state and start time,
 * /proc/<pid>/environ for markers, /proc/<pid>/task/<tid>/children for one tree. Reads files only,
 * so it is cheap enough for hot paths; each file still costs a few microseconds of kernel time,
 * so a scan reads no more of them than its question needs.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { parseChildrenList, walkChildren } from './children-walk.js';
import type { ListedProcess, ProcessEntry, ProcessMarker, ProcessTable } from './process-entry.js';
import { startedAtOrAfter } from './start-clock.js';

/**
 * One /proc/<pid>/stat line as a process entry; undefined when it is not one. Field 2 (the command
 * name) may contain spaces and ')', so the fixed fields are counted from after the last ')'.
 */
export function parseProcStat(pid: number, text: string): ProcessEntry | undefined {
  const close = text.lastIndexOf(')');
  if (close === -1) return undefined;
  const fields = text.slice(close + 2).split(' ');
  // fields[0] is field 3 (state), so field 22 (starttime) is fields[19].
  const [state, ppid, pgrp] = [fields[0], Number(fields[1]), Number(fields[2])];
  const startTime = Number(fields[19]);
  if (state === undefined || !Number.isSafeInteger(ppid) || !Number.isSafeInteger(startTime)) return undefined;
  return { pid, ppid, pgid: Number.isSafeInteger(pgrp) ? pgrp : -1, startTime, exited: state === 'Z' || state === 'X' };
}

function readEntry(pid: number): ProcessEntry | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined; // gone while we looked
  }
  return parseProcStat(pid, text);
}

function environHas(pid: number, needle: Buffer): boolean {
  let environ: Buffer;
  try {
    environ = readFileSync(`/proc/${pid}/environ`);
  } catch {
    return false; // another user's process, or gone
  }
  for (let at = environ.indexOf(needle); at !== -1; at = environ.indexOf(needle, at + 1)) {
    if (at === 0 || environ[at - 1] === 0) return true;
  }
  return false;
}

/** ENOENT or ESRCH: the process (or thread) exited while we looked. */
function isGone(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ESRCH';
}

/**
 * The children of every thread of `pid` (a child is listed under the thread that forked it); none
 * once it is gone, undefined when a list cannot be read although it is there.
 */
function readChildren(pid: number): number[] | undefined {
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch (error) {
    return isGone(error) ? [] : undefined;
  }
  const children: number[] = [];
  for (const tid of tids) {
    try {
      for (const child of parseChildrenList(readFileSync(`/proc/${pid}/task/${tid}/children`, 'latin1'))) children.push(child);
    } catch (error) {
      if (!isGone(error)) return undefined;
    }
  }
  return children;
}

let mounted: boolean | undefined;
/** Whether the kernel keeps children lists (CONFIG_PROC_CHILDREN, on in standard kernels). */
let childrenLists: boolean | undefined;

export const procfsTable: ProcessTable = {
  backend: 'procfs',

  readMany(pids) {
    mounted ??= existsSync('/proc/self/stat');
    if (!mounted) return undefined;
    const found = new Map<number, ProcessEntry>();
    for (const pid of pids) {
      const entry = readEntry(pid);
      if (entry !== undefined) found.set(pid, entry);
    }
    return found;
  },

  list(marker?: ProcessMarker): ListedProcess[] {
    let names: string[];
    try {
      names = readdirSync('/proc');
    } catch {
      return []; // no procfs: nothing can be found this way
    }
    const needle = marker === undefined ? undefined : Buffer.from(`${marker.name}=${marker.value}${marker.prefix === true ? '' : '\0'}`);
    const listed: ListedProcess[] = [];
    for (const name of names) {
      if (name.charCodeAt(0) < 48 || name.charCodeAt(0) > 57) continue;
      const entry = readEntry(Number(name));
      if (entry === undefined || entry.exited) continue;
      // A process older than the marker's root cannot carry it: its environment is not read.
      const marked = needle !== undefined && startedAtOrAfter(entry.startTime, marker?.rootStartTime) && environHas(entry.pid, needle);
      listed.push({ ...entry, marked });
    }
    return listed;
  },

  listTree(rootPid) {
    childrenLists ??= existsSync(`/proc/${process.pid}/task/${process.pid}/children`);
    if (!childrenLists) return undefined;
    return walkChildren(rootPid, readEntry, readChildren)?.map((entry) => ({ ...entry, marked: false }));
  },
};
