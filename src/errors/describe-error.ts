/**
 * What any error says to the user: one or two lines and an exit code. No stack trace for user
 * errors. Shared by the CLI's entry (print-error.ts, which redacts and prints) and the agent's
 * in-session done/progress path, which answers without the full CLI.
 */
import { DebussyError } from './debussy-error.js';
import { EXIT_CODES } from './exit-codes.js';
import { errorMessage } from './error-message.js';

/** The lines printError writes for `error`, and its exit code. */
export function describeError(error: unknown): { text: string; code: number } {
  if (error instanceof DebussyError) {
    return { text: `debussy: ${error.message}\n${error.hint ? `  ${error.hint}\n` : ''}`, code: error.exitCode };
  }
  const message = errorMessage(error);
  const detail = process.env.DEBUSSY_DEBUG && error instanceof Error && error.stack
    ? `${error.stack}\n`
    : '  This is a bug in debussy. Set DEBUSSY_DEBUG=1 for the stack trace and report it.\n';
  return { text: `debussy: internal error: ${message}\n${detail}`, code: EXIT_CODES.failed.code };
}
