/**
 * One phase, start to end: sessions, context restarts, continuation of a session that forgot to
 * signal, retries, gate verification and remediation. The decisions come from next-step.ts,
 * after-verification.ts and the recovery policy (session-failure.ts); this file carries them out.
 * The retry budget lives in one place, the phase's RecoveryState, and changes only by a decision's
 * result.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { buildRestartPrompt, captureCheckpoint, type Checkpoint } from '../checkpoint/index.js';
import { activityFromStreamLog } from '../checkpoint/last-activity.js';
import { runGates, type GateOutcome } from '../gates/index.js';
import { headSha } from '../git/index.js';
import type { Phase } from '../plan/types.js';
import { exitCodeOf } from '../errors/index.js';
import { buildPhasePrompt, buildRecoveryResumePrompt, buildReminderPrompt, buildRemediationPrompt, type FailedGate } from '../prompt/index.js';
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

export async function runPhase(ctx: PhaseContext, phase: Phase, carry: PhaseCarry): Promise<PhaseResult> {
  const { config, recorder } = ctx;
  const baseSha = carry.baseSha ?? (ctx.gitRepo ? await headSha(ctx.root) : undefined);
  recorder.record({ type: 'phase_started', phaseId: phase.id, title: phase.title, ...(baseSha === undefined ? {} : { baseSha }) });
  if (carry.resumedFrom) {
    const from = carry.resumedFrom;
    const unended = from.unendedSessionLog === undefined ? [] : await activityFromStreamLog(from.unendedSessionLog);
    const lastActivity = unended.length > 0 ? unended : from.lastActivity;
    recorder.record({ type: 'phase_resumed', phaseId: phase.id, fromRunId: from.runId, progress: from.progress, lastActivity, ...(carry.priorCostUsd === undefined ? {} : { priorCostUsd: carry.priorCostUsd }) });
  }
  // Before anything of the phase touches the tree: what differs from HEAD now is the user's.
  const commits = await PhaseCommits.start(ctx, phase.id, carry);
  await markPlanStatus(ctx, phase.id, 'in_progress');

  const phasePrompt = buildPhasePrompt({ plan: ctx.plan, phase, projectRoot: ctx.root });
  const oneShot = config.max_restarts === 0 || config.context_threshold >= 100;
  let restarts = carry.restarts;
  let sessionIndex = carry.sessions;
  /** The phase's retry budget and recovery counters: changed only from a decision's result. */
  let recoveryState: RecoveryState = { ...initialRecoveryState(), retries: carry.retries };
  let model = config.model;
  const calibration = new TokenCalibration();

  const phaseState = async (): Promise<PhaseState> => {
    const state = await recorder.state();
    const found = state.phases[phase.id];
    if (!found) throw new Error(`phase ${phase.id} missing from the run journal`);
    return found;
  };

  /** The gates' verdict before the first session; a re-verification of a changed phase is no baseline of its work. */
  const baselineOf = async (): Promise<GateVerdict[] | undefined> => (await phaseState()).baseline?.filter((gate) => gate.reverify !== true);

  const checkpointFrom = async (reason: string, lastActivity: string[]): Promise<Checkpoint> =>
    captureCheckpoint({ root: ctx.root, phase: await phaseState(), phaseTitle: phase.title, baseSha, gitRepo: ctx.gitRepo, sessionNumber: sessionIndex + 1, reason, lastActivity });

  const startAttempt = (kind: AttemptKind, prompt: string): Attempt => {
    const attempt: Attempt = { id: newAttemptId(), kind, prompt, resumeSessionId: undefined, continued: false };
    recorder.record({ type: 'attempt_started', phaseId: phase.id, attemptId: attempt.id, kind, restart: restarts, retry: recoveryState.retries });
    return attempt;
  };

  const finish = async (result: PhaseResult): Promise<PhaseResult> => {
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
  };

  /** An interrupt (or a stop of the run): the work so far is committed as interrupted, and the next run resumes the phase. */
  const stopInterrupted = async (): Promise<PhaseResult> => {
    await commits.commit({ phaseId: phase.id, phaseTitle: phase.title, purpose: 'interrupted', restart: restarts });
    return finish({ status: 'interrupted' });
  };

  // The gates' verdict before the first session; a changed completed phase whose gates pass is done.
  if ((await takeBaseline(ctx, phase, carry)).kind === 'reverified') {
    recorder.record({ type: 'phase_ended', phaseId: phase.id, status: 'completed', reason: `verified again (${carry.reverify ?? 'the plan changed'}): every gate passes` });
    await markPlanStatus(ctx, phase.id, 'completed');
    return { status: 'completed', verifiedOnly: true };
  }

  let attempt: Attempt;
  if (carry.resumeReason) {
    const checkpoint = await checkpointFrom(carry.resumeReason, []);
    attempt = startAttempt('resume', buildRestartPrompt(checkpoint, phasePrompt));
  } else {
    attempt = startAttempt('initial', phasePrompt);
  }

  const budgetLimits: BudgetLimits = { maxCost: config.max_cost, maxPhaseCost: config.max_phase_cost };
  const spentSoFar = async () => {
    const runState = await recorder.state();
    return { runUsd: runSpend(runState).usd, phaseUsd: phaseSpendUsd(runState, phase.id, carry.priorCostUsd) };
  };
  /** A budget reached: the work is committed, the phase stays in progress, the run ends (exit 9). */
  const budgetStop = async (reached: Extract<BudgetCheck, { kind: 'reached' }>, estimated: boolean): Promise<PhaseResult> => {
    const text = describeBudgetReached(reached, ctx.resumeCommand);
    recorder.record({ type: 'budget_reached', phaseId: phase.id, scope: reached.scope, limitUsd: reached.limitUsd, spentUsd: reached.spentUsd, estimated });
    await commits.commit({ phaseId: phase.id, phaseTitle: phase.title, purpose: 'checkpoint', reason: text.reason });
    return finish({ status: 'paused', reason: text.reason, hint: text.hint, exitKind: 'budget', resumeCommand: text.raisedCommand });
  };

  for (;;) {
    // --parallel: no new session while another phase waits for a usage limit to reset.
    await ctx.usagePause?.idle();
    // A Ctrl-C that came while debussy was committing or waiting: start nothing new.
    if (ctx.interrupt.aborted) {
      return stopInterrupted();
    }
    const spent = await spentSoFar();
    const beforeSession = checkBudget(budgetLimits, spent);
    if (beforeSession.kind === 'reached') return budgetStop(beforeSession, runSpend(await recorder.state()).estimatedUsd > 0);
    sessionIndex += 1;
    const env = buildAgentEnv({
      base: ctx.env, shimDir: ctx.shimDir, projectRoot: ctx.root, runId: ctx.runId, planPath: ctx.plan.path,
      phaseId: phase.id, attemptId: attempt.id,
    });
    const report = await runSession(
      {
        phaseId: phase.id, attemptId: attempt.id, sessionIndex, prompt: attempt.prompt,
        ...(attempt.resumeSessionId === undefined ? {} : { resumeSessionId: attempt.resumeSessionId }),
        model: attempt.resumeModel ?? model, agent: ctx.agent, cwd: ctx.root, env, shimDir: ctx.shimDir,
        logDir: path.join(ctx.runDir, 'sessions'), thresholdPercent: config.context_threshold, toolCallThreshold: config.tool_call_threshold,
        contextWindow: config.context_window ?? ctx.agent.contextWindowFor?.(attempt.resumeModel ?? model), maxContextTokens: config.max_context_tokens > 0 ? config.max_context_tokens : undefined,
        ...(attempt.resumeWindow === undefined ? {} : { inheritedContextWindow: attempt.resumeWindow }), calibration, stopOnCrossing: !oneShot, stopGraceMs: config.stop_grace,
        sessionTimeoutMs: config.session_timeout, stallTimeoutMs: config.stall_timeout, signal: ctx.interrupt, forceStop: ctx.forceStop,
        prices: ctx.prices, ...(beforeSession.remainingUsd === undefined ? {} : { budget: { limits: budgetLimits, spent, resumeCommand: ctx.resumeCommand } }),
        ...(ctx.keepLiveFiles === undefined ? {} : { beforeToolCall: ctx.keepLiveFiles }),
      },
      recorder,
      ctx.reporter,
    );
    const state = await phaseState();
    const signal = signalForAttempt(state, attempt.id);

    if (report.budgetReached !== undefined && signal === undefined) return budgetStop(report.budgetReached, report.spend.estimated);
    // A usage limit is waited out (or ends the run), using no restart and no retry.
    const usageLimit = signal === undefined && sessionFailed(report, false)
      ? recognizeUsageLimit({ rateLimits: report.rateLimits, texts: [report.end.result?.text, report.end.lastApiError === undefined ? undefined : apiErrorMessage(report.end.lastApiError)], now: Date.now() })
      : undefined;
    if (usageLimit !== undefined) {
      await commits.commit({ phaseId: phase.id, phaseTitle: phase.title, purpose: 'checkpoint', reason: `usage limit reached (${usageLimit.kind})` });
      const waited = await waitForUsageLimit(ctx, phase.id, usageLimit);
      if (waited.kind === 'beyond_max_wait') return finish({ status: 'paused', reason: waited.reason, hint: waited.hint, exitKind: 'usageLimit' });
      if (waited.kind === 'interrupted') {
        return stopInterrupted();
      }
      const checkpoint = await checkpointFrom(`the usage limit (${usageLimit.kind}) reset after a wait`, report.lastActivity);
      attempt = startAttempt('resume', buildRestartPrompt(checkpoint, phasePrompt));
      continue;
    }

    if (sessionFailed(report, signal !== undefined)) {
      const { failure, action } = decideRecovery(ctx, ctx.recovery, phase.id, report, recoveryState, config);
      recoveryState = action.nextState;
      if (action.kind === 'skip_phase') return finish({ status: 'skipped', reason: action.reason });
      if (action.kind === 'abort') {
        if (action.scope === 'phase' && action.exitKind === 'failed') return finish({ status: 'failed', reason: action.reason, hint: action.hint });
        return finish({ status: 'aborted', reason: action.reason, hint: action.hint, exitKind: action.exitKind });
      }
      if (action.kind !== 'resume') await commits.commit({ phaseId: phase.id, phaseTitle: phase.title, purpose: 'checkpoint', reason: failure.message });
      if (action.delayMs > 0) {
        ctx.reporter.notice('warning', `phase ${phase.id}: waiting ${(action.delayMs / 1000).toFixed(1)} s before the next session (${action.waitReason})`);
        if (!(await waitUnlessInterrupted(action.delayMs, ctx.interrupt))) {
          return stopInterrupted();
        }
      }
      const keepsModel = action.model === model;
      model = action.model;
      if (action.kind === 'resume') {
        attempt = { ...attempt, prompt: buildRecoveryResumePrompt(failure.message), resumeSessionId: action.sessionId, ...(keepsModel ? resumeOf(ctx, report) : {}) };
        continue;
      }
      const checkpoint = await checkpointFrom(failure.message, report.lastActivity);
      if (action.kind === 'condensed_session') {
        const condensed = condenseCheckpoint(checkpoint, action.level);
        recorder.record({ type: 'checkpoint_condensed', phaseId: phase.id, level: action.level, beforeChars: condensed.beforeChars, afterChars: condensed.afterChars });
        attempt = startAttempt('retry', `${condensed.text}\n\n---\n\n${phasePrompt}`);
      } else {
        attempt = startAttempt('retry', buildRestartPrompt(checkpoint, phasePrompt));
      }
      continue;
    }
    if (report.refusals.length > 0) {
      recorder.record({ type: 'notice', level: 'warning', phaseId: phase.id, message: `${describeRefusals(report.refusals.map((r) => r.summary))}; allow them with permission_mode / allowed_tools` });
    }
    if (report.stoppedBy !== 'interrupt') {
      ctx.recovery.breaker.recordSuccess();
      recoveryState = afterSessionSuccess(recoveryState);
    }
    const step: NextStep = decideNextStep({
      phaseId: phase.id,
      signal: signal ? { status: signal.status, ...(signal.reason === undefined ? {} : { reason: signal.reason }) } : undefined,
      outcome: report.end.outcome,
      stoppedBy: report.stoppedBy,
      crossingText: crossingText(report),
      restarts, maxRestarts: config.max_restarts, retries: recoveryState.retries, maxRetries: config.max_retries,
      alreadyContinued: attempt.continued,
      sessionId: report.end.sessionId,
      failureText: (report.end.lastApiError === undefined ? undefined : apiErrorMessage(report.end.lastApiError)) ?? report.end.result?.text,
    });

    switch (step.kind) {
      case 'interrupted':
        return stopInterrupted();
      case 'blocked':
        return finish({ status: 'blocked', reason: step.reason });
      case 'fail':
        return finish({ status: 'failed', reason: step.reason, hint: step.hint });
      case 'continue':
        recorder.record({ type: 'notice', level: 'warning', phaseId: phase.id, message: `${step.reason}: continuing the same session once with a reminder` });
        attempt = { ...attempt, prompt: buildReminderPrompt(phase.id), resumeSessionId: report.end.sessionId, continued: true, ...resumeOf(ctx, report) };
        continue;
      case 'restart': {
        const hit = report.crossing;
        await commits.commit({
          phaseId: phase.id, phaseTitle: phase.title, purpose: 'checkpoint', restart: restarts + 1, maxRestarts: config.max_restarts,
          ...(hit ? { contextPercent: hit.percent, contextTokens: hit.usedTokens } : {}),
          ...(hit?.contextWindow === undefined ? {} : { contextWindow: hit.contextWindow }),
        });
        restarts = step.restarts;
        const checkpoint = await checkpointFrom(step.reason, report.lastActivity);
        const prompt = buildRestartPrompt(checkpoint, phasePrompt);
        recorder.record({ type: 'restart', phaseId: phase.id, restart: restarts, maxRestarts: config.max_restarts, reason: step.reason, checkpointChars: prompt.length - phasePrompt.length });
        attempt = startAttempt('restart', prompt);
        continue;
      }
      case 'retry': {
        await commits.commit({ phaseId: phase.id, phaseTitle: phase.title, purpose: 'checkpoint', reason: step.reason });
        recoveryState = { ...recoveryState, retries: step.retries };
        recorder.record({ type: 'notice', level: 'warning', phaseId: phase.id, message: `${step.reason}: retry ${step.retries}/${config.max_retries} in a fresh session` });
        const checkpoint = await checkpointFrom(step.reason, report.lastActivity);
        attempt = startAttempt('retry', buildRestartPrompt(checkpoint, phasePrompt));
        continue;
      }
      case 'verify': {
        const baseline = await baselineOf();
        const outcomes = await verify(ctx, phase, attempt.id, baseline);
        const notes = ctx.interrupt.aborted ? undefined : await checkNotes(ctx.root, phase, config.notes_sections);
        for (const warning of notes?.missingSections ?? []) recorder.record({ type: 'notice', level: 'warning', phaseId: phase.id, message: warning });
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
          retries: recoveryState.retries, maxRetries: config.max_retries,
        });
        switch (verdict.kind) {
          case 'interrupted':
            // Stopped while verifying: the gates' verdict is unknown; the next run resumes the phase.
            return stopInterrupted();
          case 'abort_permissions':
            return finish({ status: 'aborted', reason: verdict.reason, hint: verdict.hint, exitKind: 'permissions' });
          case 'fail':
            return finish({ status: 'failed', reason: verdict.reason, hint: verdict.hint });
          case 'complete': {
            for (const problem of verdict.accepted) recorder.record({ type: 'notice', level: 'warning', phaseId: phase.id, message: `${problem} (accepted: gates pass and no retries left)` });
            for (const gate of verdict.tolerated) recorder.record({ type: 'notice', level: 'warning', phaseId: phase.id, message: `gate ${gate.name} fails as it did before the phase started (inherited; accepted: inherited_failures is warn)` });
            const sha = await commits.commit({ phaseId: phase.id, phaseTitle: phase.title, purpose: 'phase_completed' });
            // A Ctrl-C that ended the commit (a hook that hung): the work is in the tree, not in a
            // commit, so the phase is not complete; the next run resumes it.
            if (sha === undefined && ctx.useGit && ctx.interrupt.aborted) return finish({ status: 'interrupted' });
            return finish({ status: 'completed' });
          }
          case 'remediate':
            if (verdict.checkpointReason !== undefined) await commits.commit({ phaseId: phase.id, phaseTitle: phase.title, purpose: 'checkpoint', reason: verdict.checkpointReason });
            recoveryState = { ...recoveryState, retries: verdict.retries };
            recorder.record({ type: 'notice', level: 'warning', phaseId: phase.id, message: verdict.notice });
            attempt = startAttempt('remediation', buildRemediationPrompt({ phaseId: phase.id, failedGates: verdict.failedGates, inheritedGates: verdict.inheritedGates, brokenGates: verdict.brokenGates, otherProblems: verdict.otherProblems, redact: ctx.recorder.redact }, phasePrompt));
            continue;
        }
      }
    }
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
