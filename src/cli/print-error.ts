/** Turns any error into one or two lines on stderr and an exit code. No stack trace for user errors. */
import { DebussyError, EXIT_CODES } from '../errors/index.js';

export function printError(error: unknown): number {
  if (error instanceof DebussyError) {
    process.stderr.write(`debussy: ${error.message}\n`);
    if (error.hint) process.stderr.write(`  ${error.hint}\n`);
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`debussy: internal error: ${message}\n`);
  if (process.env.DEBUSSY_DEBUG && error instanceof Error && error.stack) {
    process.stderr.write(`${error.stack}\n`);
  } else {
    process.stderr.write('  This is a bug in debussy. Set DEBUSSY_DEBUG=1 for the stack trace and report it.\n');
  }
  return EXIT_CODES.failed.code;
}
