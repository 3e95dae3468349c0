/**
 * The agent's `debussy done` and `debussy progress` from inside a session, without the full CLI.
 * Every phase runs them from the agent's Bash tool, and the full path (commander, the config
 * loader, the plan parser, the journal fold) costs several times node's own start-up, in the
 * agent's time. This handler takes only the plain, well-formed calls of a session whose run
 * journal is where the environment says: it reads the journal's first event (the run's phases),
 * appends the same event the full command would (signal-records.ts) and answers the same line; a
 * call for a phase other than the session's (DEBUSSY_PHASE_ID) is answered with the same error.
 * Anything else (help, --verify, --plan, an unknown or repeated flag, an unknown phase, a report
 * that is not JSON, no session environment) is declined (undefined), and the full CLI takes the
 * call and explains whatever is wrong.
 *
 * Two callers: the running debussy answering its inbox (signal-inbox.ts, no process started at
 * all), and bin/debussy.js when the inbox is not there (no node start saved, but no full CLI).
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { appendEvent } from '../state/journal.js';
import { isValidRunId, journalPath } from '../state/paths.js';
import type { SignalStatus } from '../state/events.js';
import { describeError } from '../errors/describe-error.js';
import { blockedWithoutReasonWarning, otherPhaseError, progressEvent, progressRecordedLine, signalEvent, signalRecordedLine } from './signal-records.js';

const FLAGS = {
  done: ['--phase', '--status', '--reason', '--report'],
  progress: ['--phase', '--message', '--step'],
} as const;

const STATUSES: readonly string[] = ['completed', 'blocked', 'failed'] satisfies SignalStatus[];

/** A run_started event is far shorter than this; a longer first line is left to the full path. */
const FIRST_LINE_MAX_BYTES = 1 << 20;

/** `--flag value` and `--flag=value`, each allowed flag at most once; undefined for anything else. */
function parseFlags(args: readonly string[], allowed: readonly string[]): Map<string, string> | undefined {
  const values = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const equals = arg.indexOf('=');
    let name: string;
    let value: string | undefined;
    if (arg.startsWith('--') && equals > 2) {
      name = arg.slice(0, equals);
      value = arg.slice(equals + 1);
    } else {
      name = arg;
      value = args[++i];
      // A value that looks like a flag is ambiguous: the full parser decides.
      if (value === undefined || value.startsWith('-')) return undefined;
    }
    if (!allowed.includes(name) || values.has(name)) return undefined;
    values.set(name, value);
  }
  return values;
}

/** The phases of the run, from its journal's first event; undefined when that is not a run_started of `runId`. */
function runPhaseIds(journal: string, runId: string): string[] | undefined {
  let fd: number;
  try {
    fd = openSync(journal, 'r');
  } catch {
    return undefined;
  }
  try {
    const chunks: Buffer[] = [];
    let length = 0;
    for (;;) {
      const chunk = Buffer.alloc(64 * 1024);
      const read = readSync(fd, chunk, 0, chunk.length, length);
      if (read === 0) return undefined;
      const newline = chunk.subarray(0, read).indexOf(10);
      chunks.push(chunk.subarray(0, newline === -1 ? read : newline));
      length += read;
      if (newline !== -1) break;
      if (length > FIRST_LINE_MAX_BYTES) return undefined;
    }
    const first = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { type?: unknown; runId?: unknown; phaseIds?: unknown };
    if (first.type !== 'run_started' || first.runId !== runId || !Array.isArray(first.phaseIds)) return undefined;
    return first.phaseIds.filter((id): id is string => typeof id === 'string');
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

function parseReport(text: string | undefined): { ok: true; report: unknown } | { ok: false } {
  if (text === undefined) return { ok: true, report: undefined };
  try {
    return { ok: true, report: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/** What a handled call answers: its exit code and what it prints. */
export interface SignalAnswer {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Handles `args` (argv after `node debussy.js`) when it is an in-session done/progress this path
 * can take, with the session's `env`. Undefined: declined, nothing written; run the full CLI.
 */
export function handleInSessionSignal(args: readonly string[], env: NodeJS.ProcessEnv): SignalAnswer | undefined {
  const [command, ...rest] = args;
  if (command !== 'done' && command !== 'progress') return undefined;
  const root = env.DEBUSSY_PROJECT_ROOT;
  const runId = env.DEBUSSY_RUN_ID;
  const attemptId = env.DEBUSSY_ATTEMPT_ID;
  if (!root || !runId || !attemptId || !isValidRunId(runId)) return undefined;
  const flags = parseFlags(rest, FLAGS[command]);
  const phaseId = flags?.get('--phase');
  if (flags === undefined || !phaseId) return undefined;
  const journal = journalPath(root, runId);
  if (!runPhaseIds(journal, runId)?.includes(phaseId)) return undefined;
  const otherPhase = otherPhaseError(command, phaseId, env.DEBUSSY_PHASE_ID);

  if (command === 'progress') {
    if (flags.has('--message') && flags.has('--step')) return undefined;
    const message = (flags.get('--message') ?? flags.get('--step') ?? '').trim();
    if (message === '') return undefined;
    if (otherPhase !== undefined) return refuse(otherPhase, '');
    return record(() => appendEvent(journal, progressEvent(phaseId, message, attemptId, env)), progressRecordedLine(phaseId), '');
  }

  const status = flags.get('--status') ?? 'completed';
  const report = parseReport(flags.get('--report'));
  if (!STATUSES.includes(status) || !report.ok) return undefined;
  const reason = flags.get('--reason');
  const warning = status === 'blocked' && !reason ? blockedWithoutReasonWarning() : '';
  if (otherPhase !== undefined) return refuse(otherPhase, warning);
  return record(
    () => appendEvent(journal, signalEvent({ phaseId, status: status as SignalStatus, attemptId, reason, report: report.report }, env)),
    signalRecordedLine(phaseId, status as SignalStatus),
    warning,
  );
}

/** Answers the error as the full command would (nothing recorded, or the journal could not be written). */
function refuse(error: unknown, warning: string): SignalAnswer {
  const { text, code } = describeError(error);
  return { code, stdout: '', stderr: `${warning}${text}` };
}

/** Appends, then confirms; a journal that cannot be written is reported like any other error. */
function record(append: () => unknown, confirmation: string, warning: string): SignalAnswer {
  try {
    append();
  } catch (error) {
    return refuse(error, warning);
  }
  return { code: 0, stdout: confirmation, stderr: warning };
}

/** bin/debussy.js: handles and prints, or returns undefined for the full CLI. */
export function runInSessionSignal(args: readonly string[], env: NodeJS.ProcessEnv): number | undefined {
  const answer = handleInSessionSignal(args, env);
  if (answer === undefined) return undefined;
  if (answer.stderr) process.stderr.write(answer.stderr);
  if (answer.stdout) process.stdout.write(answer.stdout);
  return answer.code;
}
