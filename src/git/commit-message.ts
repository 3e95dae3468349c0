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
  /**
   * The progress the agent recorded in the phase so far (`debussy progress`), oldest first, each
   * entry already redacted: a queue worker's checkpoint carries it to the worker that takes the
   * phase over (readCommitMessage reads it back).
   */
  progress?: readonly string[];
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
/** The newest entries a commit keeps, each at most this long: the section stays short. */
const PROGRESS_KEPT = 20;
const LONGEST_PROGRESS = 300;
const PROGRESS_HEADING = 'Progress:';

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
  body.push(...progressSection(input.progress ?? []));
  return [buildSubject(input), '', ...body, '', `${PHASE_TRAILER}: ${phaseId}`].join('\n');
}

/** `Progress:` and one `- entry` line per entry kept: each made one inert line, so none can pose as another line or a trailer. */
function progressSection(progress: readonly string[]): string[] {
  const entries = progress.map((entry) => inertLine(entry)).filter((entry) => entry !== '');
  if (entries.length === 0) return [];
  const kept = entries.slice(-PROGRESS_KEPT);
  const dropped = entries.length - kept.length;
  return [
    PROGRESS_HEADING,
    ...(dropped > 0 ? [`(${dropped} earlier ${dropped === 1 ? 'entry' : 'entries'} not kept)`] : []),
    ...kept.map((entry) => `- ${truncate(entry, LONGEST_PROGRESS)}`),
  ];
}

/** What readCommitMessage finds in a message buildCommitMessage wrote. */
export interface ReadCommitMessage {
  /** The `Debussy-Phase:` trailer: undefined in a commit debussy did not write. */
  phaseId?: string;
  purpose?: CommitMessageInput['purpose'];
  /** The restarts counted when the commit was made (`Restart: n` or `n/max`). */
  restart?: number;
  progress: string[];
}

/**
 * The inverse of buildCommitMessage, for a worker that takes a phase over from the commits another
 * one pushed. The message comes from a remote: whatever it holds, the answer is at most
 * PROGRESS_KEPT inert lines of LONGEST_PROGRESS characters. Pure.
 */
export function readCommitMessage(message: string): ReadCommitMessage {
  const lines = message.split(/\r?\n/);
  const value = (key: string) => lines.find((line) => line.startsWith(`${key}: `))?.slice(key.length + 2).trim();
  const trailer = lines.findLast((line) => line.startsWith(`${PHASE_TRAILER}: `))?.slice(PHASE_TRAILER.length + 2).trim();
  const purposeText = value('Purpose');
  const purpose = (Object.keys(PURPOSE_DESCRIPTIONS) as CommitMessageInput['purpose'][]).find((key) => PURPOSE_DESCRIPTIONS[key] === purposeText);
  const restart = /^(\d{1,4})(?:\/\d+)?$/.exec(value('Restart') ?? '')?.[1];
  const start = lines.indexOf(PROGRESS_HEADING);
  const progress: string[] = [];
  for (const line of start === -1 ? [] : lines.slice(start + 1)) {
    if (line.startsWith('(') && progress.length === 0) continue; // the count of entries not kept
    if (!line.startsWith('- ')) break;
    const entry = inertLine(line.slice(2));
    if (entry !== '') progress.push(truncate(entry, LONGEST_PROGRESS));
  }
  return {
    ...(trailer === undefined || trailer === '' ? {} : { phaseId: trailer }),
    ...(purpose === undefined ? {} : { purpose }),
    ...(restart === undefined ? {} : { restart: Number(restart) }),
    progress: progress.slice(-PROGRESS_KEPT),
  };
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
