/**
 * Finds the run a worker-facing command belongs to: the run named by the agent's environment, or
 * the run holding the project's lock. Undefined when no run is active.
 */
import path from 'node:path';
import { StateError } from '../errors/index.js';
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
  if (!summary?.state) {
    // A session's own run whose journal is gone (the agent cleaned the tree): marking the phase
    // anywhere else would skip debussy's verification, so refuse; the live run writes it back.
    if (fromEnv !== undefined) {
      throw new StateError('E_RUN_JOURNAL_MISSING', `the journal of this session's run ${runId} is missing from ${path.join(root, '.debussy', 'runs', runId)}`, {
        hint: 'something deleted .debussy/ (e.g. `git clean -fdx`); the running debussy writes it back within a second: run this again. Do not delete .debussy/.',
      });
    }
    return undefined;
  }
  const fromSession = env.DEBUSSY_RUN_ID === runId ? env.DEBUSSY_ATTEMPT_ID : undefined;
  return { root, state: summary.state, journal: `${summary.dir}/journal.ndjson`, attemptIdFromEnv: fromSession };
}
