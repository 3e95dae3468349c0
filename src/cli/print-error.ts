/**
 * Turns any error into one or two lines on stderr and an exit code. No stack trace for user
 * errors. What is printed is redacted and inert whole: a message may quote a config value, a flag,
 * a git remote with a password, a plan's titles or the output of a command.
 */
import { describeError } from '../errors/describe-error.js';
import { redactSecrets } from '../redact/index.js';
import { inertText } from '../text/inert-text.js';

export function printError(error: unknown): number {
  const { text, code } = describeError(error);
  process.stderr.write(redactSecrets(inertText(text)));
  return code;
}
