import { exitCodeOf, type ExitCodeName } from './exit-codes.js';

/**
 * The one error family. `code` is stable (documented, greppable); `exitKind` picks the exit code;
 * `hint` is the "what to do" line printed under the message. Only the CLI entry turns these into
 * process exits.
 */
export class DebussyError extends Error {
  readonly code: string;
  readonly exitKind: ExitCodeName;
  readonly hint: string | undefined;

  constructor(code: string, message: string, options: { exitKind?: ExitCodeName; hint?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.exitKind = options.exitKind ?? 'failed';
    this.hint = options.hint;
  }

  get exitCode(): number {
    return exitCodeOf(this.exitKind);
  }
}

/** Bad flags, arguments or values given on the command line. */
export class UsageError extends DebussyError {
  constructor(message: string, hint?: string) {
    super('E_USAGE', message, { exitKind: 'usage', ...(hint === undefined ? {} : { hint }) });
  }
}

/** A config file that cannot be read or holds invalid values. */
export class ConfigError extends DebussyError {
  constructor(message: string, hint?: string) {
    super('E_CONFIG', message, { exitKind: 'usage', ...(hint === undefined ? {} : { hint }) });
  }
}

/** A plan that cannot be read or fails the audit. */
export class PlanError extends DebussyError {
  constructor(code: string, message: string, options: { exitKind?: ExitCodeName; hint?: string } = {}) {
    super(code, message, { exitKind: options.exitKind ?? 'prerequisites', ...(options.hint === undefined ? {} : { hint: options.hint }) });
  }
}

/** Something the run needs is missing: claude, git, a clean tree. */
export class PrerequisiteError extends DebussyError {
  constructor(code: string, message: string, hint?: string) {
    super(code, message, { exitKind: 'prerequisites', ...(hint === undefined ? {} : { hint }) });
  }
}

/** Durable state problems: the lock, the journal. */
export class StateError extends DebussyError {
  constructor(code: string, message: string, options: { exitKind?: ExitCodeName; hint?: string; cause?: unknown } = {}) {
    super(code, message, options);
  }
}

/** A git operation that failed. */
export class GitError extends DebussyError {
  constructor(message: string, options: { hint?: string; cause?: unknown } = {}) {
    super('E_GIT', message, options);
  }
}

/** The agent process could not be started or misbehaved. */
export class AgentProcessError extends DebussyError {
  constructor(code: string, message: string, options: { exitKind?: ExitCodeName; hint?: string; cause?: unknown } = {}) {
    super(code, message, options);
  }
}

export function isDebussyError(value: unknown): value is DebussyError {
  return value instanceof DebussyError;
}
