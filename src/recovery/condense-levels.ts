/**
 * How hard each further context overflow condenses the checkpoint: about 25%, 40%, then 60%
 * smaller than the checkpoint would otherwise be.
 */

export type CondenseLevel = 1 | 2 | 3;

export const CONDENSE_REDUCTIONS: Readonly<Record<CondenseLevel, number>> = { 1: 0.25, 2: 0.4, 3: 0.6 };

export const MAX_CONDENSE_LEVEL: CondenseLevel = 3;

export function isCondenseLevel(value: unknown): value is CondenseLevel {
  return value === 1 || value === 2 || value === 3;
}
