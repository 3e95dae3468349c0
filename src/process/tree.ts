/**
 * Finding and ending every process a session started. Parent links alone are not enough: the
 * claude CLI runs each tool shell as its own session and process-group leader, and when claude is
 * killed those shells are re-parented to init. So a session's processes are its descendants by
 * parent links plus every process whose environment carries the session's marker variable
 * (inherited by everything the session starts, and kept across re-parenting). Both come from the
 * process table (procfs or ps, see process-table.ts).
 */
import { liveProcesses, processStartTime, sameStart, type ProcessIdentity } from './identity.js';
import { processTable, type ListedProcess, type ProcessEntry, type ProcessMarker } from './process-table.js';

export type { ProcessMarker } from './process-table.js';

/** A process seen once: with its start time, a recycled PID is never mistaken for it. */
export type ProcessRef = ProcessIdentity;

function collect(entries: readonly ListedProcess[], rootPid: number): ProcessRef[] {
  const children = new Map<number, ListedProcess[]>();
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
  for (const entry of entries) {
    if (entry.marked && !found.has(entry.pid)) found.set(entry.pid, { pid: entry.pid, startTime: entry.startTime });
  }
  found.delete(rootPid);
  found.delete(process.pid);
  return [...found.values()];
}

/**
 * The live processes of a session: descendants of `rootPid` (root excluded) and, with a marker,
 * every process whose environment holds `name=value`. Never includes this process.
 */
export function findSessionProcesses(rootPid: number, marker?: ProcessMarker): ProcessRef[] {
  return collect(processTable().list(marker), rootPid);
}

/**
 * The descendants of `root` while it is still the process referred to (parent links mean nothing
 * once its PID went to another), else none. Under procfs, read down from the root through the
 * kernel's children lists (a session snapshots this every second: the root's tree is a handful of
 * files, the whole table hundreds); otherwise, or where those lists cannot be read, one pass over
 * the process table: one `ps` under ps.
 */
export function findDescendants(root: ProcessRef): ProcessRef[] {
  const table = processTable();
  const entries = table.listTree?.(root.pid) ?? table.list();
  const entry = entries.find((candidate) => candidate.pid === root.pid);
  if (entry === undefined || (root.startTime !== undefined && !sameStart(root.startTime, entry.startTime))) return [];
  return collect(entries, root.pid);
}

/** Every live process (this one excepted) whose environment carries `marker`. */
export function findMarkedProcesses(marker: ProcessMarker): ProcessRef[] {
  return findSessionProcesses(-1, marker);
}

/**
 * The start time of `pid` to give as a marker's `rootStartTime`, read only where it spares work:
 * under procfs it spares reading the environment of every older process in the marker search;
 * under ps, whose one run shows every environment anyway, it would cost a run of its own. Read it
 * right after spawning the process: until the event loop reaps it, its PID is not another's.
 */
export function markerRootStartTime(pid: number | undefined): number | undefined {
  if (pid === undefined || processTable().backend !== 'procfs') return undefined;
  return processStartTime(pid);
}

function signal(pid: number, leadsGroup: boolean, sig: NodeJS.Signals): boolean {
  try {
    process.kill(pid, sig);
  } catch {
    return false;
  }
  // A group leader's group holds what it started in the background; end those too.
  if (leadsGroup) {
    try {
      process.kill(-pid, sig);
    } catch {
      // the group is already empty
    }
  }
  return true;
}

/** Which of `refs` lead a process group other than ours (read before signalling: once a leader is reaped, nothing says it led one). */
function groupLeaders(refs: readonly ProcessRef[]): Set<number> {
  const entries: Map<number, ProcessEntry> = processTable().readMany([...refs.map((ref) => ref.pid), process.pid]) ?? new Map<number, ProcessEntry>();
  const ownGroup = entries.get(process.pid)?.pgid;
  return new Set(refs.filter((ref) => entries.get(ref.pid)?.pgid === ref.pid && ref.pid !== ownGroup).map((ref) => ref.pid));
}

const POLL_MS = 50;
const KILL_WAIT_MS = 2_000;

/**
 * SIGTERM to each process that is still the one referred to (and to its group if it leads one),
 * up to `graceMs` for them to exit, then SIGKILL to the survivors. Resolves, once they are gone,
 * with how many were signalled.
 */
export async function terminateProcesses(refs: ProcessRef[], graceMs: number): Promise<number> {
  const identified = refs
    .filter((ref) => ref.pid !== process.pid)
    .map((ref) => (ref.startTime === undefined ? { pid: ref.pid, startTime: processStartTime(ref.pid) } : ref));
  const targets = liveProcesses(identified);
  const leaders = groupLeaders(targets);
  const signalled = targets.filter((ref) => signal(ref.pid, leaders.has(ref.pid), 'SIGTERM'));
  const deadline = Date.now() + Math.max(0, graceMs);
  let alive = liveProcesses(signalled);
  while (alive.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    alive = liveProcesses(alive);
  }
  for (const ref of alive) signal(ref.pid, leaders.has(ref.pid), 'SIGKILL');
  // SIGKILL cannot be refused, but delivery takes a moment: resolve once they are really gone.
  const killDeadline = Date.now() + KILL_WAIT_MS;
  while (alive.length > 0 && Date.now() < killDeadline) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    alive = liveProcesses(alive);
  }
  return signalled.length;
}
