/** `debussy history`: earlier runs in this project, newest first; plan names shown inert. */
import path from 'node:path';
import { UsageError } from '../../errors/index.js';
import { effectiveRunStatus, listRuns, readRunLock } from '../../state/index.js';
import { projectRootForCommand } from '../active-run.js';
import { inertJson, inertLine } from '../../text/inert-text.js';

interface HistoryOptions {
  limit: string;
  json?: boolean;
}

export default async function historyCommand(options: HistoryOptions): Promise<number> {
  const limit = Number(options.limit);
  if (!Number.isInteger(limit) || limit < 1) throw new UsageError(`--limit ${options.limit} is not allowed: expected a whole number of at least 1`);
  const root = await projectRootForCommand(process.env);
  const lock = await readRunLock(root);
  const runs = (await listRuns(root)).slice(0, limit);
  const rows = runs.map((run) => {
    const state = run.state;
    const status = state ? effectiveRunStatus(state, lock) : 'unreadable';
    const phases = state ? Object.values(state.phases) : [];
    return {
      runId: run.runId, plan: state?.planName ?? '?', planPath: state?.planPath ?? '', status,
      startedAt: state?.startedAt ?? '', endedAt: state?.endedAt ?? null,
      phasesCompleted: phases.filter((p) => p.status === 'completed').length, phases: state?.phaseOrder.length ?? 0,
      restarts: phases.reduce((n, p) => n + p.restarts, 0), costUsd: phases.reduce((n, p) => n + p.costUsd, 0),
    };
  });
  if (options.json) {
    process.stdout.write(`${inertJson(JSON.stringify(rows, null, 2))}\n`);
    return 0;
  }
  if (rows.length === 0) {
    process.stdout.write('No runs yet.\n');
    return 0;
  }
  for (const row of rows) {
    process.stdout.write(`${row.runId}  ${row.status.padEnd(11)}  ${row.phasesCompleted}/${row.phases} phases  ${row.restarts} restarts  $${row.costUsd.toFixed(2)}  ${inertLine(row.plan)} (${inertLine(path.relative(process.cwd(), row.planPath) || row.planPath)})\n`);
  }
  return 0;
}
