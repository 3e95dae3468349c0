/**
 * `debussy done --phase ID`: the agent's completion signal for its current attempt during a run;
 * outside a run (e.g. in CI), a durable mark the next `debussy run` reads: with --verify (the gates
 * passed here) a sealed one, so the run skips the phase; without, a claim, so the run verifies the
 * phase by its gates first (anyone can run `debussy done`, a process the agent left behind too).
 */
import path from 'node:path';
import { loadProjectConfig } from '../../config/index.js';
import { StateError, UsageError } from '../../errors/index.js';
import { runGates } from '../../verification/run-gates.js';
import { parsePlan, requirePhase, type Plan } from '../../plan/index.js';
import { createRedactor } from '../../redact/index.js';
import { appendEvent, findProjectRoot, journalKey, lastPlanUsed, recordPhaseMark, recordPlanUsed, type SignalStatus } from '../../state/index.js';
import { findActiveRun, projectRootForCommand } from '../active-run.js';
import { blockedWithoutReasonWarning, otherPhaseError, signalEvent, signalRecordedLine } from '../../agent-signals/signal-records.js';
import { errorMessage } from '../../errors/error-message.js';
import { inertJson, inertLine, inertText } from '../../text/inert-text.js';

interface DoneOptions {
  phase: string;
  status: SignalStatus;
  reason?: string;
  report?: string;
  plan?: string;
  verify?: boolean;
  json?: boolean;
}

/** `done --json`: what was recorded, where, and the gates when --verify ran them (docs/output.md). */
export interface DoneJson {
  phase: string;
  status: SignalStatus;
  /** `run`: the active run's journal took the signal; `project`: a mark the next run reads; null: nothing recorded. */
  recordedIn: 'run' | 'project' | null;
  runId?: string;
  plan: string;
  verified: boolean;
  gates?: { name: string; command: string; passed: boolean }[];
}

function printJson(result: DoneJson): void {
  process.stdout.write(`${inertJson(JSON.stringify(result))}\n`);
}

function parseReport(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new UsageError(`--report is not valid JSON: ${errorMessage(error)}`, 'Pass a JSON object, e.g. --report \'{"tests": 42}\'.');
  }
}

async function loadPlan(planPath: string, gates: Record<string, string>): Promise<Plan> {
  const parsed = await parsePlan(planPath, { gateCommands: gates });
  if (!parsed.plan) throw new UsageError(`cannot read the plan ${planPath}`, 'Pass the master plan with --plan PATH.');
  return parsed.plan;
}

export default async function doneCommand(options: DoneOptions): Promise<number> {
  const report = parseReport(options.report);
  if (options.status === 'blocked' && !options.reason) process.stderr.write(blockedWithoutReasonWarning());
  const givenPlan = options.plan === undefined ? undefined : path.resolve(options.plan);
  // Outside a session, a plan given with --plan is marked in its own project, wherever this runs.
  const root = givenPlan !== undefined && !process.env.DEBUSSY_RUN_ID ? await findProjectRoot(path.dirname(givenPlan)) : await projectRootForCommand(process.env);
  const { config } = await loadProjectConfig(root);
  const active = await findActiveRun(root, process.env);
  const planPath = active?.state.planPath ?? givenPlan ?? (await lastPlanUsed(root));
  if (!planPath) throw new UsageError('no plan given and none has been run in this project', 'Pass the master plan with --plan PATH.');
  const plan = await loadPlan(planPath, config.gates);
  const phase = requirePhase(plan, options.phase, '--phase');
  // From inside a session: only the session's own phase (before --verify spends the gates' time).
  const otherPhase = active?.attemptIdFromEnv === undefined ? undefined : otherPhaseError('done', phase.id, process.env.DEBUSSY_PHASE_ID);
  if (otherPhase !== undefined) throw otherPhase;

  let verified = false;
  let gates: DoneJson['gates'];
  if (options.verify) {
    const outcomes = await runGates(phase.file?.gates ?? [], root, config.gate_timeout);
    // In a session this goes to the model: a gate's output (or a command from the config) can hold a secret.
    // Outside one it goes to a terminal: the plan's gate names and the gates' output are shown inert.
    const redact = createRedactor(process.env);
    gates = outcomes.map((o) => ({ name: o.name, command: redact(o.command), passed: o.passed }));
    for (const outcome of options.json ? [] : outcomes) {
      process.stdout.write(redact(`gate ${inertLine(outcome.name)}: ${outcome.passed ? 'passed' : 'FAILED'} (${inertText(outcome.command) || 'no command'})\n`));
      if (!outcome.passed && outcome.outputTail) process.stdout.write(`${inertText(redact(outcome.outputTail)).split('\n').map((l) => `  | ${l}`).join('\n')}\n`);
    }
    const failed = outcomes.filter((o) => !o.passed);
    if (failed.length > 0) {
      if (options.json) printJson({ phase: phase.id, status: options.status, recordedIn: null, plan: planPath, verified: false, gates });
      process.stderr.write(`debussy: phase ${phase.id} not marked: gate(s) ${inertLine(failed.map((o) => o.name).join(', '))} failed\n  Fix them and run again.\n`);
      return 1;
    }
    verified = true;
  }

  if (active) {
    const attemptId = active.attemptIdFromEnv ?? active.state.phases[phase.id]?.currentAttemptId;
    if (!active.state.phaseOrder.includes(phase.id)) {
      throw new StateError('E_PHASE_NOT_IN_RUN', `phase ${phase.id} is not part of the active run ${active.state.runId}`, { exitKind: 'usage', hint: `Phases in this run: ${active.state.phaseOrder.join(', ')}` });
    }
    appendEvent(active.journal, signalEvent({ phaseId: phase.id, status: options.status, attemptId, reason: options.reason, report }, process.env));
    if (options.json) printJson({ phase: phase.id, status: options.status, recordedIn: 'run', runId: active.state.runId, plan: planPath, verified, ...(gates ? { gates } : {}) });
    else process.stdout.write(signalRecordedLine(phase.id, options.status));
    return 0;
  }

  if (options.plan) recordPlanUsed(root, planPath);
  // Sealed only when verified: a mark without --verify proves nothing, whoever made it.
  const key = verified ? journalKey() : undefined;
  recordPhaseMark(root, { planPath, phaseId: phase.id, status: options.status, verified, ...(options.reason === undefined ? {} : { reason: options.reason }) }, key?.ok === true ? key.key : undefined);
  if (key !== undefined && !key.ok) process.stderr.write(`warning: the mark is not sealed (${key.problem}): the next \`debussy run\` runs the phase's gates again before it counts as done\n`);
  if (options.json) {
    printJson({ phase: phase.id, status: options.status, recordedIn: 'project', plan: planPath, verified, ...(gates ? { gates } : {}) });
    return 0;
  }
  const next = options.status !== 'completed' ? '' : verified ? '; the next `debussy run` skips it' : '; the next `debussy run` runs its gates before it counts as done (--verify runs them now)';
  const elsewhere = root === (await findProjectRoot(process.cwd())) ? '' : ` in ${root}`;
  process.stdout.write(`debussy: no run is active: phase ${phase.id} of ${inertLine(plan.name)} marked ${options.status}${elsewhere}${verified ? ' (gates verified)' : ''}${next}\n`);
  return 0;
}
