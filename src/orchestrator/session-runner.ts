/**
 * Runs one agent session: starts it through the agent's driver, feeds its events to a fresh context monitor and the
 * reporters, and stops it gracefully when the monitor fires (unless in one-shot mode). It reports
 * what happened; the phase runner decides what comes next.
 */
import path from 'node:path';
import { apiErrorMessage, describeCompaction, describeLogFailure, sessionLogPaths, type AgentDriver, type AgentEvent, type AgentSession, type SessionEnd, type StopCause } from '../agent/index.js';
import { ActivityTrail } from '../checkpoint/last-activity.js';
import { ContextMonitor, createDisplaySnapshot, describeCrossing, type ContextCrossing, type ContextSnapshot, type TokenCalibration } from '../context/index.js';
import { RefusalTracker, type Refusal } from '../agent/refusals.js';
import { eventForDisplay } from '../report/display-event.js';
import type { Reporter } from '../report/reporter.js';
import type { RunRecorder } from './run-recorder.js';
import { checkBudget, describeBudgetReached, SessionSpend, sessionBudgetFlag, type BudgetCheck, type BudgetLimits, type PriceTable, type SpendFigure, type SpentSoFar } from '../cost/index.js';
import type { RateLimitInfo } from '../recovery/usage-limit.js';
import { LiveSessionFile, liveSessionPath } from '../state/index.js';
import { HOOKS_DID_NOT_ANSWER, hooksDidNotAnswer } from '../agent/claude/hooks-off.js';

export interface SessionRequest {
  phaseId: string;
  attemptId: string;
  sessionIndex: number;
  prompt: string;
  /** Continue this session of the agent instead of starting a new one. */
  resumeSessionId?: string;
  model: string | undefined;
  /** The agent CLI the session runs (agent/agent-driver.ts). */
  agent: AgentDriver;
  cwd: string;
  env: Record<string, string | undefined>;
  /** Where the agent's `debussy` lives (first on PATH in `env`). */
  shimDir: string;
  logDir: string;
  thresholdPercent: number;
  toolCallThreshold: number;
  contextWindow: number | undefined;
  /** max_context_tokens: an absolute cap beside the threshold; undefined: none. */
  maxContextTokens: number | undefined;
  /** A resumed session: the window its attempt started with (an agent may forget it on resume: AgentDriver.resumeKeep). */
  inheritedContextWindow?: number;
  /** The phase's token calibration: what one session learned about the model's counts, the next starts from. */
  calibration?: TokenCalibration;
  /** False in one-shot mode: a crossing is reported, the session runs on. */
  stopOnCrossing: boolean;
  stopGraceMs: number;
  sessionTimeoutMs: number | undefined;
  /** No event for this long while no tool runs: the session is stalled. */
  stallTimeoutMs: number;
  /** Aborted when the user interrupts the run: stop gracefully. */
  signal: AbortSignal;
  /** Aborted on a second interrupt: kill now. */
  forceStop: AbortSignal;
  /** The price table estimates are made with (shipped, with the config's `prices`). */
  prices: PriceTable;
  /** max_cost / max_phase_cost and what was spent before this session: stop when the running total reaches a budget. */
  budget?: { limits: BudgetLimits; spent: SpentSoFar; resumeCommand: string };
  /** Called when the agent starts a tool call (before claude runs it): the run puts back what the agent needs. */
  beforeToolCall?: () => void;
}

export type { StopCause };

/** What happened in a session: the agent's SessionEnd as it came, and what debussy saw around it. */
export interface SessionReport {
  end: SessionEnd;
  crossing: ContextCrossing | undefined;
  /** Why debussy stopped it, if it did. */
  stoppedBy: StopCause | undefined;
  snapshot: ContextSnapshot;
  model: string | undefined;
  /** The last few condensed steps, for the checkpoint. */
  lastActivity: string[];
  /** Tool calls claude refused for want of permission (tool errors and the result's permission_denials). */
  refusals: Refusal[];
  /** What the session cost: claude's figure, or debussy's estimate from its tokens when it printed no result. */
  spend: SpendFigure;
  /** Set when the session was stopped for a budget (stoppedBy 'budget'). */
  budgetReached?: Extract<BudgetCheck, { kind: 'reached' }>;
  /** The session's rate_limit_events (subscription auth), in order. */
  rateLimits: RateLimitInfo[];
}

const STARTUP_ALLOWANCE_MS = 30_000;

/** claude stopped at its own --max-budget-usd before debussy's total got there (it also counts subagents): the budget it was given. */
function ownBudgetStop(limits: BudgetLimits, spent: SpentSoFar, runningUsd: number): Extract<BudgetCheck, { kind: 'reached' }> {
  const run = limits.maxCost === undefined ? undefined : { scope: 'run' as const, limitUsd: limits.maxCost, spentUsd: spent.runUsd + runningUsd, nextTurnUsd: 0 };
  const phase = limits.maxPhaseCost === undefined ? undefined : { scope: 'phase' as const, limitUsd: limits.maxPhaseCost, spentUsd: spent.phaseUsd + runningUsd, nextTurnUsd: 0 };
  const tightest = run !== undefined && (phase === undefined || run.limitUsd - run.spentUsd <= phase.limitUsd - phase.spentUsd) ? run : phase;
  return { kind: 'reached', ...(tightest ?? { scope: 'run', limitUsd: 0, spentUsd: spent.runUsd + runningUsd, nextTurnUsd: 0 }) };
}

export async function runSession(request: SessionRequest, recorder: RunRecorder, reporter: Required<Reporter>): Promise<SessionReport> {
  let crossing: ContextCrossing | undefined;
  let stoppedBy: SessionReport['stoppedBy'];
  let model = request.model;
  const activity = new ActivityTrail();
  const refusals = new RefusalTracker();
  const spend = new SessionSpend(request.prices);
  const rateLimits: RateLimitInfo[] = [];
  let budgetReached: SessionReport['budgetReached'];

  // A context, compaction or budget stop lets the running tool finish (graceful); an interrupt, a
  // timeout or a stall stops now, and claude ends the running tool.
  const stop = (by: StopCause, reason: string, immediate = by !== 'context' && by !== 'compaction' && by !== 'budget') => {
    if (stoppedBy) return;
    stoppedBy = by;
    recorder.record({ type: 'stop_requested', phaseId: request.phaseId, sessionIndex: request.sessionIndex, reason });
    session.requestStop(reason, { immediate });
  };

  // claude compacted although debussy's PreCompact hook refuses it (a user's settings turned hooks
  // off, or a CLI that ignores the hook): a summary now stands in for the phase's context. Recorded,
  // and the session restarts from a checkpoint, as at the context threshold.
  const onCompaction = (event: Extract<AgentEvent, { type: 'compaction' }>) => {
    recorder.record({
      type: 'compaction', phaseId: request.phaseId, sessionIndex: request.sessionIndex, stopping: request.stopOnCrossing,
      ...(event.preTokens === undefined ? {} : { preTokens: event.preTokens }),
      ...(event.postTokens === undefined ? {} : { postTokens: event.postTokens }),
    });
    if (request.stopOnCrossing) stop('compaction', describeCompaction(event));
  };

  const monitor = new ContextMonitor({
    thresholdPercent: request.thresholdPercent,
    toolCallThreshold: request.toolCallThreshold,
    ...(request.contextWindow === undefined ? {} : { contextWindowOverride: request.contextWindow }),
    ...(request.maxContextTokens === undefined ? {} : { maxContextTokens: request.maxContextTokens }),
    ...(request.inheritedContextWindow === undefined ? {} : { inheritedContextWindow: request.inheritedContextWindow }),
    ...(request.calibration === undefined ? {} : { calibration: request.calibration }),
    onLimit: (hit) => {
      crossing = hit;
      // The crossing as the monitor reported it (context-figures.ts): the journal keeps it whole.
      recorder.record({ ...hit, type: 'context_crossed', phaseId: request.phaseId, sessionIndex: request.sessionIndex, stopping: request.stopOnCrossing });
      if (request.stopOnCrossing) stop('context', describeCrossing(hit));
    },
  });

  const displaySnapshot = createDisplaySnapshot(monitor);

  const logs = sessionLogPaths(request.logDir, request.phaseId, request.sessionIndex);
  // The callbacks above run only once events flow, after this assignment.
  const budgetBefore = request.budget === undefined ? undefined : sessionBudgetFlag(checkBudget(request.budget.limits, request.budget.spent));
  const session: AgentSession = request.agent.start({
    prompt: request.prompt,
    cwd: request.cwd,
    env: request.env,
    shimDir: request.shimDir,
    ...(request.model === undefined ? {} : { model: request.model }),
    ...(request.resumeSessionId === undefined ? {} : { resumeSessionId: request.resumeSessionId }),
    ...(budgetBefore === undefined ? {} : { maxBudgetUsd: budgetBefore }),
    rawLogPath: logs.raw,
    readableLogPath: logs.readable,
    stopGraceMs: request.stopGraceMs,
    redact: recorder.redact,
    // A full disk: said when it happens; the session goes on (its journal still tells its outcome).
    onLogFailure: (failure) => recorder.record({ type: 'notice', level: 'warning', phaseId: request.phaseId, message: describeLogFailure(failure, path.relative(request.cwd, failure.path)) }),
  });

  recorder.record({
    type: 'session_started',
    phaseId: request.phaseId,
    attemptId: request.attemptId,
    sessionIndex: request.sessionIndex,
    agentPid: session.pid,
    agent: request.agent.name,
    marker: session.marker,
    ...(session.startTime === undefined ? {} : { agentStartTime: session.startTime }),
    ...(request.model === undefined ? {} : { model: request.model }),
    promptChars: request.prompt.length,
    logPath: logs.readable,
    streamLogPath: logs.raw,
  });

  // What `debussy status` shows of the session while it runs (state/live-session.ts).
  const live = new LiveSessionFile(liveSessionPath(request.logDir), { phaseId: request.phaseId, attemptId: request.attemptId, sessionIndex: request.sessionIndex });
  const liveFigures = () => {
    const now = monitor.snapshot();
    const cost = spend.figure();
    return {
      contextTokens: now.usedTokens, contextPercent: now.percent, contextWindow: now.contextWindow ?? 0, ...(now.limit === undefined ? {} : { contextLimitTokens: Math.round(now.limit.tokens) }),
      peakContextTokens: now.peakTokens, peakContextPercent: now.peakPercent, toolCalls: now.toolCalls,
      costUsd: cost.usd, costEstimated: cost.estimated, inputTokens: cost.tokens.inputTokens, outputTokens: cost.tokens.outputTokens,
    };
  };

  // An interrupt that is not the user's carries its reason (run-state-guard.ts: debussy's state
  // was lost); the running tool may finish, so an agent's `debussy done` under way still lands.
  const onAbort = () => {
    const reason: unknown = request.signal.reason;
    if (typeof reason === 'string') stop('interrupt', reason, false);
    else stop('interrupt', 'interrupted by the user');
  };
  const onForce = () => {
    stoppedBy ??= 'interrupt';
    void session.kill('interrupted twice: ending the session now');
  };
  request.signal.addEventListener('abort', onAbort, { once: true });
  request.forceStop.addEventListener('abort', onForce, { once: true });
  if (request.signal.aborted) onAbort();
  if (request.forceStop.aborted) onForce();
  let timeoutTimer: NodeJS.Timeout | undefined;
  let killTimer: NodeJS.Timeout | undefined;
  const stopHard = (by: StopCause, reason: string) => {
    if (stoppedBy) return;
    stop(by, reason);
    // A session that ignores the stop must not hold the run forever.
    killTimer = setTimeout(() => void session.kill(`${reason}: the session did not stop in time`), request.stopGraceMs * 3);
  };
  if (request.sessionTimeoutMs !== undefined) {
    timeoutTimer = setTimeout(() => stopHard('timeout', `session timeout (${Math.round((request.sessionTimeoutMs ?? 0) / 1000)} s) reached`), request.sessionTimeoutMs);
  }
  // The stall watchdog: the CLI itself waits 300 s on a stream that stopped after its headers.
  // A running tool may be silent for long, so only time spent waiting on the model counts.
  // Before its first event the CLI is still starting (1-3 s, more on a loaded machine): that
  // gets a longer allowance, so a slow start is not taken for a stalled stream.
  let toolsRunning = 0;
  let lastEventAt = Date.now();
  let sawEvent = false;
  // Once claude has answered, its SessionStart hook has run, or hooks are off (agent/hooks-off.ts):
  // said once a run; the session is then stopped by its signals alone.
  let hooksChecked = false;
  const stallCheck = setInterval(() => {
    const allowance = sawEvent ? request.stallTimeoutMs : Math.max(request.stallTimeoutMs, STARTUP_ALLOWANCE_MS);
    if (toolsRunning === 0 && Date.now() - lastEventAt >= allowance) {
      stopHard('stall', `no event from the session for ${Math.round(request.stallTimeoutMs / 1000)} s while waiting on the model`);
    }
  }, Math.min(1000, Math.max(50, Math.floor(request.stallTimeoutMs / 4))));

  try {
    for await (const event of session.events()) {
      lastEventAt = Date.now();
      sawEvent = true;
      if (!hooksChecked && (event.type === 'usage' || event.type === 'tool_start')) {
        hooksChecked = true;
        const said = async () => recorder.state().then((state) => state.notices.some((n) => n.message.startsWith(HOOKS_DID_NOT_ANSWER)), () => false);
        if (session.hooksAnswered?.() === false && !(await said())) {
          recorder.record({ type: 'notice', level: 'warning', phaseId: request.phaseId, message: hooksDidNotAnswer(request.phaseId, request.sessionIndex) });
        }
      }
      if (event.type === 'tool_start' && event.parentToolUseId === undefined) {
        toolsRunning += 1;
        request.beforeToolCall?.();
      }
      if (event.type === 'tool_result' && event.parentToolUseId === undefined) toolsRunning = Math.max(0, toolsRunning - 1);
      monitor.observe(event);
      spend.observe(event);
      live.update(liveFigures);
      if (event.type === 'rate_limit') rateLimits.push({ status: event.status, ...(event.resetsAt === undefined ? {} : { resetsAt: event.resetsAt }), ...(event.rateLimitType === undefined ? {} : { rateLimitType: event.rateLimitType }) });
      if (request.budget !== undefined && !stoppedBy && (event.type === 'usage' || event.type === 'output_usage' || event.type === 'result')) {
        // The running total, claude's own figure once it reports one: a budget reached stops the session as a context crossing does.
        const check = checkBudget(request.budget.limits, request.budget.spent, spend.figure().usd, spend.nextTurnUsd());
        const ownStop = event.type === 'result' && event.subtype === 'error_max_budget_usd';
        if (check.kind === 'reached' || ownStop) {
          budgetReached = check.kind === 'reached' ? check : ownBudgetStop(request.budget.limits, request.budget.spent, spend.figure().usd);
          stop('budget', describeBudgetReached(budgetReached, request.budget.resumeCommand).reason);
        }
      }
      // What people and prompts get of the event: redacted whole, then cut (display-event.ts).
      const shown = eventForDisplay(event, recorder.redact);
      refusals.observe(shown);
      if (event.type === 'compaction' && event.stage === 'boundary') onCompaction(event);
      if (event.type === 'init') model = event.model;
      activity.observe(shown);
      reporter.agent(request.phaseId, shown, displaySnapshot(event));
    }
  } finally {
    live.close();
    request.signal.removeEventListener('abort', onAbort);
    request.forceStop.removeEventListener('abort', onForce);
    if (timeoutTimer) clearTimeout(timeoutTimer);
    clearInterval(stallCheck);
  }
  const end = await session.ended;
  if (killTimer) clearTimeout(killTimer);
  const snapshot = monitor.snapshot();
  const lastActivity = activity.lines();
  const figure = spend.figure();

  recorder.record({
    type: 'session_ended',
    phaseId: request.phaseId,
    attemptId: request.attemptId,
    sessionIndex: request.sessionIndex,
    outcome: end.outcome,
    exitCode: end.exitCode,
    signal: end.signal,
    ...(end.sessionId === undefined ? {} : { sessionId: end.sessionId }),
    peakContextTokens: snapshot.peakTokens,
    peakContextPercent: snapshot.peakPercent,
    contextWindow: snapshot.contextWindow ?? 0,
    ...(snapshot.limit === undefined ? {} : { contextLimitTokens: Math.round(snapshot.limit.tokens), contextLimitSource: snapshot.limit.source }),
    toolCalls: snapshot.toolCalls,
    // Without a result (a stopped session) claude reports no totals: the tokens come from the
    // stream, and the cost is debussy's estimate from them, marked as such (cost/session-spend.ts).
    costUsd: end.result?.costUsd ?? figure.usd,
    inputTokens: end.result?.inputTokens ?? end.streamTokens.input,
    outputTokens: end.result?.outputTokens ?? end.streamTokens.output,
    ...(end.result === undefined ? { costEstimated: true } : {}),
    durationMs: end.durationMs,
    ...(end.lastApiError === undefined ? {} : { message: apiErrorMessage(end.lastApiError) }),
    ...(lastActivity.length === 0 ? {} : { lastActivity }),
    ...(end.incompleteLogs.length === 0 ? {} : { incompleteLogs: end.incompleteLogs.map((log) => ({ ...log, path: path.relative(request.cwd, log.path) })) }),
  });

  return { end, crossing, stoppedBy, snapshot, model, lastActivity, refusals: refusals.refusals(), spend: figure, rateLimits, ...(budgetReached === undefined ? {} : { budgetReached }) };
}
