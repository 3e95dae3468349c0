/**
 * The frame of the live status area: a few lines, each cut to the terminal width so none wraps
 * (the redraw counts on one row per line). Pure: state, clock and terminal size in, lines out.
 * The plan's name, the phase's title and the activity (gate names, tool names, stop reasons) are
 * made inert here, where they enter the frame: the area is drawn again on every event and tick.
 */
import type { Colors } from './color.js';
import { renderGauge } from './context-gauge.js';
import { formatCost, formatDuration, formatTokensShort, plural } from './format-units.js';
import { liveCost, type LiveCost, type LiveState } from './live-state.js';
import { truncateToWidth, visibleWidth } from './terminal-width.js';
import { inertLine } from '../text/inert-text.js';

export interface FrameOptions {
  now: number;
  /** Terminal columns. */
  width: number;
  /** Terminal rows, when known: the area never takes more than half of them. */
  height?: number;
  colors: Colors;
  unicode: boolean;
  /** Advances once per tick while a session runs. */
  spinnerFrame: number;
}

const UNICODE_SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const ASCII_SPINNER = ['-', '\\', '|', '/'];

function spinner(state: LiveState, options: FrameOptions): string {
  if (!state.sessionLive) return options.unicode ? '•' : '*';
  const frames = options.unicode ? UNICODE_SPINNER : ASCII_SPINNER;
  return options.colors.cyan(frames[options.spinnerFrame % frames.length] ?? '*');
}

/** `left` with the first of `rights` that fits flush right; none when none fits. */
function spread(left: string, rights: string[], width: number): string {
  for (const right of rights) {
    const gap = width - visibleWidth(left) - visibleWidth(right);
    if (gap >= 2) return `${left}${' '.repeat(gap)}${right}`;
  }
  return left;
}

function headerLine(state: LiveState, options: FrameOptions, width: number): string {
  const { colors } = options;
  const sep = colors.dim(options.unicode ? ' · ' : ' | ');
  const total = Math.max(state.phaseIds.length, state.phase?.index ?? 0);
  const phase = state.phase ? `${colors.bold(`phase ${inertLine(state.phase.id)}`)} (${state.phase.index}/${total}): ${inertLine(state.phase.title)}` : `phase -/${total}`;
  const left = `${spinner(state, options)} ${inertLine(state.planName) || 'debussy'}${sep}${phase}`;
  if (state.runStartedAt === undefined) return left;
  const elapsed = formatDuration(options.now - state.runStartedAt);
  const phaseElapsed = state.phase ? formatDuration(options.now - state.phase.startedAt) : undefined;
  // Narrow terminals keep the run's clock and drop the words around it.
  const rights = [
    ...(phaseElapsed === undefined ? [] : [`elapsed ${elapsed} (phase ${phaseElapsed})`]),
    `elapsed ${elapsed}`,
    elapsed,
  ];
  return spread(left, rights.map((r) => colors.dim(r)), width);
}

/** `cost ~$0.40+ ($0.90 of $2.00)`: ~ some estimated, + some unknown, then against max_cost with the runs before. */
function costPart(cost: LiveCost): string {
  const budget = cost.budgetUsd === undefined ? '' : ` (${formatCost(cost.priorUsd + cost.usd)} of ${formatCost(cost.budgetUsd)})`;
  return `cost ${cost.estimated ? '~' : ''}${formatCost(cost.usd)}${cost.incomplete ? '+' : ''}${budget}`;
}

function countersLine(state: LiveState, options: FrameOptions): string {
  const { colors } = options;
  const sep = colors.dim(options.unicode ? ' · ' : ' | ');
  const phase = state.phase;
  const max = state.maxRestarts === undefined ? '?' : String(state.maxRestarts);
  const restart = `restart ${phase?.restart ?? 0}/${max}`;
  const parts = [
    `attempt ${phase?.attempts ?? 0}`,
    (phase?.restart ?? 0) > 0 ? colors.yellow(restart) : restart,
    ...(phase && phase.retry > 0 ? [`retry ${phase.retry}`] : []),
    plural(state.context?.toolCalls ?? 0, 'tool call'),
    costPart(liveCost(state)),
    colors.dim(state.waitUntil === undefined ? inertLine(state.activity) : `${inertLine(state.activity)}: ${formatDuration(Math.max(0, state.waitUntil - options.now))} left`),
  ];
  return `  ${parts.join(sep)}`;
}

function contextLine(state: LiveState, options: FrameOptions, width: number): string {
  const limit = state.context?.limit;
  const window = state.context?.contextWindow;
  // max_context_tokens, where it comes before the percentage, moves the mark and says so.
  const capped = limit?.source === 'max_context_tokens';
  const markPercent = capped && window !== undefined && window > 0 ? (limit.tokens / window) * 100 : state.contextThreshold;
  const threshold = capped
    ? options.colors.dim(` (restart at ${formatTokensShort(limit.tokens)}: max_context_tokens)`)
    : state.contextThreshold === undefined ? '' : options.colors.dim(` (restart at ${state.contextThreshold}%)`);
  if (state.context === undefined) return `  context ${options.colors.dim('no session yet')}${threshold}`;
  if (state.context.contextWindow === undefined && state.context.usedTokens === 0) return `  context ${options.colors.dim('waiting for the first response')}${threshold}`;
  // The bar takes what is left after the figures, within sensible bounds.
  const barWidth = Math.max(10, Math.min(40, width - 50));
  const gauge = renderGauge({ ...state.context, thresholdPercent: markPercent }, { width: barWidth, unicode: options.unicode, colors: options.colors });
  return `  context ${gauge}${threshold}`;
}

/** --parallel: one line per phase running, when more than one is. */
function runningLines(state: LiveState, options: FrameOptions): string[] {
  if (state.running.length < 2) return [];
  const { colors } = options;
  const sep = colors.dim(options.unicode ? ' · ' : ' | ');
  return state.running.map((phase) => {
    const title = state.titles[phase.id];
    const context = phase.percent === undefined ? [] : [`context ${phase.percent.toFixed(0)}%`];
    return `  ${colors.bold(`phase ${inertLine(phase.id)}`)}${title === undefined ? '' : `: ${inertLine(title)}`}${sep}${[...context, colors.dim(inertLine(phase.activity))].join(sep)}`;
  });
}

/** The lines of the area, top to bottom. */
export function renderStatusArea(state: LiveState, options: FrameOptions): string[] {
  // One column spare: writing the last column leaves some terminals waiting to wrap.
  const width = Math.max(10, options.width - 1);
  const rule = options.colors.dim((options.unicode ? '─' : '-').repeat(width));
  const lines = [rule, headerLine(state, options, width), countersLine(state, options), contextLine(state, options, width)];
  const room = options.height === undefined ? lines.length + state.running.length : Math.max(1, Math.floor(options.height / 2));
  const phases = runningLines(state, options);
  // Phases running side by side come after the counters, as many as the room allows.
  if (phases.length > 0 && room >= 4 + phases.length) return [...lines.slice(0, 3), ...phases].map((line) => truncateToWidth(line, width, options.unicode ? '…' : '...'));
  // Short terminals lose the rule first, then the counters; the phase line stays.
  const kept = room >= 4 ? lines : room === 3 ? lines.slice(1) : room === 2 ? [lines[1] ?? '', lines[3] ?? ''] : [lines[1] ?? ''];
  return kept.map((line) => truncateToWidth(line, width, options.unicode ? '…' : '...'));
}
