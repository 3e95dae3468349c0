/** The notifier that is always there: a block of text written to the terminal (usually stderr). */
import type { NotificationMessage } from './notification.js';
import type { Notifier, NotifierOutcome } from './notifier.js';
import { errorMessage } from '../errors/error-message.js';

export function formatForTerminal(message: NotificationMessage): string {
  const indented = message.body
    .split('\n')
    .map((line) => (line === '' ? '' : `  ${line}`))
    .join('\n');
  return `\n✖ ${message.title}\n${indented}\n`;
}

export function createTerminalNotifier(write: (text: string) => void): Notifier {
  return {
    name: 'terminal',
    send(message: NotificationMessage): Promise<NotifierOutcome> {
      try {
        write(formatForTerminal(message));
        return Promise.resolve({ notifier: 'terminal', status: 'sent' });
      } catch (error) {
        return Promise.resolve({ notifier: 'terminal', status: 'failed', detail: errorMessage(error) });
      }
    },
  };
}
