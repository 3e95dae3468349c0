/** `debussy progress --phase ID --message TEXT`: an entry for the checkpoint of a restart. */
import { StateError, UsageError } from '../../errors/index.js';
import { appendEvent } from '../../state/index.js';
import { findActiveRun, projectRootForCommand } from '../active-run.js';
import { otherPhaseError, progressEvent, progressRecordedLine } from '../../agent-signals/signal-records.js';

interface ProgressOptions {
  phase: string;
  message?: string;
  step?: string;
  json?: boolean;
}

export default async function progressCommand(options: ProgressOptions): Promise<number> {
  const message = (options.message ?? options.step ?? '').trim();
  if (message === '') throw new UsageError('progress needs a message', 'Pass --message "what was done" (or --step).');
  const root = await projectRootForCommand(process.env);
  const active = await findActiveRun(root, process.env);
  if (!active) {
    throw new StateError('E_NO_ACTIVE_RUN', 'no debussy run is active in this project: progress is recorded only during a run', { exitKind: 'failed', hint: 'Start one with `debussy run PLAN`.' });
  }
  if (!active.state.phaseOrder.includes(options.phase)) {
    throw new UsageError(`unknown phase "${options.phase}" for run ${active.state.runId}`, `Valid phase ids: ${active.state.phaseOrder.join(', ')}`);
  }
  const otherPhase = active.attemptIdFromEnv === undefined ? undefined : otherPhaseError('progress', options.phase, process.env.DEBUSSY_PHASE_ID);
  if (otherPhase !== undefined) throw otherPhase;
  const attemptId = active.attemptIdFromEnv ?? active.state.phases[options.phase]?.currentAttemptId;
  appendEvent(active.journal, progressEvent(options.phase, message, attemptId, process.env));
  if (options.json) process.stdout.write(`${JSON.stringify({ phase: options.phase, runId: active.state.runId, recorded: true })}\n`);
  else process.stdout.write(progressRecordedLine(options.phase));
  return 0;
}
