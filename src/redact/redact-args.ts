/**
 * An argument list (`claude_args`) redacted for display: each argument, and the value that follows
 * a flag named for a secret (`--api-key VALUE`, `--token VALUE`), whatever that value looks like.
 */
import { REDACTED, type Redactor } from './redact-secrets.js';

/** `--api-key`, `--auth-token`, `--password`, `-p` is not one: a flag's last word names a secret. */
const SECRET_FLAG = /^--?(?:[A-Za-z0-9]+-)*(?:key|apikey|token|secret|password|passwd|credentials?)$/i;

export function redactArgs(args: readonly string[], redact: Redactor): string[] {
  return args.map((arg, index) => {
    const previous = index > 0 ? args[index - 1] : undefined;
    if (previous !== undefined && SECRET_FLAG.test(previous) && !arg.startsWith('-')) return REDACTED;
    return redact(arg);
  });
}
