/**
 * Finding and ending every process a session started. Parent links alone are not enough: the
 * claude CLI runs each tool shell as its own session and process-group leader, and when claude is
 * killed those shells are re-parented to init. So a session's processes are its descendants by
 * /proc parent links plus every process whose environment carries the session's marker variable
 * (inherited by everything the session starts, and kept across re-parenting).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { isProcessAlive, processStartTime } from './identity.js';

export interface ProcessRef {
  pid: number;
  /** /proc start time: with it, a recycled pid is never mistaken for the process we saw. */
  startTime?: number;
}

interface ProcEntry {
  pid: number;
  ppid: number;
  pgrp: number;
  startTime: number;
}

function readEntry(pid: number): ProcEntry | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined; // gone while we looked
  }
  // Field 2 (the command name) may contain spaces and ')'; the fields after the last ')' are fixed.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const [state, ppid, pgrp] = [fields[0], Number(fields[1]), Number(fields[2])];
  const startTime = Number(fields[19]);
  if (state === 'Z' || state === 'X' || !Number.isSafeInteger(ppid) || !Number.isSafeInteger(startTime)) return undefined;
  return { pid, ppid, pgrp: Number.isSafeInteger(pgrp) ? pgrp : -1, startTime };
}

function listProcesses(): ProcEntry[] {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return []; // no procfs: nothing can be found this way
  }
  const entries: ProcEntry[] = [];
  for (const name of names) {
    if (name.charCodeAt(0) < 48 || name.charCodeAt(0) > 57) continue;
    const entry = readEntry(Number(name));
    if (entry !== undefined) entries.push(entry);
  }
  return entries;
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

/**
 * An environment variable that marks processes. With `prefix`, any value that starts with `value`
 * matches (an owner whose start time is not known).
 */
export interface ProcessMarker {
  name: string;
  value: string;
  prefix?: boolean;
}

/**
 * The live processes of a session: descendants of `rootPid` (root excluded) and, with a marker,
 * every process whose environment holds `name=value`. Never includes this process.
 */
export function findSessionProcesses(rootPid: number, marker?: ProcessMarker): ProcessRef[] {
  const entries = listProcesses();
  const children = new Map<number, ProcEntry[]>();
  for (const entry of entries) {
    const list = children.get(entry.ppid);
    if (list === undefined) children.set(entry.ppid, [entry]);
    else list.push(entry);
  }
  const found = new Map<number, ProcessRef>();
  const queue = [rootPid];
  for (let pid = queue.shift(); pid !== undefined; pid = queue.shift()) {
    for (const child of children.get(pid) ?? []) {
      if (found.has(child.pid)) continue;
      found.set(child.pid, { pid: child.pid, startTime: child.startTime });
      queue.push(child.pid);
    }
  }
  if (marker !== undefined) {
    const needle = Buffer.from(`${marker.name}=${marker.value}${marker.prefix === true ? '' : '\0'}`);
    for (const entry of entries) {
      if (!found.has(entry.pid) && environHas(entry.pid, needle)) found.set(entry.pid, { pid: entry.pid, startTime: entry.startTime });
    }
  }
  found.delete(rootPid);
  found.delete(process.pid);
  return [...found.values()];
}

/** Every live process (this one excepted) whose environment carries `marker`. */
export function findMarkedProcesses(marker: ProcessMarker): ProcessRef[] {
  return findSessionProcesses(-1, marker);
}

function signal(ref: ProcessRef, sig: NodeJS.Signals): boolean {
  if (!isProcessAlive(ref.pid, ref.startTime)) return false;
  // Read before signalling: once the leader is dead and reaped, /proc no longer says it led a group.
  const leadsGroup = readEntry(ref.pid)?.pgrp === ref.pid && ref.pid !== readEntry(process.pid)?.pgrp;
  try {
    process.kill(ref.pid, sig);
  } catch {
    return false;
  }
  // A group leader's group holds what it started in the background; end those too (never our own).
  if (leadsGroup) {
    try {
      process.kill(-ref.pid, sig);
    } catch {
      // the group is already empty
    }
  }
  return true;
}

const POLL_MS = 50;
const KILL_WAIT_MS = 2_000;

/**
 * SIGTERM to each process that is still the one referred to (and to its group if it leads one),
 * up to `graceMs` for them to exit, then SIGKILL to the survivors. Resolves, once they are gone,
 * with how many were signalled.
 */
export async function terminateProcesses(refs: ProcessRef[], graceMs: number): Promise<number> {
  const identified = refs.map((ref) => (ref.startTime === undefined ? { pid: ref.pid, startTime: processStartTime(ref.pid) } : ref));
  const signalled = identified.filter((ref) => ref.pid !== process.pid && signal(ref, 'SIGTERM'));
  const deadline = Date.now() + Math.max(0, graceMs);
  let alive = signalled.filter((ref) => isProcessAlive(ref.pid, ref.startTime));
  while (alive.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    alive = alive.filter((ref) => isProcessAlive(ref.pid, ref.startTime));
  }
  for (const ref of alive) signal(ref, 'SIGKILL');
  // SIGKILL cannot be refused, but delivery takes a moment: resolve once they are really gone.
  const killDeadline = Date.now() + KILL_WAIT_MS;
  while (alive.length > 0 && Date.now() < killDeadline) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    alive = alive.filter((ref) => isProcessAlive(ref.pid, ref.startTime));
  }
  return signalled.length;
}
