/**
 * Finds the run a worker-facing command belongs to: the run named by the agent's environment, or
 * the run holding the project's lock. Undefined when no run is active.
 */
import { findProjectRoot, loadRun, readRunLock, type RunState } from '../state/index.js';

export interface ActiveRun {
  root: string;
  state: RunState;
  journal: string;
  /** The attempt the agent is in, when called from inside a session. */
  attemptIdFromEnv: string | undefined;
}

export async function projectRootForCommand(env: NodeJS.ProcessEnv): Promise<string> {
  return env.DEBUSSY_PROJECT_ROOT ? env.DEBUSSY_PROJECT_ROOT : findProjectRoot(process.cwd());
}

/**
 * The run this command belongs to. Inside an agent session that is the session's own run, even if
 * debussy died meanwhile: an orphaned agent's signal then lands in that run's journal, tied to an
 * attempt that no later run will take for its own, instead of marking the phase done unverified.
 */
export async function findActiveRun(root: string, env: NodeJS.ProcessEnv): Promise<ActiveRun | undefined> {
  const lock = await readRunLock(root);
  const fromEnv = env.DEBUSSY_RUN_ID && env.DEBUSSY_PROJECT_ROOT === root ? env.DEBUSSY_RUN_ID : undefined;
  const runId = fromEnv ?? (lock?.alive ? lock.runId : undefined);
  if (!runId) return undefined;
  const summary = await loadRun(root, runId);
  if (!summary?.state) return undefined;
  const fromSession = env.DEBUSSY_RUN_ID === runId ? env.DEBUSSY_ATTEMPT_ID : undefined;
  return { root, state: summary.state, journal: `${summary.dir}/journal.ndjson`, attemptIdFromEnv: fromSession };
}
