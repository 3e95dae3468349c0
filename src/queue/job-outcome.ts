/**
 * What a phase job's result means to the submitter's run: the PhaseResult the phase would have had
 * run here, so the run decides what follows exactly as for a phase run on this machine
 * (parallel/phase-result.ts). Pure.
 */
import { EXIT_CODES, type ExitCodeName } from '../errors/index.js';
import type { PhaseResult } from '../orchestrator/phase-context.js';
import type { PhaseJobResult } from './phase-job.js';

function exitKindOf(code: number): ExitCodeName {
  const found = (Object.keys(EXIT_CODES) as ExitCodeName[]).find((name) => EXIT_CODES[name].code === code);
  return found === undefined || found === 'success' ? 'failed' : found;
}

export function phaseResultOfJob(result: PhaseJobResult): PhaseResult {
  const where = `on worker ${result.worker}`;
  const reason = `${result.reason ?? `the phase ended ${result.status}`} (${where})`;
  const hint = `See the run's log in that worker's checkout (debussy logs), or run the phase here: debussy run PLAN --only ID.`;
  switch (result.status) {
    case 'completed':
      return { status: 'completed' };
    case 'failed':
      return { status: 'failed', reason, hint };
    case 'blocked':
      return { status: 'blocked', reason };
    case 'aborted':
      return { status: 'aborted', reason, hint, exitKind: exitKindOf(result.exitCode) };
    case 'interrupted': {
      const kind = exitKindOf(result.exitCode);
      // A budget or a usage limit stops the phase with its work pushed: the run pauses as it would here.
      if (kind === 'budget' || kind === 'usageLimit') return { status: 'paused', reason, hint, exitKind: kind };
      return { status: 'interrupted' };
    }
  }
}
