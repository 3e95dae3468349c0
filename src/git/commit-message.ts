import { cutText } from '../redact/redact-then-cut.js';
import { formatCount } from '../text/format-count.js';
import { inertLine } from '../text/inert-text.js';

export interface CommitMessageInput {
  planName: string;
  phaseId: string;
  phaseTitle?: string;
  purpose: 'checkpoint' | 'phase_completed' | 'phase_failed' | 'interrupted';
  restart?: number;
  maxRestarts?: number;
  contextPercent?: number;
  contextTokens?: number;
  contextWindow?: number;
  reason?: string;
}

/** Trailer that lets debussy (and a person with `git log --grep`) find the commits of a phase. */
export const PHASE_TRAILER = 'Debussy-Phase';

const PURPOSE_DESCRIPTIONS: Record<CommitMessageInput['purpose'], string> = {
  checkpoint: 'checkpoint before a context restart',
  phase_completed: 'phase completed and verified',
  phase_failed: 'phase failed; work kept for inspection',
  interrupted: 'run interrupted; work saved before stopping',
};

const LONGEST_REASON = 300;

/**
 * The message of an automatic commit: a subject that says what happened, a body naming plan,
 * phase, purpose, restart and context figure, and a `Debussy-Phase:` trailer. Pure. What comes
 * from the plan or the agent (names, titles, reasons) is made inert: `git log` replays a message
 * to a terminal as it is.
 *
 *   debussy: checkpoint phase 6D (restart 1/3, context 81%)
 *   debussy: phase 6D Smart Restart completed
 */
export function buildCommitMessage(input: CommitMessageInput): string {
  const phaseId = inertLine(input.phaseId);
  const body = [
    `Plan: ${inertLine(input.planName)}`,
    `Phase: ${[phaseId, inertLine(input.phaseTitle ?? '')].filter((part) => part !== '').join(' ')}`,
    `Purpose: ${PURPOSE_DESCRIPTIONS[input.purpose]}`,
  ];
  const restart = restartFigure(input);
  if (restart !== undefined) body.push(`Restart: ${restart}`);
  const context = contextFigure(input);
  if (context !== undefined) body.push(`Context: ${context}`);
  const reason = inertLine(input.reason ?? '');
  if (reason !== '') body.push(`Reason: ${truncate(reason, LONGEST_REASON)}`);
  return [buildSubject(input), '', ...body, '', `${PHASE_TRAILER}: ${phaseId}`].join('\n');
}

function buildSubject(input: CommitMessageInput): string {
  const phaseId = inertLine(input.phaseId);
  const named = [phaseId, inertLine(input.phaseTitle ?? '')].filter((part) => part !== '').join(' ');
  const details: string[] = [];
  const restart = restartFigure(input);
  if (restart !== undefined) details.push(`restart ${restart}`);
  const percent = contextPercent(input);
  if (percent !== undefined) details.push(`context ${percent}%`);
  const suffix = details.length > 0 ? ` (${details.join(', ')})` : '';
  switch (input.purpose) {
    case 'checkpoint':
      return `debussy: checkpoint phase ${phaseId}${suffix}`;
    case 'interrupted':
      return `debussy: phase ${phaseId} interrupted${suffix}`;
    case 'phase_completed':
      return `debussy: phase ${named} completed`;
    case 'phase_failed':
      return `debussy: phase ${named} failed`;
  }
}

function restartFigure(input: CommitMessageInput): string | undefined {
  if (input.restart === undefined) return undefined;
  return input.maxRestarts === undefined ? `${input.restart}` : `${input.restart}/${input.maxRestarts}`;
}

/** The context figure in percent, given or computed from tokens and window. */
function contextPercent(input: CommitMessageInput): number | undefined {
  if (input.contextPercent !== undefined && Number.isFinite(input.contextPercent)) return Math.round(input.contextPercent);
  if (input.contextTokens !== undefined && input.contextWindow !== undefined && input.contextWindow > 0) {
    return Math.round((input.contextTokens / input.contextWindow) * 100);
  }
  return undefined;
}

function contextFigure(input: CommitMessageInput): string | undefined {
  const percent = contextPercent(input);
  const tokens = input.contextTokens;
  if (tokens === undefined) return percent === undefined ? undefined : `${percent}%`;
  const window = input.contextWindow === undefined ? '' : ` / ${formatCount(input.contextWindow)}`;
  const share = percent === undefined ? '' : ` (${percent}%)`;
  return `${formatCount(tokens)}${window} tokens${share}`;
}


function truncate(text: string, longest: number): string {
  return cutText(text, longest, '…');
}
