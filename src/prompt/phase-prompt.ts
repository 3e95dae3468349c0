/** The prompt that starts a phase's first session. Pure: plan and phase in, text out. */
import path from 'node:path';
import type { Phase, Plan } from '../plan/types.js';
import { shellWord } from '../text/shell-quote.js';

export interface PhasePromptInput {
  plan: Plan;
  phase: Phase;
  projectRoot: string;
}

export function buildPhasePrompt({ plan, phase, projectRoot }: PhasePromptInput): string {
  const rel = (file: string) => path.relative(projectRoot, file) || file;
  const id = shellWord(phase.id);
  const lines = [
    `You are executing phase ${phase.id} ("${phase.title}") of the plan "${plan.name}", run by debussy.`,
    '',
    `Follow the phase file ${rel(phase.path)}: read it first, then do its tasks in order. The master plan is ${rel(plan.path)}.`,
  ];
  const file = phase.file;
  if (file && file.notesToRead.length > 0) {
    lines.push('', 'Read these notes from earlier phases before you start:', ...file.notesToRead.map((note) => `- ${note}`));
  }
  if (file && file.notesToWrite.length > 0) {
    lines.push('', 'Write these notes before you finish (the phase file says what they must contain):', ...file.notesToWrite.map((note) => `- ${note}`));
  }
  const gates = file?.gates.filter((gate) => gate.command !== undefined) ?? [];
  if (gates.length > 0) {
    lines.push(
      '',
      'These gates must pass before the phase is complete; debussy runs them again itself after you signal, so run them yourself first:',
      ...gates.map((gate) => `- ${gate.name}: \`${gate.command ?? ''}\``),
    );
  }
  lines.push(
    '',
    'Record progress after each meaningful step, so that a fresh session could continue from it if this one is restarted:',
    `  debussy progress --phase ${id} --message "what you finished or are doing"`,
    '',
    'When every task is done and the gates pass, signal completion as your last action:',
    `  debussy done --phase ${id}`,
    'If you cannot continue without a person (missing access, an unclear requirement), say why:',
    `  debussy done --phase ${id} --status blocked --reason "what you need"`,
  );
  return lines.join('\n');
}

/** Sent with --resume when a session ended without signalling. */
export function buildReminderPrompt(phaseId: string): string {
  return [
    `Your session ended without signalling the end of phase ${phaseId}.`,
    `If the phase is finished and its gates pass, run \`debussy done --phase ${shellWord(phaseId)}\` now.`,
    'If not, finish the remaining tasks first, then signal. If you are blocked, signal with --status blocked and a --reason.',
  ].join('\n');
}

/** Sent with --resume after a failed API call or a stall: the conversation goes on. */
export function buildRecoveryResumePrompt(failure: string): string {
  return `The previous request failed (${failure}); debussy resumed this session. Continue the phase where you left off.`;
}
