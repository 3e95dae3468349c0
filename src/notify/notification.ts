/**
 * The persistent-failure notification: sent when debussy gives up on a phase or a run. It says
 * what failed (the last failures with class, message and time), whether it keeps happening (the
 * recurring pattern) and what the user should do next. Rendering is pure.
 */
import { cutText } from '../redact/redact-then-cut.js';
import { inertLine } from '../text/inert-text.js';

export interface FailureSummary {
  /** A failure class (context_overflow, agent_crash, ...). */
  class: string;
  message: string;
  /** epoch ms */
  at: number;
  phaseId?: string;
}

export interface PatternSummary {
  class: string;
  count: number;
  likelyRootCause: string;
}

export type NotificationPriority = 'urgent' | 'high' | 'default';

export interface PersistentFailureNotification {
  /** One line: "debussy stopped phase 3: 4 agent crashes within 10 min". */
  title: string;
  runId?: string;
  phaseId?: string;
  /** The project directory or plan name, so a notification on a phone says which run. */
  project?: string;
  /** All the failures that led here, oldest first; the rendering shows the last few. */
  failures: FailureSummary[];
  pattern?: PatternSummary;
  /** What to do next, most useful first. */
  nextSteps: string[];
  exitCode?: number;
  /** Defaults to 'high'; 'urgent' for a whole run stopping. */
  priority?: NotificationPriority;
}

/** A notification ready for a notifier: already redacted. */
export interface NotificationMessage {
  title: string;
  body: string;
  priority: NotificationPriority;
  tags: string[];
  /** The structured notification, for notifiers that send JSON. */
  data: PersistentFailureNotification;
}

export const DEFAULT_MAX_FAILURES_SHOWN = 5;

function shortLine(text: string, max = 240): string {
  return cutText(inertLine(text), max, '…');
}

export function renderPersistentFailure(notification: PersistentFailureNotification, maxFailures = DEFAULT_MAX_FAILURES_SHOWN): NotificationMessage {
  const lines: string[] = [];
  const where = [notification.project, notification.runId === undefined ? undefined : `run ${notification.runId}`, notification.phaseId === undefined ? undefined : `phase ${notification.phaseId}`]
    .filter((part): part is string => part !== undefined)
    .join(', ');
  if (where !== '') lines.push(where);
  if (notification.exitCode !== undefined) lines.push(`Exit code: ${notification.exitCode}`);

  const shown = notification.failures.slice(-maxFailures);
  if (shown.length > 0) {
    const hidden = notification.failures.length - shown.length;
    lines.push('', `Last failures${hidden > 0 ? ` (${shown.length} of ${notification.failures.length})` : ''}:`);
    for (const f of shown) {
      const phase = f.phaseId === undefined ? '' : ` [phase ${f.phaseId}]`;
      lines.push(`- ${new Date(f.at).toISOString()} ${f.class}${phase}: ${shortLine(f.message)}`);
    }
  }
  if (notification.pattern) {
    const p = notification.pattern;
    lines.push('', `Recurring: ${p.class} ${p.count} times. Likely cause: ${p.likelyRootCause}`);
  }
  if (notification.nextSteps.length > 0) {
    lines.push('', 'What to do next:');
    notification.nextSteps.forEach((step, i) => lines.push(`${i + 1}. ${step}`));
  }
  const lastClass = notification.pattern?.class ?? notification.failures.at(-1)?.class;
  return {
    title: shortLine(notification.title, 200),
    body: lines.join('\n').replace(/^\n+/, ''),
    priority: notification.priority ?? 'high',
    tags: ['debussy', ...(lastClass === undefined ? [] : [lastClass])],
    data: notification,
  };
}
