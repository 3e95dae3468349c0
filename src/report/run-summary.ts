/**
 * The end of a run, three ways: the text table every text reporter prints, the markdown for a
 * GitHub step summary, and the data behind both (also the `run_summary` JSON object). Pure.
 */
import type { PhaseState, RunState, RunStatus } from '../state/index.js';
import { NO_COLORS, type Colors } from './color.js';
import { formatCost, formatDuration } from './format-units.js';
import { formatCount } from '../text/format-count.js';
import { inertLine } from '../text/inert-text.js';

export interface PhaseSummary {
  id: string;
  title: string;
  status: PhaseState['status'];
  attempts: number;
  restarts: number;
  retries: number;
  peakContextPercent: number;
  durationMs: number | undefined;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  /** False when claude reported no cost for some session (stopped before its result): costUsd is a lower bound. */
  costComplete: boolean;
  /** Of costUsd, debussy's estimate for sessions stopped before claude's result (cost/estimate.ts). */
  estimatedCostUsd: number;
  commits: number;
  reason: string | undefined;
}

/** The phases' figures summed; `peakContextPercent` is the highest of any phase, `durationMs` the whole run's. */
export type RunTotals = Pick<
  PhaseSummary,
  'attempts' | 'restarts' | 'peakContextPercent' | 'durationMs' | 'inputTokens' | 'outputTokens' | 'costUsd' | 'costComplete' | 'estimatedCostUsd' | 'commits'
> & {
  /** max_cost and what counts against it: this run's cost plus the interrupted runs it continued (estimates included). */
  budget?: { maxCostUsd: number | undefined; maxPhaseCostUsd: number | undefined; spentUsd: number; estimatedUsd: number };
};

/** An earlier phase's gate run again (regression_gates), as the end table and `run_summary` show it. */
export interface RegressionSummary {
  /** The phase the gate belongs to. */
  phaseId: string;
  name: string;
  command: string;
  passed: boolean;
  /** `each`: after `afterPhaseId` completed; `end`: once at the end of the run. */
  mode: 'each' | 'end';
  afterPhaseId: string | undefined;
  /** end, failed: the phases completed since the gate's phase, one of which broke it. */
  suspects: string[];
}

/** A session log that could not be written whole (a full disk): the end names it. */
export interface IncompleteLog {
  phaseId: string;
  /** Relative to the project root. */
  path: string;
  error: string;
}

export interface RunSummary {
  runId: string;
  planName: string;
  planPath: string;
  status: RunStatus;
  exitCode: number | undefined;
  reason: string | undefined;
  phases: PhaseSummary[];
  totals: RunTotals;
  regressions: RegressionSummary[];
  incompleteLogs: IncompleteLog[];
}

function phaseSummary(id: string, phase: PhaseState | undefined): PhaseSummary {
  return {
    id,
    title: phase?.title ?? id,
    status: phase?.status ?? 'pending',
    attempts: phase?.attempts ?? 0,
    restarts: phase?.restarts ?? 0,
    retries: phase?.retries ?? 0,
    peakContextPercent: phase?.peakContextPercent ?? 0,
    durationMs: phase?.durationMs,
    inputTokens: phase?.inputTokens ?? 0,
    outputTokens: phase?.outputTokens ?? 0,
    costUsd: phase?.costUsd ?? 0,
    costComplete: (phase?.sessionsWithoutCost ?? 0) === 0,
    estimatedCostUsd: phase?.estimatedCostUsd ?? 0,
    commits: phase?.commits.length ?? 0,
    reason: phase?.reason,
  };
}

export function summarizeRun(state: RunState): RunSummary {
  const phases = state.phaseOrder.map((id) => phaseSummary(id, state.phases[id]));
  const sum = (pick: (p: PhaseSummary) => number) => phases.reduce((n, p) => n + pick(p), 0);
  const runMs = state.endedAt === undefined ? undefined : Date.parse(state.endedAt) - Date.parse(state.startedAt);
  return {
    runId: state.runId,
    planName: state.planName,
    planPath: state.planPath,
    status: state.status,
    exitCode: state.exitCode,
    reason: state.reason,
    phases,
    regressions: (state.regressions ?? []).map((r) => ({ phaseId: r.phaseId, name: r.name, command: r.command, passed: r.passed, mode: r.mode, afterPhaseId: r.afterPhaseId, suspects: r.suspects ?? [] })),
    incompleteLogs: state.phaseOrder.flatMap((id) => (state.phases[id]?.sessions ?? []).flatMap((session) => (session.incompleteLogs ?? []).map((log) => ({ phaseId: id, ...log })))),
    totals: {
      attempts: sum((p) => p.attempts),
      restarts: sum((p) => p.restarts),
      peakContextPercent: Math.max(0, ...phases.map((p) => p.peakContextPercent)),
      durationMs: runMs !== undefined && Number.isFinite(runMs) ? runMs : undefined,
      inputTokens: sum((p) => p.inputTokens),
      outputTokens: sum((p) => p.outputTokens),
      costUsd: sum((p) => p.costUsd),
      costComplete: phases.every((p) => p.costComplete),
      estimatedCostUsd: sum((p) => p.estimatedCostUsd),
      commits: sum((p) => p.commits),
      ...(state.budget === undefined ? {} : {
        budget: {
          maxCostUsd: state.budget.maxCostUsd, maxPhaseCostUsd: state.budget.maxPhaseCostUsd,
          spentUsd: (state.priorCostUsd ?? 0) + sum((p) => p.costUsd), estimatedUsd: (state.priorCostEstimatedUsd ?? 0) + sum((p) => p.estimatedCostUsd),
        },
      }),
    },
  };
}

const HEADER = ['phase', 'status', 'attempts', 'restarts', 'peak ctx', 'duration', 'tokens', 'cost', 'commits'];

const peak = (percent: number) => (percent > 0 ? `${percent.toFixed(0)}%` : '-');

/** `$0.51`, `~$0.51` when it holds debussy's estimates, `$0.51+` when some session's cost was never reported. */
const cost = (usd: number, complete: boolean, estimatedUsd = 0) => `${estimatedUsd > 0 ? '~' : ''}${formatCost(usd)}${complete ? '' : '+'}`;

/** Said under the table when a cost holds estimates. */
export const ESTIMATE_FOOTNOTE = "~ includes debussy's estimate from the tokens of sessions stopped before claude's result (restarts, Ctrl-C, budget stops)";

/** Under the table: the estimate's share, and the spend against the budget. */
export function costLines(totals: RunTotals): string[] {
  const lines: string[] = [];
  if (totals.estimatedCostUsd > 0) lines.push(`${ESTIMATE_FOOTNOTE}: ${formatCost(totals.estimatedCostUsd)} estimated.`);
  const budget = totals.budget;
  if (budget?.maxCostUsd !== undefined) {
    lines.push(`budget: ${budget.estimatedUsd > 0 ? '~' : ''}${formatCost(budget.spentUsd)} of max_cost ${formatCost(budget.maxCostUsd)}${budget.spentUsd !== totals.costUsd ? ' (runs this one continued included)' : ''}`);
  }
  return lines;
}

/** Said under the table when a cost is a lower bound. */
export const COST_FOOTNOTE = '+ claude reported no cost for sessions stopped before their end (restarts, Ctrl-C): the cost shown is what it reported; the tokens include the stopped sessions.';

function cells(p: PhaseSummary): string[] {
  return [
    inertLine(p.id), p.status, String(p.attempts), String(p.restarts), peak(p.peakContextPercent),
    formatDuration(p.durationMs), formatCount(p.inputTokens + p.outputTokens), cost(p.costUsd, p.costComplete, p.estimatedCostUsd), String(p.commits),
  ];
}

function totalCells(summary: RunSummary): string[] {
  const t = summary.totals;
  return ['total', summary.status, String(t.attempts), String(t.restarts), peak(t.peakContextPercent), formatDuration(t.durationMs), formatCount(t.inputTokens + t.outputTokens), cost(t.costUsd, t.costComplete, t.estimatedCostUsd), String(t.commits)];
}

function statusColor(colors: Colors, status: string): (text: string) => string {
  if (status === 'completed') return colors.green;
  if (status === 'failed' || status === 'blocked' || status === 'aborted') return colors.red;
  if (status === 'interrupted' || status === 'in_progress' || status === 'skipped') return colors.yellow;
  return (text) => text;
}

/** The aligned table, one row per phase and a total row; colours only the status column. */
export function renderRunSummary(state: RunState, colors: Colors = NO_COLORS): string {
  const summary = summarizeRun(state);
  const rows = summary.phases.map(cells);
  const total = totalCells(summary);
  const all = [HEADER, ...rows, total];
  const widths = HEADER.map((_, i) => Math.max(...all.map((r) => (r[i] ?? '').length)));
  // Padding is measured before colouring, so colour codes never shift the columns.
  const fmt = (r: string[]) =>
    r.map((c, i) => {
      const padded = c.padEnd(widths[i] ?? 0);
      return i === 1 ? statusColor(colors, c)(padded) : padded;
    }).join('  ').trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  const table = [colors.bold(fmt(HEADER)), rule, ...rows.map(fmt), rule, fmt(total)];
  if (!summary.totals.costComplete) table.push(colors.dim(COST_FOOTNOTE));
  table.push(...costLines(summary.totals).map((line) => colors.dim(line)));
  table.push(...regressionLines(summary.regressions).map((line, i) => (i === 0 ? line : colors.red(line))));
  table.push(...incompleteLogLines(summary.incompleteLogs).map((line) => colors.yellow(line)));
  return table.join('\n');
}

const LOGS_NAMED = 8;

/**
 * Under the table: the session logs a full disk (or the like) cut short, grouped by why:
 *   incomplete session logs (could not be written): .debussy/runs/…/2-01.log (ENOSPC: no space left on device)
 */
export function incompleteLogLines(logs: readonly IncompleteLog[]): string[] {
  if (logs.length === 0) return [];
  const byError = new Map<string, string[]>();
  for (const log of logs) byError.set(log.error, [...(byError.get(log.error) ?? []), log.path]);
  const groups = [...byError].map(([error, paths]) => {
    const more = paths.length > LOGS_NAMED ? ` and ${paths.length - LOGS_NAMED} more` : '';
    return `${inertLine(paths.slice(0, LOGS_NAMED).join(', '))}${more} (${inertLine(error)})`;
  });
  return [`incomplete session logs (could not be written): ${groups.join('; ')}`];
}

/** Under the table: how many earlier gates were run again, and each that failed. */
export function regressionLines(regressions: readonly RegressionSummary[]): string[] {
  if (regressions.length === 0) return [];
  const failed = regressions.filter((r) => !r.passed);
  const where = (r: RegressionSummary) => (r.afterPhaseId === undefined ? 'at the end of the run' : `after phase ${r.afterPhaseId}`);
  return [
    `regression gates: ${regressions.length - failed.length} of ${regressions.length} passed`,
    ...failed.map((r) => `  gate ${inertLine(r.name)} of phase ${inertLine(r.phaseId)} failed ${where(r)}${r.suspects.length > 0 ? ` (phases since: ${inertLine(r.suspects.join(', '))})` : ''}`),
  ];
}

/** The line after the table when the run stopped before the end. */
export function resumeLine(resumeCommand: string | undefined): string | undefined {
  return resumeCommand === undefined ? undefined : `To resume: ${resumeCommand}`;
}

const STATUS_MARK: Record<string, string> = {
  completed: '✅', failed: '❌', blocked: '⛔', interrupted: '⏸️', aborted: '❌', skipped: '⏭️', in_progress: '⏸️', pending: '⏳',
};

/** A markdown table cell: one line, inert, pipes escaped. */
function mdCell(text: string): string {
  return inertLine(text).replace(/\|/g, '\\|');
}

/** The GitHub step summary: heading, per-phase table, total row, and how to resume. */
export function renderMarkdownSummary(state: RunState, resumeCommand: string | undefined): string {
  const summary = summarizeRun(state);
  const mark = (status: string) => `${STATUS_MARK[status] ?? ''} ${status}`.trim();
  const lines = [
    `### debussy: ${mdCell(summary.planName)}: ${mark(summary.status)}`,
    '',
    '| Phase | Title | Status | Attempts | Restarts | Peak context | Duration | Tokens | Cost | Commits |',
    '|---|---|---|--:|--:|--:|--:|--:|--:|--:|',
    ...summary.phases.map((p) => {
      const c = cells(p);
      return `| ${mdCell(p.id)} | ${mdCell(p.title)} | ${mark(p.status)} | ${c.slice(2).join(' | ')} |`;
    }),
    `| **Total** | | **${summary.status}** | ${totalCells(summary).slice(2).join(' | ')} |`,
  ];
  if (!summary.totals.costComplete) lines.push('', COST_FOOTNOTE);
  const costs = costLines(summary.totals);
  if (costs.length > 0) lines.push('', ...costs.map(mdCell));
  const regressions = regressionLines(summary.regressions);
  if (regressions.length > 0) lines.push('', ...regressions.map((line) => (line.startsWith('  ') ? `- ${mdCell(line.trim())}` : mdCell(line))));
  const incomplete = incompleteLogLines(summary.incompleteLogs);
  if (incomplete.length > 0) lines.push('', ...incomplete.map(mdCell));
  if (summary.reason) lines.push('', mdCell(summary.reason));
  if (resumeCommand !== undefined) lines.push('', 'To resume:', '', '```sh', resumeCommand, '```');
  return `${lines.join('\n')}\n`;
}
