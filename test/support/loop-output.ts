/**
 * What the user would read of an in-process run (in-process-run.ts), rendered in the test's own
 * process by debussy's own code: the plain reporter's lines for a run, and `debussy status` for
 * a project. The command line itself (its flags, streams, exit) stays in the e2e tests; these show
 * what debussy decided, as it says it.
 */
import { vi } from 'vitest';
import statusCommand from '../../src/cli/commands/status.js';
import { chooseReporters, type OutputFlags } from '../../src/report/choose-reporters.js';
import { createReporters } from '../../src/report/create-reporters.js';
import { PlainReporter } from '../../src/report/plain-reporter.js';
import { combineReporters, type Reporter } from '../../src/report/reporter.js';
import type { LoopOutcome } from './in-process-run.js';

/** The plain reporter's output for a run (no timestamps): its journal events, the notices, and the summary at the end. */
export function printedRun(out: LoopOutcome): string {
  let text = '';
  const reporter = new PlainReporter((chunk) => (text += chunk), { verbose: false, timestamps: false });
  for (const event of out.events) reporter.journal(event);
  for (const notice of out.notices) reporter.notice('info', notice);
  reporter.runFinished(out.state, undefined);
  return text;
}

/**
 * One command at a time: a command reads the working directory and writes to process.stdout.
 * Meanwhile the worker's cwd is the project's (vitest's forks pool allows chdir; threads would
 * not): a concurrent run's message built relative to the cwd would read differently then.
 */
let commandQueue: Promise<unknown> = Promise.resolve();

/** The variables that put a command inside a debussy session (a test run from one must not join its run). */
const SESSION_VARS = ['DEBUSSY_RUN_ID', 'DEBUSSY_ATTEMPT_ID', 'DEBUSSY_PROJECT_ROOT', 'DEBUSSY_PLAN', 'DEBUSSY_PHASE_ID'];

/** What a command wrote: each stream, and both in the order written (as a terminal shows them). */
export interface CapturedOutput {
  stdout: string;
  stderr: string;
  both: string;
}

/**
 * Runs `command` as if in `dir`, outside any debussy session and with `env` added, and captures
 * what it writes; the directory and the environment are restored after, and commands run one at
 * a time (commandQueue).
 */
export function captureCommand(dir: string, command: () => Promise<unknown>, env: Record<string, string> = {}): Promise<CapturedOutput> {
  const next = commandQueue.then(async () => {
    const saved = { cwd: process.cwd(), env: { ...process.env } };
    const output: CapturedOutput = { stdout: '', stderr: '', both: '' };
    const capture = (stream: 'stdout' | 'stderr') => vi.spyOn(process[stream], 'write').mockImplementation((chunk: string | Uint8Array) => {
      const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      output[stream] += text;
      output.both += text;
      return true;
    });
    const spies = [capture('stdout'), capture('stderr')];
    for (const name of SESSION_VARS) delete process.env[name];
    Object.assign(process.env, env);
    process.chdir(dir);
    try {
      await command();
    } finally {
      process.chdir(saved.cwd);
      for (const name of Object.keys(process.env)) if (!(name in saved.env)) delete process.env[name];
      Object.assign(process.env, saved.env);
      for (const spy of spies) spy.mockRestore();
    }
    return output;
  });
  commandQueue = next.catch(() => undefined);
  return next;
}

/** What `debussy status` (or `status --json`) prints in the project at `dir`, as if run there. */
export function statusOutput(dir: string, options: { json?: boolean } = {}): Promise<string> {
  return commandStdout(dir, () => statusCommand(options.json === true ? { json: true } : {}));
}

/**
 * What a debussy command (its default export, e.g. `() => historyCommand({ limit: '10' })`) prints
 * on stdout (and stderr too with `withStderr`, as a terminal shows both) in the project at `dir`,
 * as if run there.
 */
export async function commandStdout(dir: string, command: () => Promise<unknown>, options: { withStderr?: boolean } = {}): Promise<string> {
  const output = await captureCommand(dir, command);
  return options.withStderr === true ? output.both : output.stdout;
}

/**
 * The reporters `debussy run` builds for these flags and this environment on stdout that is not a
 * terminal (run.ts: chooseReporters, createReporters), writing to a string: pass `reporter` to a
 * LoopProject run, then `written()` is what the command would have printed (--json's NDJSON, the
 * GitHub Actions groups and annotations, with timestamps). A step summary file named in `env` is
 * written as in a real run.
 */
export async function commandOutput(flags: Partial<OutputFlags>, env: Record<string, string>): Promise<{ reporter: Reporter; written: () => string }> {
  let text = '';
  const choice = chooseReporters({ flags: { plain: false, json: false, verbose: false, ...flags }, env, isTTY: false });
  const stdout = { write: (chunk: string) => (text += chunk), on: () => undefined, off: () => undefined };
  const reporters = await createReporters(choice, { stdout, warn: (message) => (text += `debussy: warning: ${message}\n`) });
  return { reporter: combineReporters(reporters), written: () => text };
}
