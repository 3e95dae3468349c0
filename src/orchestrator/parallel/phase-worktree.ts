/**
 * Where a phase runs under --parallel: its worktree (under the live state directory, out of the
 * work tree and of any agent's cleaning) and its branch, and the PhaseContext that runs it there.
 */
import path from 'node:path';
import type { Plan } from '../../plan/types.js';
import { liveStateDir } from '../../state/index.js';
import type { AgentDriver } from '../../agent/agent-driver.js';
import type { PhaseContext } from '../phase-context.js';

const UNSAFE = /[^A-Za-z0-9._-]+/g;

/** A path or ref component made of a phase id (which may hold spaces or slashes). */
function safe(id: string): string {
  return id.replace(UNSAFE, '-').replace(/^[.-]+/, '') || 'phase';
}

export function phaseBranchName(runId: string, phaseId: string): string {
  return `debussy/${runId}/${safe(phaseId)}`;
}

export function phaseWorktreeDir(root: string, runId: string, phaseId: string): string {
  return path.join(liveStateDir(root), 'worktrees', `${runId}-${safe(phaseId)}`);
}

/** The same path seen from another checkout: a file under `from` moves under `to`; others stay. */
export function movePath(file: string, from: string, to: string): string {
  const relative = path.relative(from, file);
  return relative.startsWith('..') || path.isAbsolute(relative) ? file : path.join(to, relative);
}

/** The plan as read in the worktree: its master plan and phase files are the worktree's copies. */
export function planIn(plan: Plan, from: string, to: string): Plan {
  const move = (file: string) => movePath(file, from, to);
  return {
    ...plan,
    path: move(plan.path),
    phases: plan.phases.map((phase) => ({ ...phase, path: move(phase.path), file: phase.file === undefined ? undefined : { ...phase.file, path: move(phase.file.path) } })),
  };
}

/**
 * The run's agent, its sessions told the run's root as their project (DEBUSSY_PROJECT_ROOT): the
 * agent's `debussy done` finds the run's journal there, while the session works in the worktree.
 */
export function agentReportingTo(agent: AgentDriver, runRoot: string): AgentDriver {
  return new Proxy(agent, {
    get(target, property) {
      if (property === 'start') return (launch: Parameters<AgentDriver['start']>[0]) => target.start({ ...launch, env: { ...launch.env, DEBUSSY_PROJECT_ROOT: runRoot } });
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * The context of a phase in its worktree: the run's shared objects (journal, budget, breaker,
 * usage-limit pause, reporter) with the worktree as root. The master plan's status cells are the
 * supervisor's to write, in the run's branch only (one writer); the earlier phases whose gates are
 * regression gates are those in the worktree when it was made.
 */
export function phaseContextIn(run: PhaseContext, worktree: string, interrupt: AbortSignal, completed: ReadonlySet<string>): PhaseContext {
  const { keepInputs: _runInputs, ...rest } = run;
  return {
    ...rest,
    root: worktree,
    agent: agentReportingTo(run.agent, run.root),
    plan: planIn(run.plan, run.root, worktree),
    config: { ...run.config, update_plan_status: false },
    interrupt,
    completedPhases: new Set(completed),
  };
}
