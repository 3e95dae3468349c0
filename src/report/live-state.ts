/**
 * What the live status area shows, folded from the reporter hooks: what is happening now (the
 * phase, its attempt, the activity), and the run's journal folded by fold.ts, as the run itself
 * and `debussy status` fold it, for what its events add up to (cost, budget). Each function
 * returns a new state, so the frame is a function of the events seen and the clock; the folded
 * run in it is updated in place (as the run's own is), so a state is replaced, never kept.
 */
import type { AgentEvent } from '../agent/index.js';
import { describeCompaction } from '../agent/describe-compaction.js';
import type { ContextFigures } from '../context/index.js';
import { foldEvent, type AttemptKind, type JournalEvent, type RunState } from '../state/index.js';
import type { RunStartInfo } from './reporter.js';

export interface LivePhase {
  id: string;
  title: string;
  /** 1-based position among the run's phases. */
  index: number;
  startedAt: number;
  /** Attempts started for the phase in this run. */
  attempts: number;
  restart: number;
  retry: number;
  kind: AttemptKind | undefined;
}

export interface LiveState {
  planName: string;
  phaseIds: string[];
  titles: Record<string, string>;
  maxRestarts: number | undefined;
  contextThreshold: number | undefined;
  runStartedAt: number | undefined;
  phase: LivePhase | undefined;
  /** Figures of the session running now (or the last one of the phase). */
  context: ContextFigures | undefined;
  /** What is happening: "session 2 running", "stopping: ...", "checking gates". */
  activity: string;
  sessionLive: boolean;
  /** The run as its journal says so far (fold.ts): its ended sessions' and jobs' cost, its budget. */
  run: RunState | undefined;
  /** Cost of the running session, once its result arrived (it ends right after). */
  currentCostUsd: number;
  /** While waiting for a usage limit to reset: when the wait ends (epoch ms). */
  waitUntil: number | undefined;
  finished: boolean;
  /** Phases started and not ended, in start order (--parallel runs several): a line each. */
  running: RunningPhase[];
}

export interface RunningPhase {
  id: string;
  activity: string;
  /** The context of its running session, once known. */
  percent: number | undefined;
}

export const INITIAL_LIVE_STATE: LiveState = {
  planName: '',
  phaseIds: [],
  titles: {},
  maxRestarts: undefined,
  contextThreshold: undefined,
  runStartedAt: undefined,
  phase: undefined,
  context: undefined,
  activity: 'starting',
  sessionLive: false,
  run: undefined,
  currentCostUsd: 0,
  waitUntil: undefined,
  finished: false,
  running: [],
};

const timeOf = (ts: string, fallback: number): number => {
  const ms = Date.parse(ts);
  return Number.isFinite(ms) ? ms : fallback;
};

export function applyRunStart(state: LiveState, info: RunStartInfo): LiveState {
  const titles = { ...state.titles };
  for (const phase of info.plan.phases) titles[phase.id] ??= phase.title;
  return {
    ...state,
    planName: info.plan.name,
    phaseIds: state.phaseIds.length > 0 ? state.phaseIds : info.phases.map((p) => p.id),
    titles,
    maxRestarts: info.maxRestarts,
    contextThreshold: info.contextThreshold,
  };
}

export function applyJournalEvent(state: LiveState, event: JournalEvent, now: number): LiveState {
  const run = foldEvent(state.run, event);
  return trackRunning(applyToRun({ ...state, run }, event, now), event);
}

/** What a running phase's line says after one of its events; undefined: unchanged. */
function phaseActivity(event: JournalEvent): string | undefined {
  switch (event.type) {
    case 'session_started':
      return `session ${event.sessionIndex} running`;
    case 'session_ended':
      return `session ${event.sessionIndex} ${event.outcome}`;
    case 'stop_requested':
      return 'stopping';
    case 'gate_result':
      return `gate ${event.name} ${event.passed ? 'passed' : 'failed'}`;
    case 'commit':
      return `committed ${event.sha.slice(0, 10)}`;
    case 'usage_limit':
      return event.stage === 'started' ? 'waiting for the usage limit' : undefined;
    case 'phase_branch':
      return event.stage === 'conflict' ? 'merge remediation' : undefined;
    default:
      return undefined;
  }
}

function trackRunning(state: LiveState, event: JournalEvent): LiveState {
  if (!('phaseId' in event) || event.phaseId === undefined) return state;
  const id = event.phaseId;
  if (event.type === 'phase_ended') return { ...state, running: state.running.filter((phase) => phase.id !== id) };
  if (event.type === 'phase_started') return { ...state, running: [...state.running.filter((phase) => phase.id !== id), { id, activity: 'preparing the session', percent: undefined }] };
  const activity = phaseActivity(event);
  if (activity === undefined || !state.running.some((phase) => phase.id === id)) return state;
  return { ...state, running: state.running.map((phase) => (phase.id === id ? { ...phase, activity } : phase)) };
}

function applyToRun(state: LiveState, event: JournalEvent, now: number): LiveState {
  switch (event.type) {
    case 'run_started':
      return {
        ...state,
        planName: event.planName,
        phaseIds: [...event.phaseIds],
        runStartedAt: state.runStartedAt ?? timeOf(event.ts, now),
        maxRestarts: event.options.max_restarts ?? state.maxRestarts,
        contextThreshold: event.options.context_threshold ?? state.contextThreshold,
        activity: 'starting',
      };
    case 'usage_limit':
      if (event.stage === 'started') return { ...state, waitUntil: event.until, activity: `waiting for the usage limit (${event.kind}) to reset` };
      return { ...state, waitUntil: undefined, activity: event.stage === 'ended' ? 'usage limit reset: resuming' : `usage limit (${event.kind}) resets beyond max_wait` };
    case 'budget_reached':
      return { ...state, activity: `${event.scope} budget reached: stopping` };
    case 'phase_started': {
      const index = state.phaseIds.indexOf(event.phaseId);
      return {
        ...state,
        titles: { ...state.titles, [event.phaseId]: event.title },
        phase: { id: event.phaseId, title: event.title, index: index < 0 ? state.phaseIds.length + 1 : index + 1, startedAt: timeOf(event.ts, now), attempts: 0, restart: 0, retry: 0, kind: undefined },
        context: undefined,
        activity: 'preparing the session',
      };
    }
    case 'attempt_started':
      if (state.phase?.id !== event.phaseId) return state;
      return { ...state, phase: { ...state.phase, attempts: state.phase.attempts + 1, restart: event.restart, retry: event.retry, kind: event.kind } };
    case 'session_started':
      return {
        ...state,
        context: { usedTokens: 0, contextWindow: state.context?.contextWindow, percent: 0, toolCalls: 0 },
        sessionLive: true,
        currentCostUsd: 0,
        activity: `session ${event.sessionIndex} running`,
      };
    case 'context_crossed':
      return { ...state, activity: event.stopping ? 'threshold crossed: stopping the session' : 'threshold crossed (one-shot: running on)' };
    case 'stop_requested':
      return { ...state, activity: `stopping: ${event.reason}` };
    case 'session_ended':
      return { ...state, sessionLive: false, currentCostUsd: 0, activity: `session ${event.sessionIndex} ${event.outcome}` };
    case 'restart':
      return { ...state, phase: state.phase && { ...state.phase, restart: event.restart }, maxRestarts: event.maxRestarts, activity: `restarting from a checkpoint (${event.restart}/${event.maxRestarts})` };
    case 'commit':
      return { ...state, activity: `committed ${event.sha.slice(0, 10)}` };
    case 'gate_result':
      return { ...state, activity: `gate ${event.name} ${event.passed ? 'passed' : 'failed'}` };
    case 'baseline_result':
      return { ...state, activity: `${event.reverify === true ? 're-verification' : 'baseline'}: gate ${event.name} ${event.passed ? 'passes' : 'fails'}` };
    case 'regression_result':
      return { ...state, activity: `regression check: gate ${event.name} of phase ${event.phaseId} ${event.passed ? 'passes' : 'FAILS'}` };
    case 'phase_ended':
      if (state.phase?.id !== event.phaseId) return state;
      return { ...state, sessionLive: false, activity: `phase ${event.phaseId} ${event.status}` };
    case 'run_ended':
      return { ...state, sessionLive: false, finished: true, activity: `run ${event.status}` };
    default:
      return state;
  }
}

export function applyAgentEvent(state: LiveState, event: AgentEvent, context: ContextFigures, phaseId?: string): LiveState {
  const next: LiveState = {
    ...state,
    context,
  };
  if (phaseId !== undefined && state.running.some((phase) => phase.id === phaseId)) {
    const activity = event.type === 'tool_start' && event.parentToolUseId === undefined ? `running ${event.name}` : event.type === 'request_started' ? 'waiting for the model' : undefined;
    next.running = state.running.map((phase) => (phase.id === phaseId ? { ...phase, percent: context.percent, ...(activity === undefined ? {} : { activity }) } : phase));
  }
  if (event.type === 'result') next.currentCostUsd = event.costUsd ?? 0;
  if (event.type === 'tool_start' && event.parentToolUseId === undefined) next.activity = `running ${event.name}`;
  if (event.type === 'request_started' || (event.type === 'tool_result' && event.parentToolUseId === undefined)) next.activity = 'waiting for the model';
  if (event.type === 'compaction') next.activity = describeCompaction(event);
  return next;
}

export interface LiveCost {
  /** This run's: its ended sessions and finished jobs (as fold.ts counts them), plus the running session when its figure is known. */
  usd: number;
  /** Some of it is debussy's estimate (sessions stopped before claude's result). */
  estimated: boolean;
  /** A session's cost is not known (older journals): usd is a lower bound. */
  incomplete: boolean;
  /** max_cost, and what the runs this one continues spent (counted against it). */
  budgetUsd: number | undefined;
  priorUsd: number;
}

/** What the run has spent so far, from the folded run and the running session. */
export function liveCost(state: LiveState): LiveCost {
  const phases = Object.values(state.run?.phases ?? {});
  return {
    usd: phases.reduce((sum, phase) => sum + phase.costUsd, 0) + state.currentCostUsd,
    estimated: phases.some((phase) => phase.estimatedCostUsd !== undefined),
    incomplete: phases.some((phase) => phase.sessionsWithoutCost > 0),
    budgetUsd: state.run?.budget?.maxCostUsd,
    priorUsd: state.run?.priorCostUsd ?? 0,
  };
}
