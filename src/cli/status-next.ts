/**
 * The "Next" line of `debussy status`: what runs now and after, from the run's state and, when the
 * plan reads, the decision the next `debussy run` would make (cli/dry-run.ts), which honours the
 * master plan's marks, `debussy done --verify` marks and completions of earlier runs. Pure.
 */
import type { RunState, RunStatus } from '../state/index.js';
import { inertLine } from '../text/inert-text.js';

/** A phase as the next `debussy run` would take it (DryRunPhase's action). */
export interface UpcomingPhase {
  id: string;
  action: 'run' | 'resume' | 'verify' | 'skip';
}

export interface NextInput {
  state: RunState;
  /** The effective status: `running` only while the run holds its lock. */
  status: RunStatus;
  /** The plan as the user would pass it to `debussy run`. */
  planArg: string;
  /** What the next run would do with each phase; undefined when the plan or config does not read. */
  upcoming: readonly UpcomingPhase[] | undefined;
}

const list = (ids: readonly string[]) => ids.map((id) => inertLine(id)).join(', ');

/** Phases still to run, in order, by the next run's decision, else by the run's own state. */
function toRun(input: NextInput): { ids: string[]; verify: Set<string> } {
  if (input.upcoming !== undefined) {
    const pending = input.upcoming.filter((phase) => phase.action !== 'skip');
    return { ids: pending.map((phase) => phase.id), verify: new Set(pending.filter((phase) => phase.action === 'verify').map((phase) => phase.id)) };
  }
  return { ids: input.state.phaseOrder.filter((id) => input.state.phases[id]?.status !== 'completed'), verify: new Set() };
}

/** "2 (verified again first), 3". */
function described(ids: readonly string[], verify: ReadonlySet<string>): string {
  return ids.map((id) => `${inertLine(id)}${verify.has(id) ? ' (its gates checked again first)' : ''}`).join(', ');
}

function running(input: NextInput, pending: string[], verify: ReadonlySet<string>): string {
  const { state } = input;
  const current = state.phaseOrder.find((id) => state.phases[id]?.status === 'in_progress');
  if (current === undefined) return pending.length === 0 ? 'a run is in progress' : `a run is in progress; it goes on with ${described(pending, verify)}`;
  const open = state.phases[current]?.sessions.filter((session) => !session.ended).at(-1);
  const now = `phase ${inertLine(current)} is running (${open === undefined ? 'between sessions' : `session ${open.sessionIndex}`})`;
  const after = pending.filter((id) => id !== current);
  return after.length === 0 ? `${now}; it is the last phase to run` : `${now}; after it, this run goes on with ${described(after, verify)}`;
}

export function describeNext(input: NextInput): string {
  const { state, status } = input;
  const plan = inertLine(input.planArg);
  const { ids: pending, verify } = toRun(input);
  if (status === 'running') return running(input, pending, verify);
  if (status === 'completed' && pending.length === 0) return 'nothing: every phase completed';
  const current = pending.find((id) => (state.phases[id]?.attempts ?? 0) > 0 && state.phases[id]?.status !== 'completed');
  if (status === 'interrupted' && current !== undefined && !verify.has(current)) {
    const p = state.phases[current];
    const then = pending.filter((id) => id !== current);
    return `\`debussy run ${plan}\` resumes phase ${inertLine(current)} from its checkpoint (restarts ${p?.restarts ?? 0}, retries ${p?.retries ?? 0} carried over)${then.length === 0 ? '' : `, then runs ${described(then, verify)}`}`;
  }
  const broken = (state.regressions ?? []).filter((r) => !r.passed && r.mode === 'end');
  if (pending.length === 0 && broken.length > 0) {
    return `fix what broke gate(s) ${broken.map((r) => inertLine(`${r.name} of phase ${r.phaseId}`)).join(', ')} (regression check above), then \`debussy run ${plan}\` checks them again`;
  }
  if (pending.length === 0) return `nothing: every phase is done (\`debussy run ${plan}\` would run none)`;
  if (status === 'blocked') return `answer what the agent needs (reason above), then \`debussy run ${plan}\` runs phase ${list(pending.slice(0, 1))} again`;
  return `\`debussy run ${plan}\` skips the completed phases and runs ${described(pending, verify)}`;
}
