/**
 * A whole run: checks, the lock, the journal, the phases in dependency order, and the end. The
 * entry point for `debussy run`; it returns an exit code and never exits the process itself.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import type { DebussyConfig } from '../config/index.js';
import { ConfigError, DebussyError, EXIT_CODES, exitCodeOf, UsageError } from '../errors/index.js';
import { executionOrder, requirePhase, type Plan } from '../plan/index.js';
import { createRedactor } from '../redact/index.js';
import type { Reporter } from '../report/reporter.js';
import {
  acquireRunLock, JournalKeeper, journalKey, journalPath, latestRun, liveRunDir, liveStateDir, newRunId, projectJournalPath, readJournal, readPhaseMarks, recordPlanUsed, refuseNewerJournal, removeLeftoverLiveRuns, requireJournalKey, runDir, type AcquiredLock, type RunStatus,
} from '../state/index.js';
import type { AgentDriver } from '../agent/agent-driver.js';
import { agentForRun } from './agent-for-run.js';
import { LiveRunFiles } from './live-run-files.js';
import { RunInputs } from './run-inputs.js';
import { SignalInbox } from '../agent-signals/signal-inbox.js';
import type { PhaseCarry, PhaseContext, PhaseResult } from './phase-context.js';
import { runPhase } from './phase-runner.js';
import { checkPrerequisites, gateCommandsOf } from './preflight.js';
import { reclaimDeadRun } from './reclaim-dead-run.js';
import { completionsToCarry, continuesRun, planResume } from './resume-plan.js';
import { checkPlanChange } from './plan-change-check.js';
import { checkAtRunEnd } from './regression-check.js';
import { owedEndCheck } from './owed-end-check.js';
import { readPlanFingerprint } from '../plan/read-fingerprint.js';
import { RunRecorder } from './run-recorder.js';
import { RunStateGuard } from './run-state-guard.js';
import { createRunRecovery } from './run-recovery.js';
import { budgetRaised, checkBudget, describeBudgetReached, raiseBudgetHint, runSpend, settleUnendedSpend, withPriceOverrides } from '../cost/index.js';
import { docFile } from '../install/package-files.js';
import { checkParallelSetup } from './parallel/preconditions.js';
import { priorUsedWorktrees } from './parallel/prior-worktrees.js';
// Loaded only by a run with phases side by side (--parallel, --queue): a plain run starts without it.
import type { ParallelInput } from './parallel/supervisor.js';

export interface RunPlanInput {
  root: string;
  plan: Plan;
  config: DebussyConfig;
  startAt?: string;
  only?: string;
  fresh?: boolean;
  reporter: Required<Reporter>;
  interrupt: AbortSignal;
  forceStop: AbortSignal;
  env: NodeJS.ProcessEnv;
  /** How the user would run this again, for the "to resume" line. */
  resumeCommand: string;
  /** Completed phases stay done even when their phase file or gates changed since (no re-verification). */
  trustCompleted?: boolean;
  /** The agent CLI the sessions run; default: Claude Code as the config sets it up. Tests pass an in-process one. */
  agent?: AgentDriver;
  /** The config file the run's config was read from, if any: kept like the plan (run-inputs.ts). */
  configFile?: string;
  /** --queue: each phase runs on a queue worker (queue/submitter.ts) and merges here as under --parallel. */
  runAt?: ParallelInput['runAt'];
  /** With `only`: where that phase starts instead (a queue worker taking over a phase another worker pushed: queue/takeover.ts). */
  startCarry?: PhaseCarry;
  /** The phase's checkpoint commits carry the progress recorded (a queue worker's: they travel to the worker that may take the phase over). */
  progressInCommits?: boolean;
}

export interface RunPlanResult {
  runId: string;
  status: RunStatus;
  exitCode: number;
}

export async function runPlan(input: RunPlanInput): Promise<RunPlanResult> {
  const { root, plan, config, reporter } = input;
  if (input.only) requirePhase(plan, input.only, '--only');
  if (input.startAt) requirePhase(plan, input.startAt, '--phase');
  const priced = withPriceOverrides(config.prices);
  if (priced.problems.length > 0) throw new ConfigError(priced.problems.join('; '), `Fix the prices entry (see ${docFile('budgets.md')}).`);
  // The uncommitted changes of a run this one continues (interrupted, or a phase it left
  // unfinished) are its agent's work, not the user's: resuming takes them on (they go into the
  // phase's next commit; the user's edits since stay out) instead of refusing a dirty tree.
  const before = input.fresh ? undefined : await latestRun(root, plan.path);
  // A journal a newer debussy wrote is not continued half-understood: nothing starts, nothing changes.
  if (before) refuseNewerJournal(before.runId, before.journalVersion, path.relative(process.cwd(), plan.path) || plan.path);
  const agent = input.agent ?? (await agentForRun(config, priced.table));
  agent.check(root, input.env);
  const prereq = await checkPrerequisites(root, continuesRun(before?.state) ? { ...config, allow_dirty: true } : config);
  if ((config.max_parallel > 1 || input.runAt !== undefined) && !input.only) await checkParallelSetup(root, prereq.useGit, input.runAt === undefined ? '--parallel' : '--queue');
  // What the run records must be sealed, or the next run could not tell its verdicts from forged ones.
  const key = requireJournalKey();

  const runId = newRunId();
  const lock: AcquiredLock = await acquireRunLock(root, { runId, planPath: plan.path });
  let inbox: SignalInbox | undefined;
  let guard: RunStateGuard | undefined;
  const live = liveRunDir(root, runId);
  try {
    // Read again under the lock: the answer before it could have changed.
    const previous = input.fresh ? undefined : await latestRun(root, plan.path);
    let priorInterrupted = false;
    // Every child of the debussy that held a stale lock carries its owner marker: end what is left.
    let deadOwners = lock.reclaimed ? [lock.reclaimed] : [];
    if (previous?.state && (previous.state.status === 'running' || previous.state.status === 'interrupted')) {
      priorInterrupted = true;
      if (previous.state.status === 'running') {
        const killed = await reclaimDeadRun(previous.state, deadOwners);
        deadOwners = [];
        reporter.notice('warning', `run ${previous.runId} ended without finishing (debussy was killed)${killed > 0 ? `; ended ${killed} process(es) it left behind` : ''}`);
      }
    }
    const orphans = deadOwners.length > 0 ? await reclaimDeadRun(undefined, deadOwners) : 0;
    if (orphans > 0) reporter.notice('warning', `ended ${orphans} process(es) left behind by run ${lock.reclaimed?.runId ?? ''}`);
    removeLeftoverLiveRuns(root, runId);
    if (lock.reclaimed) reporter.notice('warning', `reclaimed a stale lock from run ${lock.reclaimed.runId} (pid ${lock.reclaimed.pid} is no longer running)`);
    // What the sessions debussy was killed in spent is in their stream logs: counted like the rest.
    const prior = previous?.state === undefined ? undefined : await settleUnendedSpend(previous.state, priced.table);
    const marks = input.fresh ? {} : await readPhaseMarks(root, plan.path, journalKey());
    const planFingerprint = readPlanFingerprint(plan);
    const resumed = planResume({ plan, prior, marks, trustCompleted: input.trustCompleted === true });
    // A completed phase whose file or gates changed since the last run is verified again (plan-change-check.ts).
    const planChange = checkPlanChange(prior, planFingerprint, resumed, input.trustCompleted === true);
    const resume = planChange?.resume ?? resumed;

    const ordered = executionOrder(plan);
    let selected = ordered;
    if (input.only) selected = ordered.filter((p) => p.id === input.only);
    else if (input.startAt) {
      const start = requirePhase(plan, input.startAt, '--phase');
      const missing = start.dependsOn.filter((dep) => !resume.completed.has(dep));
      if (missing.length > 0) {
        const unproven = missing.filter((dep) => resume.unproven.has(dep));
        const why = unproven.length === 0 ? '' : ` (${unproven.join(', ')}: a completion debussy cannot prove; running the plan verifies it by its gates, --trust-completed takes it as done)`;
        throw new UsageError(`--phase ${start.id}: its dependencies are not complete: ${missing.join(', ')}${why}`, `Run them first (debussy run ${path.relative(process.cwd(), plan.path)}), or use --only ${start.id} to run it anyway.`);
      }
      selected = ordered.slice(ordered.indexOf(start));
    }
    const alreadyComplete = selected.filter((p) => resume.completed.has(p.id) && p.id !== input.only);
    const toRun = selected.filter((p) => !alreadyComplete.includes(p));

    // An interrupted run's spend counts against max_cost: a run stopped by its budget goes on only once the budget is raised.
    const priorSpend = priorInterrupted && prior !== undefined ? runSpend(prior) : undefined;
    const priorCheck = checkBudget({ maxCost: config.max_cost, maxPhaseCost: undefined }, { runUsd: priorSpend?.usd ?? 0, phaseUsd: 0 });
    if (priorCheck.kind === 'reached') {
      const text = describeBudgetReached(priorCheck, input.resumeCommand);
      throw new DebussyError('E_BUDGET', `${text.reason} (in run ${previous?.runId ?? '?'} and the runs it continued)`, { exitKind: 'budget', hint: text.hint });
    }
    if (priorSpend !== undefined && prior?.exitCode === exitCodeOf('budget') && !budgetRaised(prior.budget, { maxCost: config.max_cost, maxPhaseCost: config.max_phase_cost })) {
      throw new DebussyError('E_BUDGET', `run ${prior.runId} stopped at its budget (${prior.reason ?? 'budget reached'}) and the budget is not raised`, {
        exitKind: 'budget', hint: raiseBudgetHint(prior.budget, priorSpend.usd, input.resumeCommand),
      });
    }
    const dir = runDir(root, runId);
    // The journal is kept in memory too: an agent that cleans the tree cannot take it (run-state-guard.ts).
    guard = new RunStateGuard(input.interrupt, path.relative(root, journalPath(root, runId)));
    const recorder = new RunRecorder(journalPath(root, runId), reporter, createRedactor(input.env), { runId, key }, guard.journalLost);
    recorder.record({
      type: 'run_started', runId, planPath: plan.path, planName: plan.name, phaseIds: selected.map((p) => p.id),
      options: { context_threshold: config.context_threshold, max_restarts: config.max_restarts, max_retries: config.max_retries, tool_call_threshold: config.tool_call_threshold, only: input.only, startAt: input.startAt },
      ...(resume.resumedFrom === undefined ? {} : { resumedFrom: resume.resumedFrom }), planFingerprint,
      ...(priorSpend === undefined ? {} : { priorCostUsd: priorSpend.usd, priorCostEstimatedUsd: priorSpend.estimatedUsd }),
      ...(config.max_cost === undefined && config.max_phase_cost === undefined ? {} : {
        budget: { ...(config.max_cost === undefined ? {} : { maxCostUsd: config.max_cost }), ...(config.max_phase_cost === undefined ? {} : { maxPhaseCostUsd: config.max_phase_cost }) },
      }),
    });
    const unwritable = recorder.unsavedError();
    if (unwritable) throw unwritable;
    // The end check the run before did not finish is this run's to do, even with no phase to run.
    const owed = owedEndCheck(prior);
    if (owed.phases.length > 0 || owed.regressions.length > 0) recorder.record({ type: 'regression_check', stage: 'pending', phases: owed.phases, regressions: owed.regressions });
    recordPlanUsed(root, plan.path);
    reporter.runStarted({
      runId, plan, phases: toRun, alreadyComplete: alreadyComplete.map((p) => ({ id: p.id, why: resume.completed.get(p.id) ?? '' })),
      maxRestarts: config.max_restarts, contextThreshold: config.context_threshold, resumedFrom: resume.resumedFrom,
    });
    // Before any phase starts: what changed in the plan and what this run does about it.
    if (planChange) recorder.record(planChange.event);
    for (const message of agent.warnings(root, input.env, gateCommandsOf(toRun))) recorder.record({ type: 'notice', level: 'warning', message });
    // Completions it cannot prove: verified again (or kept with --trust-completed), and the user is told why.
    for (const phase of selected) {
      const line = resume.unproven.get(phase.id);
      if (line !== undefined) recorder.record({ type: 'notice', level: 'warning', phaseId: phase.id, message: line });
    }
    for (const phase of alreadyComplete) {
      recorder.record({ type: 'phase_ended', phaseId: phase.id, status: 'completed', reason: resume.completed.get(phase.id) ?? 'already complete' });
    }
    for (const { id, why } of completionsToCarry({ phases: ordered }, selected.map((p) => p.id), resume.completed)) {
      recorder.record({ type: 'phase_ended', phaseId: id, status: 'completed', reason: `not selected by this run; ${why}` });
    }

    const previousEvents = priorInterrupted && previous ? (await readJournal(journalPath(root, previous.runId))).events : [];
    // The agent's done/progress are answered here, in process, and recorded by the run (agent-signals/signal-inbox.ts).
    // They live outside the work tree (liveRunDir), so an agent that cleans it keeps its debussy.
    const runInbox = new SignalInbox(path.join(live, 'inbox'), input.env, (event) => recorder.record(event), () => recorder.check()).start();
    inbox = runInbox;
    const liveFiles = LiveRunFiles.write(path.join(live, 'bin'), runInbox);
    const shimDir = liveFiles.binDir;
    const projectJournal = { keeper: new JournalKeeper(projectJournalPath(root)).adopt(), shown: path.relative(root, projectJournalPath(root)) };
    const inputs = RunInputs.read(root, [input.configFile, plan.path, ...plan.phases.map((phase) => phase.path)]);
    guard.watch({ recorder, lock, liveFiles, inputs, alsoKeep: [projectJournal] });
    const done = new Set(resume.completed.keys());
    const ctx: PhaseContext = {
      root, plan, config, agent, runId, runDir: dir, shimDir, recorder, reporter,
      useGit: prereq.useGit, gitRepo: prereq.gitRepo, interrupt: guard.interrupt, forceStop: input.forceStop, env: input.env,
      recovery: createRunRecovery(config, previousEvents),
      completedPhases: done,
      prices: priced.table,
      resumeCommand: input.resumeCommand,
      keepLiveFiles: guard.keepLiveFiles,
      keepInputs: guard.keepInputs,
      ...(input.progressInCommits === true ? { progressInCommits: true } : {}),
    };
    const problems: string[] = [];
    let status: RunStatus = 'completed';
    let exitCode: number = EXIT_CODES.success.code;
    let reason: string | undefined;
    /** The command the end names to go on: the plain one, unless a phase said what goes on instead. */
    let resumeCommand = input.resumeCommand;
    /** Phases completed by sessions of this run, in order, and whether the last phase run is one (regression_gates: end). */
    const completedThisRun: string[] = [];
    let verifiedLast: string | undefined;

    // --parallel (or an earlier run's phases left in their worktrees): the phases run side by side (parallel/supervisor.ts).
    // --queue: every ready phase is a job at once; the workers are the slots.
    const parallel = !input.only && prereq.useGit && (config.max_parallel > 1 || input.runAt !== undefined || priorUsedWorktrees(prior));
    const sideBySide = parallel
      ? await (await import('./parallel/supervisor.js')).runPhasesInParallel({
        ctx, toRun, carry: resume.carry, done, prior,
        ...(input.runAt === undefined ? { maxParallel: config.max_parallel } : { maxParallel: Math.max(1, toRun.length), runAt: input.runAt }),
      })
      : undefined;
    if (sideBySide !== undefined) {
      problems.push(...sideBySide.problems);
      completedThisRun.push(...sideBySide.completedThisRun);
      verifiedLast = sideBySide.verifiedLast;
      const stop = sideBySide.stop;
      if (stop !== undefined) {
        status = stop.status;
        reason = stop.reason;
        if ('exitKind' in stop && stop.exitKind !== undefined) exitCode = exitCodeOf(stop.exitKind);
        if (stop.status === 'interrupted' && stop.resumeCommand !== undefined) resumeCommand = stop.resumeCommand;
      }
    }
    for (const phase of sideBySide === undefined ? toRun : []) {
      if (guard.interrupt.aborted) {
        status = 'interrupted';
        break;
      }
      const missing = input.only ? [] : phase.dependsOn.filter((dep) => !done.has(dep));
      if (missing.length > 0) {
        const why = `dependency ${missing.join(', ')} did not complete`;
        recorder.record({ type: 'phase_ended', phaseId: phase.id, status: 'skipped', reason: why });
        problems.push(`${phase.id} skipped (${why})`);
        continue;
      }
      const carry = (phase.id === input.only ? input.startCarry : undefined) ?? resume.carry.get(phase.id) ?? { restarts: 0, retries: 0, sessions: 0 };
      const result: PhaseResult = await runPhase(ctx, phase, carry);
      if (result.status === 'completed') {
        done.add(phase.id);
        if (result.verifiedOnly !== true) {
          completedThisRun.push(phase.id);
          verifiedLast = phase.id;
        }
        continue;
      }
      verifiedLast = undefined; // its work is in the tree, unverified
      if (result.status === 'interrupted') {
        status = 'interrupted';
        break;
      }
      if (result.status === 'blocked') {
        status = 'blocked';
        reason = `phase ${phase.id} is blocked: ${result.reason}`;
        break;
      }
      if (result.status === 'paused') {
        // The run resumes like an interrupted one, once the budget is raised or the limit has reset.
        status = 'interrupted';
        exitCode = exitCodeOf(result.exitKind);
        reason = `phase ${phase.id}: ${result.reason}`;
        if (result.resumeCommand !== undefined) resumeCommand = result.resumeCommand;
        break;
      }
      if (result.status === 'aborted') {
        status = 'aborted';
        exitCode = exitCodeOf(result.exitKind);
        reason = `phase ${phase.id}: ${result.reason}`;
        break;
      }
      if (result.status === 'skipped') {
        problems.push(`${phase.id} skipped (${result.reason})`);
        continue;
      }
      problems.push(`${phase.id} failed (${result.reason})`);
    }

    // Only a run whose phases all completed: a failed one already fails the run, and its work is in the tree unverified.
    if (status === 'completed' && problems.length === 0) {
      const unchecked = [...new Set([...owed.phases, ...completedThisRun])];
      const owes = config.regression_gates === 'end' && (unchecked.length > 0 || owed.regressions.length > 0);
      const regression = owes && !guard.interrupt.aborted ? await checkAtRunEnd(ctx, await recorder.state(), unchecked, verifiedLast, owed.regressions) : undefined;
      // A check cut short, or never started for a Ctrl-C, is owed by the next run (owed-end-check.ts).
      if (owes && guard.interrupt.aborted) status = 'interrupted';
      else {
        recorder.record({ type: 'regression_check', stage: 'finished' });
        if (regression !== undefined) problems.unshift(regression);
      }
    }
    if (status === 'interrupted' && reason === undefined) {
      exitCode = EXIT_CODES.interrupted.code;
      reason = 'interrupted by the user';
    } else if (status === 'interrupted') {
      // paused: exitCode and reason set where the run stopped
    } else if (status === 'blocked') {
      exitCode = EXIT_CODES.blocked.code;
    } else if (status === 'aborted') {
      // exitCode set where the run stopped
    } else if (problems.length > 0) {
      status = 'failed';
      exitCode = EXIT_CODES.failed.code;
      reason = `not complete: ${problems.join('; ')}`;
    }
    ({ status, exitCode, reason } = guard.settle({ status, exitCode, reason }));
    recorder.record({ type: 'run_ended', status, exitCode, ...(reason === undefined ? {} : { reason }) });
    const final = await recorder.state();
    reporter.runFinished(final, status === 'completed' ? undefined : resumeCommand);
    guard.finish(path.join(liveStateDir(root), 'rescued', `${runId}.journal.ndjson`));
    return { runId, status, exitCode };
  } finally {
    guard?.close();
    inbox?.close();
    try {
      rmSync(live, { recursive: true, force: true });
    } catch {
      // Something else stands where the live directory was (the agent put a file there): none of the run's to remove.
    }
    await lock.release();
  }
}
