/**
 * A notifier delivers a notification somewhere (the terminal, the desktop, a webhook). Notifiers
 * never throw: a notification that cannot be delivered must not turn a failed run into a crash.
 */
import { createRedactor, redactDeep, type Redactor } from '../redact/index.js';
import { DEFAULT_MAX_FAILURES_SHOWN, renderPersistentFailure, type NotificationMessage, type PersistentFailureNotification } from './notification.js';
import { inertLine, inertText } from '../text/inert-text.js';
import { errorMessage } from '../errors/error-message.js';

export type NotifierStatus = 'sent' | 'skipped' | 'failed';

export interface NotifierOutcome {
  notifier: string;
  status: NotifierStatus;
  /** Why it was skipped or failed; never contains the webhook URL. */
  detail?: string;
}

export interface Notifier {
  readonly name: string;
  send(message: NotificationMessage): Promise<NotifierOutcome>;
}

export interface SendOptions {
  /** Defaults to a redactor over process.env. */
  redact?: Redactor;
  maxFailures?: number;
}

/**
 * Sends an already-rendered message through every notifier, inert and redacted first: a failure's
 * message is the agent's or a tool's, and a notifier writes it to a terminal (an OSC 9 or 777
 * sequence inside it would be the terminal's own notification) or hands it to notify-send as it is.
 * Never throws.
 */
export async function sendNotification(message: NotificationMessage, notifiers: readonly Notifier[], redact: Redactor = createRedactor()): Promise<NotifierOutcome[]> {
  const safe: NotificationMessage = {
    title: redact(inertLine(message.title)),
    body: redact(inertText(message.body)),
    priority: message.priority,
    tags: message.tags.map((tag) => redact(inertLine(tag))),
    data: redactDeep(message.data, redact),
  };
  return Promise.all(
    notifiers.map(async (notifier): Promise<NotifierOutcome> => {
      try {
        const outcome = await notifier.send(safe);
        return outcome.detail === undefined ? outcome : { ...outcome, detail: redact(outcome.detail) };
      } catch (error) {
        return { notifier: notifier.name, status: 'failed', detail: redact(errorMessage(error)) };
      }
    }),
  );
}

/** Renders the persistent-failure notification and sends it everywhere. Never throws. */
export async function sendPersistentFailure(
  notification: PersistentFailureNotification,
  notifiers: readonly Notifier[],
  options: SendOptions = {},
): Promise<NotifierOutcome[]> {
  const redact = options.redact ?? createRedactor();
  // Redacted before rendering too: the rendering cuts each failure's message to one line, and a
  // secret cut there would no longer be recognised by the redaction of the rendered text.
  return sendNotification(renderPersistentFailure(redactDeep(notification, redact), options.maxFailures ?? DEFAULT_MAX_FAILURES_SHOWN), notifiers, redact);
}
