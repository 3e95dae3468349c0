/**
 * The prompt of a session sent back to fix a phase whose verification failed. Pure. Each failed
 * gate says how it stands against the phase's baseline (verification/baseline.ts) in words that
 * never excuse the phase: a gate that failed before the phase too is named with what failed then
 * and what fails now, never as "not caused by this phase".
 */
import type { GateOutcome } from '../verification/run-gates.js';
import type { Redactor } from '../redact/index.js';
import type { BaselineComparison } from '../verification/baseline.js';

/** A failed gate, and how it stands against the baseline (undefined: no baseline was compared). */
export type FailedGate = GateOutcome & { vsBaseline?: BaselineComparison };

export interface RemediationInput {
  phaseId: string;
  /** Gates failing now that passed before the phase, were not run before it, or failed before it on other things. */
  failedGates: FailedGate[];
  /** Gates failing now with the same failures as before the phase started (its baseline): still to be made to pass. */
  inheritedGates?: FailedGate[];
  /** Gates of phases completed earlier that the phase's work broke (regression_gates: each). */
  brokenGates?: (GateOutcome & { phaseId: string })[];
  /** Other problems found, e.g. a notes file that was not written. */
  otherProblems: string[];
  /** Why the agent said it failed, when it did. */
  agentReason?: string;
  /**
   * Applied to what the gates printed and to everything else this prompt adds to the phase's own
   * prompt (a gate's output can print a token, a `gates:` command from the config can hold one).
   */
  redact: Redactor;
}

export const REMEDIATION_HEADING = '# debussy: phase verification failed';

const SHOWN_ITEMS = 10;

const exitText = (gate: GateOutcome) => (gate.timedOut ? 'timed out' : `exit code ${gate.exitCode ?? 'none'}`);
const exitWord = (code: number | null) => (code === null ? 'no exit code (stopped)' : String(code));

function listed(items: readonly string[]): string {
  const shown = items.slice(0, SHOWN_ITEMS).join('; ');
  return items.length > SHOWN_ITEMS ? `${shown}; and ${items.length - SHOWN_ITEMS} more` : shown;
}

/** What the baseline says of a failed gate, in a sentence or three; undefined when there was none to compare. */
function baselineNote(vs: BaselineComparison | undefined): string | undefined {
  switch (vs?.kind) {
    case undefined:
    case 'not_run_before':
      return undefined;
    case 'passed_before':
      return "It passed before this phase started: this phase's changes made it fail.";
    case 'same':
      return "It failed before this phase started too, with the same failures: making it pass may be this phase's job. The phase is not done until it passes.";
    case 'changed': {
      const now = vs.added.length > 0 ? `, but what fails now is new: ${listed(vs.added)}.` : ', but differently now.';
      const exit = vs.exit === undefined ? '' : ` It exited with ${exitWord(vs.exit.before)} then, ${exitWord(vs.exit.now)} now.`;
      const before = vs.before.length > 0 ? ` Before this phase started it failed with: ${listed(vs.before)}.` : '';
      return `It failed before this phase started too${now}${exit}${before} Look for the cause in this phase's changes.`;
    }
  }
}

function gateSection(heading: string, gate: GateOutcome, note?: string): string {
  const about = note === undefined ? '' : `${note}\n`;
  return `## ${heading}\n${about}Command: \`${gate.command}\`\nLast output:\n\`\`\`\n${gate.outputTail || '(no output)'}\n\`\`\``;
}

export function buildRemediationPrompt(input: RemediationInput, phasePrompt: string): string {
  const inherited = input.inheritedGates ?? [];
  const broken = input.brokenGates ?? [];
  const parts = [
    `${REMEDIATION_HEADING} (phase ${input.phaseId})`,
    'You signalled this phase as done, but when debussy checked it, it was not. Fix what is listed below, run the gates yourself until they pass, then signal completion again.',
  ];
  if (input.agentReason) parts.push(`The previous session reported: ${input.agentReason}`);
  for (const gate of [...input.failedGates, ...inherited]) parts.push(gateSection(`Gate \`${gate.name}\` failed (${exitText(gate)})`, gate, baselineNote(gate.vsBaseline)));
  if (broken.length > 0) {
    parts.push("This phase's own gates pass, but its changes broke gates of phases completed before it. Make them pass again without undoing what this phase must do.");
    for (const gate of broken) parts.push(gateSection(`Gate \`${gate.name}\` of phase ${gate.phaseId} (completed earlier) now fails (${exitText(gate)})`, gate));
  }
  if (input.otherProblems.length > 0) parts.push(`## Also wrong\n${input.otherProblems.map((p) => `- ${p}`).join('\n')}`);
  // The gate output is a tail whose cut dropped its partial first line (run-gates.ts), so no
  // secret lost its start there; the whole section is redacted here, before the model sees it.
  return [input.redact(parts.join('\n\n')), '---', phasePrompt].join('\n\n');
}
