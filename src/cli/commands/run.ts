/** `debussy run PLAN`: the dry-run listing, or a real run with interrupt handling. */
import path from 'node:path';
import { loadProjectConfig } from '../../config/index.js';
import { loadAuditedPlan } from '../../orchestrator/preflight.js';
import { runPlan } from '../../orchestrator/run-plan.js';
import { chooseReporters } from '../../report/choose-reporters.js';
import { createReporters } from '../../report/create-reporters.js';
import { OutputStream } from '../../report/output-stream.js';
import { combineReporters } from '../../report/reporter.js';
import { stopRunningGit } from '../../git/run-git.js';
import { tuneHeapForLongRun } from '../../process/heap-tuning.js';
import { markChildrenAsOwn } from '../../process/owner-marker.js';
import { findProjectRoot } from '../../state/index.js';
import { configOverridesFrom } from '../config-flags.js';
import { describeDryRun, renderDryRun, renderDryRunJson } from '../dry-run.js';
import { inertText } from '../../text/inert-text.js';
import { UsageError } from '../../errors/index.js';

interface RunOptions extends Record<string, unknown> {
  dryRun?: boolean;
  phase?: string;
  only?: string;
  fresh?: boolean;
  trustCompleted?: boolean;
  config?: string;
  plain?: boolean;
  json?: boolean;
  verbose?: boolean;
  queue?: string;
  remote?: string;
}

function resumeCommandFor(planArg: string): string {
  return `debussy run ${/\s/.test(planArg) ? `'${planArg}'` : planArg}`;
}

export default async function runCommand(planArg: string, options: RunOptions): Promise<number> {
  // Nobody reading them (`debussy run … | head`) is no reason to stop: the run carries on unseen.
  const stdout = new OutputStream(process.stdout);
  const stderr = new OutputStream(process.stderr);
  const root = await findProjectRoot(process.cwd());
  const resolved = await loadProjectConfig(root, configOverridesFrom(options), options.config);
  // A config's warnings quote it, and a config comes with a cloned repository too.
  for (const warning of resolved.warnings) stderr.write(`debussy: warning: ${inertText(warning)}\n`);
  const { plan, warnings } = await loadAuditedPlan(path.resolve(planArg), resolved.config, process.cwd(), { only: options.only, startAt: options.phase });
  for (const warning of warnings) stderr.write(`debussy: ${warning}\n`);

  if (options.remote !== undefined && options.queue === undefined) throw new UsageError('--remote goes with --queue: it names the remote the queue\'s workers use', 'Add --queue URL, or leave --remote out.');
  if (options.queue !== undefined && (options.only !== undefined || options.dryRun === true)) throw new UsageError(`--queue cannot go with ${options.only === undefined ? '--dry-run' : '--only'}`, 'Run the plan with --queue, or the one phase here without it.');
  if (options.dryRun) {
    const dry = await describeDryRun(root, plan, resolved.config, process.env, options.trustCompleted === true);
    stdout.write(options.json === true ? renderDryRunJson(dry) : renderDryRun(dry));
    return 0;
  }

  tuneHeapForLongRun();
  // Every process this run starts (git, gates, the agent and its tools) carries this run's
  // owner marker, so the next run can end whatever a killed one left behind.
  markChildrenAsOwn();
  const interrupt = new AbortController();
  const forceStop = new AbortController();
  // The terminal hung up (SIGHUP, or EIO writing to it): once the run is saved, end as a hang-up ends.
  let hungUp = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (signal === 'SIGHUP') hungUp = true;
    if (!interrupt.signal.aborted) {
      stderr.write(`\ndebussy: ${signal} received: stopping the session and saving its work (press Ctrl-C again to end at once)\n`);
      interrupt.abort();
      stopRunningGit('graceful'); // a hook that hangs must not hold the stop
    } else if (!forceStop.signal.aborted) {
      stderr.write(`\ndebussy: ending now\n`);
      forceStop.abort();
      stopRunningGit('now');
    }
  };
  // The terminal is gone (EIO after a hang-up): nothing more can be shown, but the work is still
  // saved. The first such error is a stop, like SIGHUP; the rest are ignored (they must never
  // escalate to the second signal's "end now"). A pipe nobody reads (EPIPE) is not a stop: the
  // output streams stop writing there (report/output-stream.ts) and the run goes on.
  const onOutputError = (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EIO') return;
    hungUp = true;
    if (interrupt.signal.aborted) return;
    interrupt.abort();
    stopRunningGit('graceful');
  };
  process.stdout.on('error', onOutputError);
  process.stderr.on('error', onOutputError);
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('SIGHUP', onSignal);
  const choice = chooseReporters({
    flags: { plain: options.plain === true, json: options.json === true, verbose: options.verbose === true },
    env: process.env,
    isTTY: process.stdout.isTTY === true,
  });
  const reporter = combineReporters(await createReporters(choice, {
    stdout,
    ...(process.stderr.isTTY ? { sharedScreen: process.stderr } : {}),
    warn: (message) => stderr.write(`debussy: warning: ${message}\n`),
  }));
  // Loaded only for --queue: BullMQ is no cost of a run on this machine.
  const submitter = options.queue === undefined ? undefined : await openSubmitter(root, options.queue, options.remote ?? 'origin');
  try {
    const result = await runPlan({
      root, plan, config: resolved.config, ...(options.phase ? { startAt: options.phase } : {}), ...(options.only ? { only: options.only } : {}),
      fresh: options.fresh === true, reporter, interrupt: interrupt.signal, forceStop: forceStop.signal, env: process.env,
      resumeCommand: resumeCommandFor(planArg), trustCompleted: options.trustCompleted === true,
      ...(resolved.file === undefined ? {} : { configFile: resolved.file }),
      ...(submitter === undefined ? {} : { runAt: submitter.runAt }),
    });
    // The run's branch as merged, on the remote for the workers and the team; a push refused keeps the work here, said so.
    if (submitter !== undefined) {
      await submitter.pushRunBranch().catch((error: unknown) => {
        stderr.write(`debussy: warning: ${error instanceof Error ? error.message : String(error)}; the merged work is in your branch here: push it yourself (git push ${submitter.remote} ${submitter.runBranch})\n`);
      });
    }
    return result.exitCode;
  } finally {
    await submitter?.close();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    process.off('SIGHUP', onSignal);
    reporter.close();
    if (hungUp) endAsHangUp();
  }
}

async function openSubmitter(root: string, url: string, remote: string) {
  const { queueConnection } = await import('../../queue/connection.js');
  const { QueueSubmitter } = await import('../../queue/submitter.js');
  return QueueSubmitter.open(root, queueConnection(url), remote, process.env);
}

/**
 * Ends this process by SIGHUP's default action (exit status 129), as a program whose terminal
 * hung up ends. Called once the run's state is saved: Node 20's own exit would try to restore the
 * vanished terminal's mode and abort (134; nodejs/node#58200). With no listener left, the signal
 * has its default action again.
 */
function endAsHangUp(): void {
  process.kill(process.pid, 'SIGHUP');
}
