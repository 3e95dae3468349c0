import type { PhaseStatus } from './types.js';

const STATUS_WORDS: Record<string, PhaseStatus> = {
  pending: 'pending',
  'in progress': 'in_progress',
  running: 'in_progress',
  complete: 'completed',
  completed: 'completed',
  done: 'completed',
  failed: 'failed',
  blocked: 'blocked',
  skipped: 'skipped',
};

/**
 * Reads a status as people write it: any case, `in_progress` or `in-progress`, bold, and a leading
 * or trailing emoji (`✅ Complete`). Undefined for words debussy does not know.
 */
export function normaliseStatus(text: string): PhaseStatus | undefined {
  const words = text
    .replace(/\*\*|__|`/g, '')
    // Emoji, check marks and punctuation around the words carry no meaning of their own.
    .replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '')
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ');
  return STATUS_WORDS[words];
}

const STATUS_LABELS: Record<PhaseStatus, string> = {
  pending: 'Pending',
  in_progress: 'In Progress',
  completed: 'Completed',
  failed: 'Failed',
  blocked: 'Blocked',
  skipped: 'Skipped',
};

/** The word written back into a master plan's Status cell. */
export function statusLabel(status: PhaseStatus): string {
  return STATUS_LABELS[status];
}
