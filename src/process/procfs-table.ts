/**
 * The procfs process table (Linux): /proc/<pid>/stat for parent, group, state and start time,
 * /proc/<pid>/environ for markers. Reads files only, so it is cheap enough for hot paths.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import type { ListedProcess, ProcessEntry, ProcessMarker, ProcessTable } from './process-entry.js';

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

let mounted: boolean | undefined;

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
      listed.push({ ...entry, marked: needle !== undefined && environHas(entry.pid, needle) });
    }
    return listed;
  },
};
