/**
 * Baselines: the verdict of a phase's gates before its first session, so a gate that was failing
 * already is not blamed on the phase. Pure.
 *
 * A failure is inherited when the same gate (name and command) failed in the baseline too, and
 * introduced otherwise (it passed before, or was not run). `inherited_failures` decides whether
 * inherited failures still block completion: `block` (the default: a gate is the phase's
 * definition of done, and many gates fail before their phase by design: they check what it
 * builds) or `warn` (the phase completes with a warning naming them).
 */

export type InheritedFailures = 'block' | 'warn';

/** A gate verdict as the baseline and verification record it. */
export interface GateVerdict {
  name: string;
  command: string;
  passed: boolean;
}

export interface BaselineSplit<Gate> {
  /** Failing now, passing (or not run) before the phase. */
  introduced: Gate[];
  /** Failing now and before the phase's first session. */
  inherited: Gate[];
}

const sameGate = (a: { name: string; command: string }, b: { name: string; command: string }) => a.name === b.name && a.command === b.command;

/** Splits failed gates by the baseline; without a baseline every failure counts as introduced. */
export function splitByBaseline<Gate extends { name: string; command: string }>(failed: readonly Gate[], baseline: readonly GateVerdict[] | undefined): BaselineSplit<Gate> {
  const split: BaselineSplit<Gate> = { introduced: [], inherited: [] };
  for (const gate of failed) {
    const before = baseline?.find((verdict) => sameGate(verdict, gate));
    (before !== undefined && !before.passed ? split.inherited : split.introduced).push(gate);
  }
  return split;
}

/** The failures that keep the phase from completing, and those let through with a warning. */
export function blockingFailures<Gate>(split: BaselineSplit<Gate>, policy: InheritedFailures): { blocking: Gate[]; tolerated: Gate[] } {
  return policy === 'warn' ? { blocking: [...split.introduced], tolerated: [...split.inherited] } : { blocking: [...split.introduced, ...split.inherited], tolerated: [] };
}

/** Whether a gate failed in the baseline: the journal's `inherited` mark on a failed gate_result. */
export function failedBefore(gate: { name: string; command: string }, baseline: readonly GateVerdict[] | undefined): boolean {
  return baseline?.some((verdict) => sameGate(verdict, gate) && !verdict.passed) ?? false;
}
