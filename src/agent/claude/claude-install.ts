/**
 * A Claude Code npm install without its native binary. The package's `bin/claude.exe` is a small
 * text stub until its postinstall links the platform package's binary over it; with install scripts
 * off (`--ignore-scripts`, npm 11's unapproved scripts, some pnpm set-ups) or the platform package
 * left out (`--omit=optional`), the stub (or the package's `cli-wrapper.cjs`) only prints an error
 * and exits 1. Every session would fail the same way: a missing prerequisite, not a crash to retry.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { AgentProcessError } from '../../errors/index.js';

/** The stub and the wrapper's messages (claude-code 2.1.x: bin/claude.exe, cli-wrapper.cjs). */
const MISSING_BINARY = [
  /claude native binary not installed/i,
  /Could not find native binary package/i,
  /Native binaries for \S+ are not available/i,
  /Failed to execute native binary/i,
];

/** The stub is a few hundred bytes; the real binary hundreds of megabytes. */
const STUB_MAX_BYTES = 4096;

/** Whether claude's stderr says its native binary is missing. Pure. */
export function saysNativeBinaryMissing(stderr: string): boolean {
  return MISSING_BINARY.some((pattern) => pattern.test(stderr));
}

/** Whether the executable at `file` (symlinks followed) is the package's stub rather than claude. */
export function isNativeBinaryStub(file: string): boolean {
  try {
    const size = statSync(file).size;
    if (size > STUB_MAX_BYTES) return false;
    const fd = openSync(file, 'r');
    try {
      const buffer = Buffer.alloc(size);
      const read = readSync(fd, buffer, 0, size, 0);
      return saysNativeBinaryMissing(buffer.toString('utf8', 0, read));
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
}

export const NATIVE_BINARY_HINT =
  'Reinstall Claude Code with its install script allowed: `npm install -g @anthropic-ai/claude-code` (npm 11 may first need `npm install-scripts approve @anthropic-ai/claude-code`), or `npm rebuild @anthropic-ai/claude-code` for a project install; or set claude_command to a working claude.';

/** One error for both ways of finding out (before the start, or from what the command printed). */
export function nativeBinaryMissing(command: string): AgentProcessError {
  return new AgentProcessError(
    'E_CLAUDE_NATIVE_MISSING',
    `the Claude Code command "${command}" is an npm install without its native binary (its postinstall did not run, or the platform package @anthropic-ai/claude-code-${process.platform}-${process.arch} is missing)`,
    { exitKind: 'prerequisites', hint: NATIVE_BINARY_HINT },
  );
}
