/**
 * One phase, start to end: sessions, context restarts, continuation of a session that forgot to
 * signal, retries, gate verification and remediation. The decisions come from next-step.ts,
 * after-verification.ts and the recovery policy (session-failure.ts); this file carries them out.
 * The loop is small: run the attempt's session, ask what follows it (a Move: the next attempt with
 * its counters, or the phase's end), carry that out. The counters (restarts, sessions, the retry
 * budget in RecoveryState, the model) travel in one Turn value that only a Move replaces.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { captureCheckpoint, type Checkpoint } from '../checkpoint/index.js';
import { activityFromStreamLog } from '../checkpoint/last-activity.js';
import { runGates, type GateOutcome } from '../verification/run-gates.js';
import { headSha } from '../git/index.js';
import type { Phase } from '../plan/types.js';
import { exitCodeOf } from '../errors/index.js';
import { buildPhasePrompt, buildRecoveryResumePrompt, buildReminderPrompt, buildRemediationPrompt, buildRestartPrompt, type FailedGate } from '../prompt/index.js';
import { afterSessionSuccess, condenseCheckpoint, initialRecoveryState, type RecoveryState } from '../recovery/index.js';
import { signalForAttempt, type AttemptKind, type PhaseState } from '../state/index.js';
import { buildAgentEnv } from './agent-environment.js';
import { decideNextStep, type NextStep } from './next-step.js';
import { notifyGiveUp } from './give-up-notice.js';
import { checkNotes } from './notes-check.js';
import { describeRefusals } from '../agent/refusals.js';
import { decideAfterVerification } from './after-verification.js';
import { decideRecovery, sessionFailed } from './session-failure.js';
import { PhaseCommits } from './phase-commits.js';
import { takeBaseline } from './phase-baseline.js';
import { gatesToRecheckAfter, runRegressionGates, toleratedGates, type BrokenGate } from './regression-check.js';
import { blockingFailures, isInherited, splitByBaseline, type GateVerdict } from '../verification/baseline.js';
import { markPlanStatus } from './plan-status.js';
import type { PhaseCarry, PhaseContext, PhaseResult } from './phase-context.js';
import { runSession, type SessionReport } from './session-runner.js';
import { describeCrossing, TokenCalibration } from '../context/index.js';
import { apiErrorMessage } from '../agent/index.js';
import { checkBudget, describeBudgetReached, phaseSpendUsd, runSpend, type BudgetCheck, type BudgetLimits } from '../cost/index.js';
import { recognizeUsageLimit } from '../recovery/usage-limit.js';
import { waitForUsageLimit } from './usage-limit-wait.js';

interface Attempt {
  id: string;
  kind: AttemptKind;
  prompt: string;
  resumeSessionId: string | undefined;
  continued: boolean;
  /** A resumed session keeps the model variant and window it started with (see resumeOf). */
  resumeModel?: string;
  resumeWindow?: number;
}

/** Waits, unless the user interrupts; false when interrupted. */
function waitUnlessInterrupted(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function newAttemptId(): string {
  return randomUUID().slice(0, 13);
}

/** What a resumed session must keep from the one it continues: the agent's driver knows what it forgets. */
function resumeOf(ctx: PhaseContext, report: SessionReport): Pick<Attempt, 'resumeModel' | 'resumeWindow'> {
  const keep = ctx.agent.resumeKeep({ model: report.model, contextWindow: report.snapshot.contextWindow });
  return {
    ...(keep.model === undefined ? {} : { resumeModel: keep.model }),
    ...(keep.contextWindow === undefined ? {} : { resumeWindow: keep.contextWindow }),
  };
}

function crossingText(report: SessionReport): string | undefined {
  if (report.stoppedBy === 'compaction') return report.end.stopReason;
  return report.crossing === undefined ? undefined : describeCrossing(report.crossing);
}

/** Where the phase stands between sessions: the attempt to run next and the counters it carries. */
interface Turn {
  attempt: Attempt;
  restarts: number;
  /** Sessions so far, this run's and the runs' before (for numbering logs). */
  sessions: number;
  /** The phase's retry budget and recovery counters: changed only from a decision's result. */
  recovery: RecoveryState;
  model: string | undefined;
}

/** What follows a session: another turn, or the phase's end. */
type Move = { kind: 'next'; turn: Turn } | { kind: 'end'; result: PhaseResult };

export async function runPhase(ctx: PhaseContext, phase: Phase, carry: PhaseCarry): Promise<PhaseResult> {
  return new PhaseRun(ctx, phase, carry).run();
}

class PhaseRun {
  private readonly config: PhaseContext['config'];
  private readonly recorder: PhaseContext['recorder'];
  private readonly oneShot: boolean;
  private readonly calibration = new TokenCalibration();
  private readonly budgetLimits: BudgetLimits;
  private baseSha: string | undefined;
  private commits!: PhaseCommits;
  private phasePrompt = '';

  constructor(
    private readonly ctx: PhaseContext,
    private readonly phase: Phase,
    private readonly carry: PhaseCarry,
  ) {
    this.config = ctx.config;
    this.recorder = ctx.recorder;
    this.oneShot = ctx.config.max_restarts === 0 || ctx.config.context_threshold >= 100;
    this.budgetLimits = { maxCost: ctx.config.max_cost, maxPhaseCost: ctx.config.max_phase_cost };
  }

  async run(): Promise<PhaseResult> {
    const { ctx, phase, carry, recorder } = this;
    this.baseSha = carry.baseSha ?? (ctx.gitRepo ? await headSha(ctx.root) : undefined);
    recorder.record({ type: 'phase_started', phaseId: phase.id, title: phase.title, ...(this.baseSha === undefined ? {} : { baseSha: this.baseSha }) });
    if (carry.resumedFrom) {
      const from = carry.resumedFrom;
      const unended = from.unendedSessionLog === undefined ? [] : await activityFromStreamLog(from.unendedSessionLog);
      const lastActivity = unended.length > 0 ? unended : from.lastActivity;
      recorder.record({ type: 'phase_resumed', phaseId: phase.id, fromRunId: from.runId, progress: from.progress, lastActivity, ...(carry.priorCostUsd === undefined ? {} : { priorCostUsd: carry.priorCostUsd }) });
    }
    // Before anything of the phase touches the tree: what differs from HEAD now is the user's.
    this.commits = await PhaseCommits.start(ctx, phase.id, carry);
    await markPlanStatus(ctx, phase.id, 'in_progress');
    this.phasePrompt = buildPhasePrompt({ plan: ctx.plan, phase, projectRoot: ctx.root });

    // The gates' verdict before the first session; a changed completed phase whose gates pass is done.
    if ((await takeBaseline(ctx, phase, carry)).kind === 'reverified') {
      recorder.record({ type: 'phase_ended', phaseId: phase.id, status: 'completed', reason: `verified again (${carry.reverify ?? 'the plan changed'}): every gate passes` });
      await markPlanStatus(ctx, phase.id, 'completed');
      return { status: 'completed', verifiedOnly: true };
    }

    const first = { restarts: carry.restarts, sessions: carry.sessions, recovery: { ...initialRecoveryState(), retries: carry.retries }, model: this.config.model };
    let turn: Turn = carry.resumeReason
      ? { ...first, attempt: this.startAttempt('resume', buildRestartPrompt(await this.checkpointFrom(carry.resumeReason, [], first.sessions), this.phasePrompt), first) }
      : { ...first, attempt: this.startAttempt('initial', this.phasePrompt, first) };

    for (;;) {
      // --parallel: no new session while another phase waits for a usage limit to reset.
      await ctx.usagePause?.idle();
      // A Ctrl-C that came while debussy was committing or waiting: start nothing new.
      if (ctx.interrupt.aborted) return this.stopInterrupted(turn);
      const spent = await this.spentSoFar();
      const beforeSession = checkBudget(this.budgetLimits, spent);
      if (beforeSession.kind === 'reached') return this.budgetStop(beforeSession, runSpend(await recorder.state()).estimatedUsd > 0);
      turn = { ...turn, sessions: turn.sessions + 1 };
      const report = await this.runAttempt(turn, beforeSession, spent);
      const move = await this.afterSession(turn, report);
      if (move.kind === 'end') return move.result;
      turn = move.turn;
    }
  }

  private async runAttempt(turn: Turn, budget: Exclude<BudgetCheck, { kind: 'reached' }>, spent: { runUsd: number; phaseUsd: number }): Promise<SessionReport> {
    const { ctx, phase, config } = this;
    const { attempt } = turn;
    const env = buildAgentEnv({
      base: ctx.env, shimDir: ctx.shimDir, projectRoot: ctx.root, runId: ctx.runId, planPath: ctx.plan.path,
      phaseId: phase.id, attemptId: attempt.id,
    });
    return runSession(
      {
        phaseId: phase.id, attemptId: attempt.id, sessionIndex: turn.sessions, prompt: attempt.prompt,
        ...(attempt.resumeSessionId === undefined ? {} : { resumeSessionId: attempt.resumeSessionId }),
        model: attempt.resumeModel ?? turn.model, agent: ctx.agent, cwd: ctx.root, env, shimDir: ctx.shimDir,
        logDir: path.join(ctx.runDir, 'sessions'), thresholdPercent: config.context_threshold, toolCallThreshold: config.tool_call_threshold,
        contextWindow: config.context_window ?? ctx.agent.contextWindowFor?.(attempt.resumeModel ?? turn.model), maxContextTokens: config.max_context_tokens > 0 ? config.max_context_tokens : undefined,
        ...(attempt.resumeWindow === undefined ? {} : { inheritedContextWindow: attempt.resumeWindow }), calibration: this.calibration, stopOnCrossing: !this.oneShot, stopGraceMs: config.stop_grace,
        sessionTimeoutMs: config.session_timeout, stallTimeoutMs: config.stall_timeout, signal: ctx.interrupt, forceStop: ctx.forceStop,
        prices: ctx.prices, ...(budget.remainingUsd === undefined ? {} : { budget: { limits: this.budgetLimits, spent, resumeCommand: ctx.resumeCommand } }),
        ...(ctx.keepLiveFiles === undefined ? {} : { beforeToolCall: ctx.keepLiveFiles }),
      },
      this.recorder,
      ctx.reporter,
    );
  }

  /** What follows a session, in order: a budget reached, a usage limit, a failed session, then the signal or its absence. */
  private async afterSession(turn: Turn, report: SessionReport): Promise<Move> {
    const signal = signalForAttempt(await this.phaseState(), turn.attempt.id);
    if (report.budgetReached !== undefined && signal === undefined) return this.end(await this.budgetStop(report.budgetReached, report.spend.estimated));
    // A usage limit is waited out (or ends the run), using no restart and no retry.
    const usageLimit = signal === undefined && sessionFailed(report, false)
      ? recognizeUsageLimit({ rateLimits: report.rateLimits, texts: [report.end.result?.text, report.end.lastApiError === undefined ? undefined : apiErrorMessage(report.end.lastApiError)], now: Date.now() })
      : undefined;
    if (usageLimit !== undefined) return this.afterUsageLimit(turn, report, usageLimit);
    if (sessionFailed(report, signal !== undefined)) return this.afterFailure(turn, report);
    if (report.refusals.length > 0) {
      this.notice(`${describeRefusals(report.refusals.map((r) => r.summary))}; allow them with permission_mode / allowed_tools`);
    }
    let recovery = turn.recovery;
    if (report.stoppedBy !== 'interrupt') {
      this.ctx.recovery.breaker.recordSuccess();
      recovery = afterSessionSuccess(recovery);
    }
    const step: NextStep = decideNextStep({
      phaseId: this.phase.id,
      signal: signal ? { status: signal.status, ...(signal.reason === undefined ? {} : { reason: signal.reason }) } : undefined,
      outcome: report.end.outcome,
      stoppedBy: report.stoppedBy,
      crossingText: crossingText(report),
      restarts: turn.restarts, maxRestarts: this.config.max_restarts, retries: recovery.retries, maxRetries: this.config.max_retries,
      alreadyContinued: turn.attempt.continued,
      sessionId: report.end.sessionId,
      failureText: (report.end.lastApiError === undefined ? undefined : apiErrorMessage(report.end.lastApiError)) ?? report.end.result?.text,
    });
    return this.afterStep({ ...turn, recovery }, report, step);
  }

  private async afterUsageLimit(turn: Turn, report: SessionReport, usageLimit: NonNullable<ReturnType<typeof recognizeUsageLimit>>): Promise<Move> {
    await this.commitCheckpoint(`usage limit reached (${usageLimit.kind})`);
    const waited = await waitForUsageLimit(this.ctx, this.phase.id, usageLimit);
    if (waited.kind === 'beyond_max_wait') return this.end(await this.finish({ status: 'paused', reason: waited.reason, hint: waited.hint, exitKind: 'usageLimit' }));
    if (waited.kind === 'interrupted') return this.end(await this.stopInterrupted(turn));
    return this.fresh(turn, 'resume', `the usage limit (${usageLimit.kind}) reset after a wait`, report.lastActivity);
  }

  /** A session that failed (API error, crash, stall, timeout): the recovery policy decides. */
  private async afterFailure(turn: Turn, report: SessionReport): Promise<Move> {
    const { failure, action } = decideRecovery(this.ctx, this.ctx.recovery, this.phase.id, report, turn.recovery, this.config);
    if (action.kind === 'skip_phase') return this.end(await this.finish({ status: 'skipped', reason: action.reason }));
    if (action.kind === 'abort') {
      if (action.scope === 'phase' && action.exitKind === 'failed') return this.end(await this.finish({ status: 'failed', reason: action.reason, hint: action.hint }));
      return this.end(await this.finish({ status: 'aborted', reason: action.reason, hint: action.hint, exitKind: action.exitKind }));
    }
    if (action.kind !== 'resume') await this.commitCheckpoint(failure.message);
    if (action.delayMs > 0) {
      this.ctx.reporter.notice('warning', `phase ${this.phase.id}: waiting ${(action.delayMs / 1000).toFixed(1)} s before the next session (${action.waitReason})`);
      if (!(await waitUnlessInterrupted(action.delayMs, this.ctx.interrupt))) return this.end(await this.stopInterrupted(turn));
    }
    const next: Turn = { ...turn, recovery: action.nextState, model: action.model };
    if (action.kind === 'resume') {
      const keepsModel = action.model === turn.model;
      return { kind: 'next', turn: { ...next, attempt: { ...turn.attempt, prompt: buildRecoveryResumePrompt(failure.message), resumeSessionId: action.sessionId, ...(keepsModel ? resumeOf(this.ctx, report) : {}) } } };
    }
    if (action.kind === 'condensed_session') {
      const checkpoint = await this.checkpointFrom(failure.message, report.lastActivity, next.sessions);
      const condensed = condenseCheckpoint(checkpoint, action.level);
      this.recorder.record({ type: 'checkpoint_condensed', phaseId: this.phase.id, level: action.level, beforeChars: condensed.beforeChars, afterChars: condensed.afterChars });
      return { kind: 'next', turn: { ...next, attempt: this.startAttempt('retry', `${condensed.text}\n\n---\n\n${this.phasePrompt}`, next) } };
    }
    return this.fresh(next, 'retry', failure.message, report.lastActivity);
  }

  /** A session that ended on a signal, at the context threshold, by interrupt, or cleanly: next-step.ts decides. */
  private async afterStep(turn: Turn, report: SessionReport, step: NextStep): Promise<Move> {
    const { phase, config } = this;
    switch (step.kind) {
      case 'interrupted':
        return this.end(await this.stopInterrupted(turn));
      case 'blocked':
        return this.end(await this.finish({ status: 'blocked', reason: step.reason }));
      case 'fail':
        return this.end(await this.finish({ status: 'failed', reason: step.reason, hint: step.hint }));
      case 'continue':
        this.notice(`${step.reason}: continuing the same session once with a reminder`);
        return { kind: 'next', turn: { ...turn, attempt: { ...turn.attempt, prompt: buildReminderPrompt(phase.id), resumeSessionId: report.end.sessionId, continued: true, ...resumeOf(this.ctx, report) } } };
      case 'restart': {
        const hit = report.crossing;
        await this.commits.commit({
          phaseId: phase.id, phaseTitle: phase.title, purpose: 'checkpoint', restart: turn.restarts + 1, maxRestarts: config.max_restarts,
          ...(hit ? { contextPercent: hit.percent, contextTokens: hit.usedTokens } : {}),
          ...(hit?.contextWindow === undefined ? {} : { contextWindow: hit.contextWindow }),
        });
        const next: Turn = { ...turn, restarts: step.restarts };
        const prompt = buildRestartPrompt(await this.checkpointFrom(step.reason, report.lastActivity, next.sessions), this.phasePrompt);
        this.recorder.record({ type: 'restart', phaseId: phase.id, restart: next.restarts, maxRestarts: config.max_restarts, reason: step.reason, checkpointChars: prompt.length - this.phasePrompt.length });
        return { kind: 'next', turn: { ...next, attempt: this.startAttempt('restart', prompt, next) } };
      }
      case 'retry': {
        await this.commitCheckpoint(step.reason);
        const next: Turn = { ...turn, recovery: { ...turn.recovery, retries: step.retries } };
        this.notice(`${step.reason}: retry ${step.retries}/${config.max_retries} in a fresh session`);
        return this.fresh(next, 'retry', step.reason, report.lastActivity);
      }
      case 'verify':
        return this.afterVerification(turn, report);
    }
  }

  /** The agent says the phase is done: debussy runs its gates (and the earlier phases' with regression_gates: each) and decides. */
  private async afterVerification(turn: Turn, report: SessionReport): Promise<Move> {
    const { ctx, phase, config, recorder } = this;
    const baseline = (await this.phaseState()).baseline?.filter((gate) => gate.reverify !== true);
    const outcomes = await verify(ctx, phase, turn.attempt.id, baseline);
    const notes = ctx.interrupt.aborted ? undefined : await checkNotes(ctx.root, phase, config.notes_sections);
    for (const warning of notes?.missingSections ?? []) this.notice(warning);
    const split = splitByBaseline(outcomes.filter((o) => !o.passed), baseline);
    // An earlier phase's gate is checked only once this phase's own gates pass (regression_gates: each).
    const broken: BrokenGate[] = config.regression_gates === 'each' && !ctx.interrupt.aborted && blockingFailures(split, config.inherited_failures).blocking.length === 0
      ? await runRegressionGates(ctx, gatesToRecheckAfter(ctx, phase.id, toleratedGates(await recorder.state())), { mode: 'each', afterPhaseId: phase.id })
      : [];
    const verdict = decideAfterVerification<FailedGate>({
      interrupted: ctx.interrupt.aborted,
      gateCount: phase.file?.gates.length ?? 0,
      failedGates: split.introduced,
      inheritedGates: split.inherited,
      inheritedFailures: config.inherited_failures,
      brokenEarlierGates: broken,
      notesProblems: notes?.missingFiles ?? [],
      refusals: report.refusals.map((r) => r.summary),
      retries: turn.recovery.retries, maxRetries: config.max_retries,
    });
    switch (verdict.kind) {
      case 'interrupted':
        // Stopped while verifying: the gates' verdict is unknown; the next run resumes the phase.
        return this.end(await this.stopInterrupted(turn));
      case 'abort_permissions':
        return this.end(await this.finish({ status: 'aborted', reason: verdict.reason, hint: verdict.hint, exitKind: 'permissions' }));
      case 'fail':
        return this.end(await this.finish({ status: 'failed', reason: verdict.reason, hint: verdict.hint }));
      case 'complete': {
        for (const problem of verdict.accepted) this.notice(`${problem} (accepted: gates pass and no retries left)`);
        for (const gate of verdict.tolerated) this.notice(`gate ${gate.name} fails as it did before the phase started (inherited; accepted: inherited_failures is warn)`);
        const sha = await this.commits.commit({ phaseId: phase.id, phaseTitle: phase.title, purpose: 'phase_completed' });
        // A Ctrl-C that ended the commit (a hook that hung): the work is in the tree, not in a
        // commit, so the phase is not complete; the next run resumes it.
        if (sha === undefined && ctx.useGit && ctx.interrupt.aborted) return this.end(await this.finish({ status: 'interrupted' }));
        return this.end(await this.finish({ status: 'completed' }));
      }
      case 'remediate': {
        if (verdict.checkpointReason !== undefined) await this.commitCheckpoint(verdict.checkpointReason);
        const next: Turn = { ...turn, recovery: { ...turn.recovery, retries: verdict.retries } };
        this.notice(verdict.notice);
        const prompt = buildRemediationPrompt({ phaseId: phase.id, failedGates: verdict.failedGates, inheritedGates: verdict.inheritedGates, brokenGates: verdict.brokenGates, otherProblems: verdict.otherProblems, redact: recorder.redact }, this.phasePrompt);
        return { kind: 'next', turn: { ...next, attempt: this.startAttempt('remediation', prompt, next) } };
      }
    }
  }

  /** The next turn in a fresh session that starts from a checkpoint of the phase so far. */
  private async fresh(turn: Turn, kind: AttemptKind, reason: string, lastActivity: string[]): Promise<Move> {
    const checkpoint = await this.checkpointFrom(reason, lastActivity, turn.sessions);
    return { kind: 'next', turn: { ...turn, attempt: this.startAttempt(kind, buildRestartPrompt(checkpoint, this.phasePrompt), turn) } };
  }

  private end(result: PhaseResult): Move {
    return { kind: 'end', result };
  }

  private notice(message: string): void {
    this.recorder.record({ type: 'notice', level: 'warning', phaseId: this.phase.id, message });
  }

  private async phaseState(): Promise<PhaseState> {
    const state = await this.recorder.state();
    const found = state.phases[this.phase.id];
    if (!found) throw new Error(`phase ${this.phase.id} missing from the run journal`);
    return found;
  }

  private async checkpointFrom(reason: string, lastActivity: string[], sessions: number): Promise<Checkpoint> {
    const { ctx, phase } = this;
    return captureCheckpoint({ root: ctx.root, phase: await this.phaseState(), phaseTitle: phase.title, baseSha: this.baseSha, gitRepo: ctx.gitRepo, sessionNumber: sessions + 1, reason, lastActivity });
  }

  private startAttempt(kind: AttemptKind, prompt: string, counters: Pick<Turn, 'restarts' | 'recovery'>): Attempt {
    const attempt: Attempt = { id: newAttemptId(), kind, prompt, resumeSessionId: undefined, continued: false };
    this.recorder.record({ type: 'attempt_started', phaseId: this.phase.id, attemptId: attempt.id, kind, restart: counters.restarts, retry: counters.recovery.retries });
    return attempt;
  }

  private async commitCheckpoint(reason: string): Promise<void> {
    await this.commits.commit({ phaseId: this.phase.id, phaseTitle: this.phase.title, purpose: 'checkpoint', reason });
  }

  private async spentSoFar(): Promise<{ runUsd: number; phaseUsd: number }> {
    const runState = await this.recorder.state();
    return { runUsd: runSpend(runState).usd, phaseUsd: phaseSpendUsd(runState, this.phase.id, this.carry.priorCostUsd) };
  }

  /** A budget reached: the work is committed, the phase stays in progress, the run ends (exit 9). */
  private async budgetStop(reached: Extract<BudgetCheck, { kind: 'reached' }>, estimated: boolean): Promise<PhaseResult> {
    const text = describeBudgetReached(reached, this.ctx.resumeCommand);
    this.recorder.record({ type: 'budget_reached', phaseId: this.phase.id, scope: reached.scope, limitUsd: reached.limitUsd, spentUsd: reached.spentUsd, estimated });
    await this.commitCheckpoint(text.reason);
    return this.finish({ status: 'paused', reason: text.reason, hint: text.hint, exitKind: 'budget', resumeCommand: text.raisedCommand });
  }

  /** An interrupt (or a stop of the run): the work so far is committed as interrupted, and the next run resumes the phase. */
  private async stopInterrupted(turn: Turn): Promise<PhaseResult> {
    await this.commits.commit({ phaseId: this.phase.id, phaseTitle: this.phase.title, purpose: 'interrupted', restart: turn.restarts });
    return this.finish({ status: 'interrupted' });
  }

  private async finish(result: PhaseResult): Promise<PhaseResult> {
    const { ctx, phase, config, recorder, commits } = this;
    // Whatever ends the phase unfinished, its work is committed or carried, and the next run
    // resumes it from its checkpoint (resume-plan.ts). An abort is outside the phase's work (a
    // rejected key, an invalid request, the breaker): its work is saved as at an interrupt.
    if (result.status === 'aborted') await commits.commit({ phaseId: phase.id, phaseTitle: phase.title, purpose: 'interrupted', reason: result.reason });
    if (result.status === 'failed' && config.commit_on_failure) {
      await commits.commit({ phaseId: phase.id, phaseTitle: phase.title, purpose: 'phase_failed', reason: result.reason });
    }
    if (result.status !== 'completed') await commits.recordLeftAtStop();
    if (result.status === 'paused') {
      // A budget or a usage limit: the phase stays in progress, the next run resumes it.
      ctx.reporter.notice('error', `${result.reason}\n${result.hint}`);
      recorder.record({ type: 'phase_ended', phaseId: phase.id, status: 'in_progress', reason: result.reason });
      return result;
    }
    if (result.status !== 'interrupted') await markPlanStatus(ctx, phase.id, result.status === 'aborted' ? 'failed' : result.status);
    if (result.status === 'failed' || result.status === 'aborted' || result.status === 'skipped') {
      const exitKind = result.status === 'aborted' ? result.exitKind : 'failed';
      await notifyGiveUp(ctx, ctx.recovery, {
        phaseId: phase.id,
        title: `debussy gave up on phase ${phase.id} (${phase.title}): ${result.reason}`,
        nextSteps: [result.status === 'skipped' ? 'Run the phase again later with `debussy run --only ' + phase.id + '`.' : result.hint, 'See `debussy status` and `debussy logs --phase ' + phase.id + '`.'],
        exitCode: exitCodeOf(exitKind),
        wholeRun: result.status === 'aborted',
      });
    }
    const reason = 'reason' in result ? result.reason : undefined;
    const status = result.status === 'interrupted' ? 'in_progress' : result.status === 'aborted' ? 'failed' : result.status;
    recorder.record({ type: 'phase_ended', phaseId: phase.id, status, ...(reason === undefined ? {} : { reason }) });
    return result;
  }
}

async function verify(ctx: PhaseContext, phase: Phase, attemptId: string, baseline: readonly GateVerdict[] | undefined): Promise<GateOutcome[]> {
  const gates = phase.file?.gates ?? [];
  const outcomes = await runGates(gates, ctx.root, ctx.config.gate_timeout, ctx.env, { interrupt: ctx.interrupt, forceStop: ctx.forceStop });
  for (const outcome of outcomes) {
    if (outcome.interrupted) continue; // no verdict
    ctx.recorder.record({
      type: 'gate_result', phaseId: phase.id, attemptId, name: outcome.name, command: outcome.command, passed: outcome.passed,
      exitCode: outcome.exitCode, durationMs: outcome.durationMs, outputTail: outcome.outputTail, ...(outcome.failures === undefined ? {} : { failures: outcome.failures }),
      ...(!outcome.passed && isInherited(outcome, baseline) ? { inherited: true } : {}),
    });
  }
  return outcomes;
}
