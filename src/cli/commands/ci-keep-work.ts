/**
 * `debussy ci keep-work --phase ID --plan PLAN`: commits what a phase left uncommitted, as a
 * phase's own commits would hold it (not the changes that were there before it began, not files
 * holding credentials unless commit_secrets, not files over max_commit_file_size). Locally a failed or blocked phase leaves its work
 * in the working tree for you; a CI runner's tree is gone when the job ends, so the generated
 * workflow runs this after the phase, whatever its end, and hands the commit on.
 */
import path from 'node:path';
import { loadProjectConfig } from '../../config/index.js';
import { buildCommitMessage, commitPaths, decideCommitScope, filesHoldingCredentials, oversizedFiles, userChangeLookup, workingTreeStatus } from '../../git/index.js';
import { createRedactor } from '../../redact/index.js';
import { describeLeftOut } from '../../orchestrator/phase-commits.js';
import { parsePlan, requirePhase } from '../../plan/index.js';
import { UsageError } from '../../errors/index.js';
import { findProjectRoot, latestRun } from '../../state/index.js';
import { inertLine } from '../../text/inert-text.js';

interface KeepWorkOptions {
  phase: string;
  plan: string;
}

export default async function ciKeepWorkCommand(options: KeepWorkOptions): Promise<number> {
  const root = await findProjectRoot(process.cwd());
  const { config } = await loadProjectConfig(root);
  const parsed = await parsePlan(path.resolve(options.plan), { gateCommands: config.gates });
  if (!parsed.plan) throw new UsageError(`cannot read the plan ${options.plan}`, 'Pass the master plan with --plan PATH.');
  const phase = requirePhase(parsed.plan, options.phase, '--phase');
  // What was there before the phase began is left alone, as the phase's own commits leave it.
  const userChanges = (await latestRun(root, parsed.plan.path))?.state?.phases[phase.id]?.userChanges ?? [];
  const status = await workingTreeStatus(root);
  const changed = [...status.trackedChanges, ...status.untracked];
  const usersChange = userChangeLookup(userChanges);
  const maxBytes = config.max_commit_file_size;
  const oversized = { maxBytes, sizes: await oversizedFiles(root, changed.filter((file) => usersChange(file) === undefined), maxBytes) };
  const holdingCredentials = config.commit_secrets ? new Set<string>() : await filesHoldingCredentials(root, changed, createRedactor());
  const scope = decideCommitScope({ userChanges, changed, holdingCredentials, commitSecrets: config.commit_secrets, oversized });
  if (scope.leftOut.length > 0) process.stderr.write(`debussy: warning: phase ${phase.id}: ${inertLine(describeLeftOut(scope.leftOut))}\n`);
  if (scope.commit.length === 0) {
    process.stdout.write(`debussy: phase ${phase.id} left nothing uncommitted\n`);
    return 0;
  }
  const message = buildCommitMessage({
    planName: parsed.plan.name, phaseId: phase.id, phaseTitle: phase.title, purpose: 'phase_failed',
    reason: 'the CI job ended with this work uncommitted; kept on the phase branch for inspection and the next run',
  });
  const result = await commitPaths(root, message, scope.commit);
  if (!result.committed) {
    process.stderr.write(`debussy: phase ${phase.id}: the work left uncommitted could not be committed (${result.reason ?? 'error'}): ${inertLine((result.error ?? '').split('\n')[0] ?? '')}\n`);
    return 1;
  }
  process.stdout.write(`debussy: phase ${phase.id}: committed ${result.files.length} file(s) it left uncommitted (${result.sha?.slice(0, 10) ?? ''})\n`);
  return 0;
}
