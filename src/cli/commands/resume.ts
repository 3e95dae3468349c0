/** `debussy resume`: `debussy run` on the plan of the project's last run. */
import path from 'node:path';
import { StateError } from '../../errors/index.js';
import { latestRun } from '../../state/index.js';
import { projectRootForCommand } from '../active-run.js';
import runCommand from './run.js';
import { inertLine } from '../../text/inert-text.js';

export default async function resumeCommand(options: Record<string, unknown>): Promise<number> {
  const root = await projectRootForCommand(process.env);
  const last = await latestRun(root);
  if (!last?.state) {
    throw new StateError('E_NOTHING_TO_RESUME', 'there is no earlier run in this project to resume', { exitKind: 'usage', hint: 'Start one with `debussy run PLAN`.' });
  }
  if (last.state.status === 'completed') {
    process.stdout.write(`debussy: run ${last.runId} of ${inertLine(last.state.planName)} completed; nothing to resume\n`);
    return 0;
  }
  const plan = path.relative(process.cwd(), last.state.planPath) || last.state.planPath;
  return runCommand(plan, options);
}
