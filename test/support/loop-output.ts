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
 * One status at a time: the command reads the working directory and writes to process.stdout.
 * Meanwhile the worker's cwd is the project's (vitest's forks pool allows chdir; threads would
 * not): a concurrent run's message built relative to the cwd would read differently then.
 */
let statusQueue: Promise<unknown> = Promise.resolve();

/** What `debussy status` (or `status --json`) prints in the project at `dir`, as if run there. */
export function statusOutput(dir: string, options: { json?: boolean } = {}): Promise<string> {
  return commandStdout(dir, () => statusCommand(options.json === true ? { json: true } : {}));
}

/**
 * What a debussy command (its default export, e.g. `() => historyCommand({ limit: '10' })`) prints
 * on stdout (and stderr too with `withStderr`, as a terminal shows both) in the project at `dir`,
 * as if run there; one command at a time (statusQueue).
 */
export function commandStdout(dir: string, command: () => Promise<unknown>, options: { withStderr?: boolean } = {}): Promise<string> {
  const next = statusQueue.then(async () => {
    const cwd = process.cwd();
    let text = '';
    const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      return true;
    });
    const writeErr = options.withStderr === true
      ? vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
        text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
        return true;
      })
      : undefined;
    const root = process.env.DEBUSSY_PROJECT_ROOT;
    delete process.env.DEBUSSY_PROJECT_ROOT;
    process.chdir(dir);
    try {
      await command();
    } finally {
      process.chdir(cwd);
      if (root !== undefined) process.env.DEBUSSY_PROJECT_ROOT = root;
      write.mockRestore();
      writeErr?.mockRestore();
    }
    return text;
  });
  statusQueue = next.catch(() => undefined);
  return next;
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
