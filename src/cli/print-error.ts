/**
 * Turns any error into one or two lines on stderr and an exit code. No stack trace for user
 * errors. What is printed is redacted whole: a message may quote a config value, a flag, a git
 * remote with a password, or the output of a command.
 */
import { DebussyError, EXIT_CODES } from '../errors/index.js';
import { redactSecrets } from '../redact/index.js';

/** The lines printError writes for `error`, and its exit code. */
export function describeError(error: unknown): { text: string; code: number } {
  if (error instanceof DebussyError) {
    return { text: `debussy: ${error.message}\n${error.hint ? `  ${error.hint}\n` : ''}`, code: error.exitCode };
  }
  const message = error instanceof Error ? error.message : String(error);
  const detail = process.env.DEBUSSY_DEBUG && error instanceof Error && error.stack
    ? `${error.stack}\n`
    : '  This is a bug in debussy. Set DEBUSSY_DEBUG=1 for the stack trace and report it.\n';
  return { text: `debussy: internal error: ${message}\n${detail}`, code: EXIT_CODES.failed.code };
}

export function printError(error: unknown): number {
  const { text, code } = describeError(error);
  process.stderr.write(redactSecrets(text));
  return code;
}
