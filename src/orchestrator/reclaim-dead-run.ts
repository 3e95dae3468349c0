/**
 * After debussy itself was killed (kill -9), its agent session, the session's tool processes, a
 * running gate or a `git commit` with its hook may still run. The journal recorded each session's
 * PID, start time and marker, and every child of the dead debussy carries its owner marker
 * (process/owner-marker.ts): end exactly those (a recycled PID has another start time and is left
 * alone).
 */
import { SESSION_MARKER_VAR } from '../agent/session-processes.js';
import { removeSessionTempFiles } from '../agent/session-temp-files.js';
import { findOrphansOf, type ProcessOwner } from '../process/owner-marker.js';
import { removeOwnedTempDirs } from '../process/owned-temp-dirs.js';
import { findSessionProcesses, terminateProcesses, type ProcessRef } from '../process/tree.js';
import { isProcessAlive } from '../process/identity.js';
import type { RunState, SessionSummary } from '../state/index.js';

function unendedSessions(run: RunState): SessionSummary[] {
  return Object.values(run.phases).flatMap((phase) => phase.sessions.filter((session) => !session.ended));
}

function sessionLeftovers(run: RunState): ProcessRef[] {
  const refs: ProcessRef[] = [];
  for (const session of unendedSessions(run)) {
    if (session.agentPid === undefined) continue;
    const alive = isProcessAlive(session.agentPid, session.agentStartTime);
    const marker = session.marker ? { name: SESSION_MARKER_VAR, value: session.marker } : undefined;
    const found = alive || marker ? findSessionProcesses(alive ? session.agentPid : -1, marker) : [];
    if (alive) refs.push({ pid: session.agentPid, ...(session.agentStartTime === undefined ? {} : { startTime: session.agentStartTime }) });
    refs.push(...found);
  }
  return refs;
}

/**
 * Ends what a dead run left behind: the unended sessions of `run` (when its journal is known) and
 * every process started by one of the dead `owners` (the debussy processes that held the lock or
 * wrote the journal); then removes what those sessions and those debussy processes kept in the
 * temporary directory. Resolves with how many processes were ended.
 */
export async function reclaimDeadRun(run: RunState | undefined, owners: readonly ProcessOwner[] = []): Promise<number> {
  const refs = run === undefined ? [] : sessionLeftovers(run);
  for (const owner of owners) refs.push(...findOrphansOf(owner));
  const unique = [...new Map(refs.map((ref) => [ref.pid, ref])).values()];
  const ended = unique.length === 0 ? 0 : await terminateProcesses(unique, 2000);
  // A git commit's folder (a copy of the index, the paths) when debussy was killed in the middle of one.
  for (const owner of owners) removeOwnedTempDirs(owner, 'commit');
  // removeSessionTempFiles takes only a plain name: an empty or forged marker removes nothing.
  for (const session of run === undefined ? [] : unendedSessions(run)) if (session.marker !== undefined) removeSessionTempFiles(session.marker);
  return ended;
}
