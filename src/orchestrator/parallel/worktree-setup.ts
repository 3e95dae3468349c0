/**
 * worktree_setup: the user's command run in each new phase worktree before its phase starts, for
 * what git does not carry there (installed dependencies, a local .env) and the gates need. It runs
 * like a gate (its own process group, gate_timeout, Ctrl-C), with DEBUSSY_PROJECT_ROOT set to the
 * user's work tree so it can copy from it. A worktree whose setup did not finish is removed, so
 * the next run makes it again and runs the setup again.
 */
import { removeWorktree } from '../../git/worktree.js';
import type { PhaseContext, PhaseResult } from '../phase-context.js';
import { runGateCommand } from '../../verification/run-gates.js';

/** The last line of a command's output that says something, for a one-line reason. */
function lastLine(output: string): string | undefined {
  return output.split('\n').map((line) => line.trim()).filter((line) => line !== '').at(-1);
}

/** Runs the setup (`run`: the run's context, whose root is the user's work tree); undefined when the worktree is ready, else the phase's result (failed, or interrupted). */
export async function setUpWorktree(run: PhaseContext, phaseId: string, slot: { worktree: string; branch: string }, command: string): Promise<PhaseResult | undefined> {
  const outcome = await runGateCommand('worktree_setup', command, slot.worktree, run.config.gate_timeout, { ...run.env, DEBUSSY_PROJECT_ROOT: run.root }, { interrupt: run.interrupt, forceStop: run.forceStop });
  if (outcome.passed) {
    run.recorder.record({ type: 'notice', level: 'info', phaseId, message: `phase ${phaseId}: worktree set up (worktree_setup, ${(outcome.durationMs / 1000).toFixed(1)} s)` });
    return undefined;
  }
  await removeWorktree(run.root, slot.worktree, slot.branch);
  if (outcome.interrupted) return { status: 'interrupted' };
  const why = outcome.timedOut ? `it did not finish within gate_timeout (${Math.round(run.config.gate_timeout / 1000)} s)` : `exit ${outcome.exitCode ?? 'none'}`;
  const said = lastLine(outcome.outputTail);
  return {
    status: 'failed',
    reason: `worktree_setup \`${command}\` failed in its worktree (${why})${said === undefined ? '' : `: ${said}`}`,
    hint: 'Fix worktree_setup in .debussy/config.yaml (it runs in each new phase worktree; DEBUSSY_PROJECT_ROOT is your work tree), then run again.',
  };
}
