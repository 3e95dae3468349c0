/** The context gauge of the live view: a bar, its colour, and the threshold mark. Pure. */
import type { Colors } from './color.js';
import { formatPercent, formatTokensShort } from './format-units.js';

/** How close the context is to the restart threshold. */
export type GaugeLevel = 'ok' | 'near' | 'over';

/** Points below the threshold where the gauge turns from green to yellow. */
export const NEAR_THRESHOLD_POINTS = 15;

export function gaugeLevel(percent: number, thresholdPercent: number | undefined): GaugeLevel {
  if (thresholdPercent === undefined) return 'ok';
  if (percent >= thresholdPercent) return 'over';
  return percent >= thresholdPercent - NEAR_THRESHOLD_POINTS ? 'near' : 'ok';
}

export interface GaugeInput {
  usedTokens: number;
  contextWindow?: number | undefined;
  percent: number;
  thresholdPercent: number | undefined;
}

export interface GaugeStyle {
  /** Cells of the bar. */
  width: number;
  unicode: boolean;
  colors: Colors;
}

/** `████████░░░░│░░ 61% 122k/200k`; the mark shows where the threshold sits. */
export function renderGauge(input: GaugeInput, style: GaugeStyle): string {
  const { colors } = style;
  if (input.contextWindow === undefined || input.contextWindow <= 0) {
    return `${colors.dim('window not known yet')} ${formatTokensShort(input.usedTokens)} tokens`;
  }
  const width = Math.max(4, style.width);
  const percent = Math.max(0, input.percent);
  const filled = Math.min(width, Math.round((percent / 100) * width));
  const mark = input.thresholdPercent === undefined || input.thresholdPercent >= 100 ? -1 : Math.min(width - 1, Math.floor((input.thresholdPercent / 100) * width));
  const [full, empty, tick] = style.unicode ? ['█', '░', '│'] : ['#', '-', '|'];
  let bar = '';
  for (let i = 0; i < width; i++) bar += i < filled ? full : i === mark ? tick : empty;
  const level = gaugeLevel(percent, input.thresholdPercent);
  const paint = level === 'over' ? colors.red : level === 'near' ? colors.yellow : colors.green;
  const bracketed = style.unicode ? bar : `[${bar}]`;
  return `${paint(bracketed)} ${paint(formatPercent(percent))} ${formatTokensShort(input.usedTokens)}/${formatTokensShort(input.contextWindow)}`;
}
