/**
 * Checks made before anything starts: a plan that passes the audit (for the phases the run
 * selects: errors of the others are warnings), a git repository when debussy must commit, and no unfinished edits of the user's under the
 * agent (unless --allow-dirty). Each failure is one clear error; nothing has changed yet.
 */
import path from 'node:path';
import type { DebussyConfig } from '../config/index.js';
import { PlanError, PrerequisiteError } from '../errors/index.js';
import { hasTrackedChanges, isGitRepo, workingTreeStatus } from '../git/index.js';
import { auditPlan, findingsForSelection, formatFinding, selectedPhaseIds, type Phase, type PhaseSelection, type Plan } from '../plan/index.js';
import { DEBUSSY_TOOL_RULES } from '../agent/claude-args.js';
import { bashVerdict, editVerdict, type PermissionSettings } from '../permissions/rule-check.js';
import { docFile } from '../install/package-files.js';

export interface AuditedPlan {
  plan: Plan;
  /** Errors of phases the run does not select, as warnings (plan/selection.ts), formatted. */
  warnings: string[];
}

/** The plan, when it passes the audit for the phases `selection` runs; a PlanError naming the first error otherwise. */
export async function loadAuditedPlan(planPath: string, config: DebussyConfig, cwd: string, selection: PhaseSelection = {}): Promise<AuditedPlan> {
  const report = await auditPlan(planPath, { gateCommands: config.gates });
  const findings = report.plan === undefined ? report.findings : findingsForSelection(report.findings, selectedPhaseIds(report.plan, selection));
  const errors = findings.filter((f) => f.severity === 'error');
  if (!report.plan || errors.length > 0) {
    const first = errors[0] ? formatFinding(errors[0], cwd) : `${planPath}: no plan found`;
    throw new PlanError('E_PLAN_INVALID', `the plan fails the audit with ${Math.max(errors.length, 1)} error(s); first: ${first}`, {
      hint: `Run \`debussy audit ${path.relative(cwd, planPath) || planPath}\` for every finding, fix them, and run again.`,
    });
  }
  const demoted = findings.filter((finding, index) => finding.severity !== report.findings[index]?.severity);
  return { plan: report.plan, warnings: demoted.map((finding) => formatFinding(finding, cwd)) };
}

export interface PreflightResult {
  useGit: boolean;
  gitRepo: boolean;
}

export async function checkPrerequisites(root: string, config: DebussyConfig): Promise<PreflightResult> {
  const inRepo = await isGitRepo(root);
  if (config.auto_commit && !inRepo) {
    throw new PrerequisiteError('E_NOT_GIT_REPO', `auto-commit needs a git repository, and ${root} is not inside one`, 'Run `git init` and commit your files, or pass --no-auto-commit.');
  }
  if (inRepo && !config.allow_dirty && (await hasTrackedChanges(root))) {
    const status = await workingTreeStatus(root);
    const files = [...new Set([...status.staged, ...status.trackedChanges])];
    const shown = files.slice(0, 3).join(', ') + (files.length > 3 ? `, and ${files.length - 3} more` : '');
    throw new PrerequisiteError(
      'E_DIRTY_TREE',
      `tracked files have uncommitted changes (${shown}); the agent would work on top of your unfinished edits`,
      "Commit or stash them first, or pass --allow-dirty (debussy's commits then leave them out).",
    );
  }
  return { useGit: config.auto_commit && inRepo, gitRepo: inRepo };
}

/** The gate commands of the phases a run will start, each once. */
export function gateCommandsOf(phases: readonly Phase[]): string[] {
  const commands = phases.flatMap((phase) => (phase.file?.gates ?? []).map((gate) => gate.command?.trim() ?? ''));
  return [...new Set(commands.filter((command) => command !== ''))];
}

/** What of the config decides claude's permissions. */
export type PermissionConfig = Pick<DebussyConfig, 'permission_mode' | 'allowed_tools' | 'disallowed_tools' | 'claude_args'>;

export function permissionSettingsOf(config: PermissionConfig): PermissionSettings {
  return {
    mode: config.permission_mode,
    allowedTools: [...config.allowed_tools, ...DEBUSSY_TOOL_RULES],
    disallowedTools: config.disallowed_tools,
    skipsChecks: config.claude_args.includes('--dangerously-skip-permissions'),
  };
}

/**
 * One line when the configured permissions would refuse what the agent needs: editing files,
 * running the gates' commands to check its work (debussy runs the gates itself, but an agent that
 * cannot run them works blind), and its own `debussy done`. A warning: the user's Claude Code
 * settings files may allow more than debussy can see.
 */
export function permissionWarning(config: PermissionConfig, gateCommands: readonly string[]): string | undefined {
  const settings = permissionSettingsOf(config);
  const refusedGates = [...new Set(gateCommands)].filter((command) => bashVerdict(settings, command) === 'refused');
  const refused = [
    ...(editVerdict(settings) === 'refused' ? ['file edits (Write, Edit)'] : []),
    ...(bashVerdict(settings, 'debussy done') === 'refused' ? ['`debussy done` calls'] : []),
    ...(refusedGates.length === 0 ? [] : [`gate command${refusedGates.length === 1 ? '' : 's'} ${refusedGates.slice(0, 3).map((c) => `\`${c}\``).join(', ')}${refusedGates.length > 3 ? ` and ${refusedGates.length - 3} more` : ''}`]),
  ];
  if (refused.length === 0) return undefined;
  const mode = config.permission_mode === undefined ? 'permission_mode unset' : `permission_mode ${config.permission_mode}`;
  const list = refused.length === 1 ? refused[0] : `${refused.slice(0, -1).join(', ')} and ${refused[refused.length - 1]}`;
  return `claude would refuse the agent's ${list} (${mode}, ${config.allowed_tools.length} allowed_tools rule(s)) unless your Claude Code settings allow them: see ${docFile('permissions.md')}`;
}
