/**
 * After debussy itself was killed (kill -9), its agent session and the session's tool processes
 * may still run. The journal recorded each session's PID, start time and marker: end exactly those
 * (a recycled PID has another start time and is left alone).
 */
import { findSessionProcesses, terminateProcesses, type ProcessRef } from '../process/tree.js';
import { isProcessAlive } from '../process/identity.js';
import type { RunState } from '../state/index.js';

export async function reclaimDeadRun(run: RunState): Promise<number> {
  const refs: ProcessRef[] = [];
  for (const phase of Object.values(run.phases)) {
    for (const session of phase.sessions) {
      if (session.ended || session.agentPid === undefined) continue;
      const alive = isProcessAlive(session.agentPid, session.agentStartTime);
      const marker = session.marker ? { name: 'DEBUSSY_SESSION_MARKER', value: session.marker } : undefined;
      const found = alive || marker ? findSessionProcesses(alive ? session.agentPid : -1, marker) : [];
      if (alive) refs.push({ pid: session.agentPid, ...(session.agentStartTime === undefined ? {} : { startTime: session.agentStartTime }) });
      refs.push(...found);
    }
  }
  const unique = [...new Map(refs.map((ref) => [ref.pid, ref])).values()];
  return unique.length === 0 ? 0 : terminateProcesses(unique, 2000);
}
