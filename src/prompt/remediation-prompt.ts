/** The prompt of a session sent back to fix a phase whose verification failed. Pure. */
import type { GateOutcome } from '../gates/index.js';
import type { Redactor } from '../redact/index.js';

export interface RemediationInput {
  phaseId: string;
  /** Gates the phase's work broke (they passed before it, or were not checked before it). */
  failedGates: GateOutcome[];
  /** Gates failing before the phase started too (its baseline): still to be made to pass, but not the phase's doing. */
  inheritedGates?: GateOutcome[];
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

const exitText = (gate: GateOutcome) => (gate.timedOut ? 'timed out' : `exit code ${gate.exitCode ?? 'none'}`);

function gateSection(heading: string, gate: GateOutcome): string {
  return `## ${heading}\nCommand: \`${gate.command}\`\nLast output:\n\`\`\`\n${gate.outputTail || '(no output)'}\n\`\`\``;
}

/** Which failures the phase introduced and which it inherited, when both kinds are there. */
function originLine(introduced: GateOutcome[], inherited: GateOutcome[]): string | undefined {
  if (inherited.length === 0) return undefined;
  const names = (gates: GateOutcome[]) => gates.map((gate) => `\`${gate.name}\``).join(', ');
  const before = `Failing before this phase started too (inherited, not caused by this phase, but the phase is not done until they pass): ${names(inherited)}.`;
  return introduced.length === 0 ? before : `Introduced by this phase (they passed before it started): ${names(introduced)}. ${before}`;
}

export function buildRemediationPrompt(input: RemediationInput, phasePrompt: string): string {
  const inherited = input.inheritedGates ?? [];
  const broken = input.brokenGates ?? [];
  const parts = [
    `${REMEDIATION_HEADING} (phase ${input.phaseId})`,
    'You signalled this phase as done, but when debussy checked it, it was not. Fix what is listed below, run the gates yourself until they pass, then signal completion again.',
  ];
  if (input.agentReason) parts.push(`The previous session reported: ${input.agentReason}`);
  const origin = originLine(input.failedGates, inherited);
  if (origin !== undefined) parts.push(origin);
  for (const gate of input.failedGates) parts.push(gateSection(`Gate \`${gate.name}\` failed (${exitText(gate)})`, gate));
  for (const gate of inherited) parts.push(gateSection(`Gate \`${gate.name}\` failed (${exitText(gate)}), as it did before this phase started`, gate));
  if (broken.length > 0) {
    parts.push("This phase's own gates pass, but its changes broke gates of phases completed before it. Make them pass again without undoing what this phase must do.");
    for (const gate of broken) parts.push(gateSection(`Gate \`${gate.name}\` of phase ${gate.phaseId} (completed earlier) now fails (${exitText(gate)})`, gate));
  }
  if (input.otherProblems.length > 0) parts.push(`## Also wrong\n${input.otherProblems.map((p) => `- ${p}`).join('\n')}`);
  // The gate output is a tail whose cut dropped its partial first line (run-gates.ts), so no
  // secret lost its start there; the whole section is redacted here, before the model sees it.
  return [input.redact(parts.join('\n\n')), '---', phasePrompt].join('\n\n');
}
