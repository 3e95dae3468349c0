/**
 * Baselines: the verdict of a phase's gates before its first session, so a gate that was failing
 * already is not blamed on the phase, and a failure the phase caused is never excused. Pure.
 *
 * A failure is inherited only when the same gate (name and command) failed in the baseline with
 * the same failures: the same exit status, and no failing test (or, for output that names no
 * tests, no error line; failure-lines.ts) that it did not have before. A gate that tests what the
 * phase builds fails before the phase by design ("Cannot find module './parser'"); when it fails
 * after the phase on a test of the phase's own code, that failure is the phase's: introduced,
 * with what failed before and what fails now. Everything else failing now is introduced too (it
 * passed, or was not run, before). `inherited_failures` decides whether inherited failures still
 * block completion: `block` (the default: a gate is the phase's definition of done) or `warn` (the
 * phase completes with a warning naming them).
 */
import { comparable, failuresIn, type FailureList } from './failure-lines.js';

export type InheritedFailures = 'block' | 'warn';

/** A gate's run as the baseline and verification record it. Fields other than name, command and passed come from journals of any age: checked before use. */
export interface GateVerdict {
  name: string;
  command: string;
  passed: boolean;
  exitCode?: number | null;
  outputTail?: string;
  /** What its output said failed (failure-lines.ts); journals from before it have none. */
  failures?: FailureList;
}

/** How a failing gate stands against its baseline. */
export type BaselineComparison =
  | { kind: 'not_run_before' }
  | { kind: 'passed_before' }
  /** Failed before with the same failures: inherited. */
  | { kind: 'same' }
  /**
   * Failed before, and fails now on something new: `added`, what fails now that did not before
   * (test names or output lines; empty when only the exit status changed); `before`, what failed
   * before; `exit`, the exit statuses when they differ.
   */
  | { kind: 'changed'; before: string[]; added: string[]; exit?: { before: number | null; now: number | null } };

export interface BaselineSplit<Gate> {
  /** Failing now: passing (or not run) before the phase, or failing before on other things. */
  introduced: (Gate & { vsBaseline: BaselineComparison })[];
  /** Failing now as before the phase's first session. */
  inherited: (Gate & { vsBaseline: BaselineComparison })[];
}

const SHOWN_BEFORE = 5;

const sameGate = (a: { name: string; command: string }, b: { name: string; command: string }) => a.name === b.name && a.command === b.command;

const exitOf = (verdict: GateVerdict): number | null | undefined => (typeof verdict.exitCode === 'number' || verdict.exitCode === null ? verdict.exitCode : undefined);
const tailOf = (verdict: GateVerdict): string => (typeof verdict.outputTail === 'string' ? verdict.outputTail : '');

function asFailureList(value: unknown): FailureList | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { by, items } = value as { by?: unknown; items?: unknown };
  if ((by !== 'tests' && by !== 'lines') || !Array.isArray(items)) return undefined;
  return { by, items: items.filter((item): item is string => typeof item === 'string') };
}

/** What a run says failed: as recorded, or read again from its output tail (journals from before the record). */
const failuresOf = (verdict: GateVerdict): FailureList | undefined => asFailureList(verdict.failures) ?? failuresIn(tailOf(verdict));

const outputLines = (text: string): string[] => text.split('\n').map((line) => line.trim()).filter((line) => line !== '');

/** What fails in `now` and did not in `before`: test names as they are, other lines with their numbers made equal. */
function addedFailures(before: GateVerdict, now: GateVerdict): string[] {
  const was = failuresOf(before);
  const is = failuresOf(now);
  if (is?.by === 'tests') {
    const known = new Set(was?.by === 'tests' ? was.items : []);
    return is.items.filter((name) => !known.has(name));
  }
  const beforeLines = is?.by === 'lines' ? (was?.by === 'lines' ? was.items : was === undefined ? outputLines(tailOf(before)) : []) : outputLines(tailOf(before));
  const known = new Set(beforeLines.map(comparable));
  return (is?.items ?? outputLines(tailOf(now))).filter((line) => !known.has(comparable(line)));
}

/** What failed before, in a few items: the failures its output named, or its last lines. */
function failedBeforeSummary(before: GateVerdict): string[] {
  return failuresOf(before)?.items.slice(0, SHOWN_BEFORE) ?? outputLines(tailOf(before)).slice(-3);
}

/** How a failing gate's run compares with the baseline's run of the same gate. */
export function compareWithBaseline(now: GateVerdict, baseline: readonly GateVerdict[] | undefined): BaselineComparison {
  const before = baseline?.find((verdict) => sameGate(verdict, now));
  if (before === undefined) return { kind: 'not_run_before' };
  if (before.passed) return { kind: 'passed_before' };
  const added = addedFailures(before, now);
  const exitBefore = exitOf(before);
  const exitNow = exitOf(now);
  const exitChanged = exitBefore !== undefined && exitNow !== undefined && exitBefore !== exitNow;
  if (added.length === 0 && !exitChanged) return { kind: 'same' };
  return { kind: 'changed', before: failedBeforeSummary(before), added, ...(exitChanged ? { exit: { before: exitBefore, now: exitNow } } : {}) };
}

/** Splits failed gates by the baseline; without a baseline every failure counts as introduced. */
export function splitByBaseline<Gate extends GateVerdict>(failed: readonly Gate[], baseline: readonly GateVerdict[] | undefined): BaselineSplit<Gate> {
  const split: BaselineSplit<Gate> = { introduced: [], inherited: [] };
  for (const gate of failed) {
    const vsBaseline = compareWithBaseline(gate, baseline);
    (vsBaseline.kind === 'same' ? split.inherited : split.introduced).push({ ...gate, vsBaseline });
  }
  return split;
}

/** The failures that keep the phase from completing, and those let through with a warning. */
export function blockingFailures<Gate>(split: { introduced: readonly Gate[]; inherited: readonly Gate[] }, policy: InheritedFailures): { blocking: Gate[]; tolerated: Gate[] } {
  return policy === 'warn' ? { blocking: [...split.introduced], tolerated: [...split.inherited] } : { blocking: [...split.introduced, ...split.inherited], tolerated: [] };
}

/** Whether a failed gate's failure is inherited: the journal's `inherited` mark on a failed gate_result. */
export function isInherited(gate: GateVerdict, baseline: readonly GateVerdict[] | undefined): boolean {
  return compareWithBaseline(gate, baseline).kind === 'same';
}
