/** The prompt of a session sent back to fix a phase whose verification failed. Pure. */
import type { GateOutcome } from '../gates/index.js';
import type { Redactor } from '../redact/index.js';

export interface RemediationInput {
  phaseId: string;
  failedGates: GateOutcome[];
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

export function buildRemediationPrompt(input: RemediationInput, phasePrompt: string): string {
  const parts = [
    `${REMEDIATION_HEADING} (phase ${input.phaseId})`,
    'You signalled this phase as done, but when debussy checked it, it was not. Fix what is listed below, run the gates yourself until they pass, then signal completion again.',
  ];
  if (input.agentReason) parts.push(`The previous session reported: ${input.agentReason}`);
  for (const gate of input.failedGates) {
    const status = gate.timedOut ? 'timed out' : `exit code ${gate.exitCode ?? 'none'}`;
    parts.push(`## Gate \`${gate.name}\` failed (${status})\nCommand: \`${gate.command}\`\nLast output:\n\`\`\`\n${gate.outputTail || '(no output)'}\n\`\`\``);
  }
  if (input.otherProblems.length > 0) parts.push(`## Also wrong\n${input.otherProblems.map((p) => `- ${p}`).join('\n')}`);
  // The gate output is a tail whose cut dropped its partial first line (run-gates.ts), so no
  // secret lost its start there; the whole section is redacted here, before the model sees it.
  return [input.redact(parts.join('\n\n')), '---', phasePrompt].join('\n\n');
}
