/**
 * The command line: commander definitions that lazy-load each command, and `main`, which runs one.
 * Only this file turns errors into exit codes. Started by start.ts.
 */
import { Argument, Command, CommanderError, Option } from 'commander';
import { EXIT_CODES } from '../errors/index.js';
import { addConfigFlags } from './config-flags.js';
import { examples } from './help-examples.js';
import { lazy } from './lazy-command.js';
import { printError } from './print-error.js';
import { redactSecrets } from '../redact/index.js';
import { readPackageVersion } from './package-version.js';
import { registerGettingStartedCommands } from './register-getting-started.js';
import { docFile } from '../install/package-files.js';
import { AGENT_SECRETS } from '../ci-workflow/agent-secrets.js';

/** How a run shows itself: shared by `run` and `resume`. */
function addOutputFlags(command: Command): Command {
  return command
    .option('--plain', 'one timestamped line per event, no live status area (the default when not a terminal or CI=true)')
    .option('--json', `print NDJSON events on stdout and nothing else (see ${docFile('output.md')})`)
    .option('--verbose', "show the agent's full text and tool output instead of one line per step");
}

export function buildProgram(): Command {
  const program = new Command('debussy')
    .description('Run multi-phase AI coding plans through Claude Code, with context monitoring and smart restarts.')
    .version(readPackageVersion(), '-v, --version')
    .showSuggestionAfterError(true)
    .exitOverride()
    // commander quotes what it could not take (`unknown option '--api-key=...'`): redacted first.
    .configureOutput({ outputError: (text, write) => write(redactSecrets(text)) });

  program
    .command('audit')
    .description('Show what debussy understood of a master plan and its phase files, and every problem in them, without running anything.')
    .argument('<plan>', 'path to the MASTER_PLAN.md')
    .option('--json', 'print what was understood and the findings as JSON')
    .option('--strict', 'treat warnings as errors')
    .option('--config <file>', 'use this config file instead of discovering one (its gates map fills gate commands)')
    .addHelpText('after', examples([
      ['debussy audit plans/billing/MASTER_PLAN.md', 'what debussy understood, and every problem'],
      ['debussy audit plans/billing/MASTER_PLAN.md --strict', 'fail on warnings too (CI)'],
      ['debussy audit plans/billing/MASTER_PLAN.md --json | jq .phases', 'the phases as JSON'],
    ]))
    .action(lazy(() => import('./commands/audit.js')));

  const run = program
    .command('run')
    .description('Run the phases of a master plan through claude, restarting sessions before their context fills up.')
    .argument('<plan>', 'path to the MASTER_PLAN.md')
    .option('--dry-run', 'print the execution order, dependencies and gates, then exit')
    .option('--phase <id>', 'start at this phase (its dependencies must be complete)')
    .option('--only <id>', 'run just this one phase')
    .option('--fresh', 'ignore earlier runs of this plan and start from the beginning')
    .option('--trust-completed', 'keep completed phases done without running their gates again: when their phase file or gates changed since, or when debussy cannot prove it recorded the completion')
    .option('--config <file>', 'use this config file instead of discovering one')
    .option('--queue <url>', 'run each phase on `debussy worker` processes through this Redis queue (redis://host:port), merging here')
    .option('--remote <name|url>', 'with --queue: the git remote the workers fetch from and push to (default: origin)');
  addOutputFlags(run);
  addConfigFlags(run);
  run.addHelpText('after', examples([
    ['debussy run plans/billing/MASTER_PLAN.md --dry-run', 'the order, dependencies and gates; starts nothing'],
    ['debussy run plans/billing/MASTER_PLAN.md', 'run every phase not yet completed'],
    ['debussy run plans/billing/MASTER_PLAN.md --only 2', 'run phase 2 alone'],
    ['debussy run plans/billing/MASTER_PLAN.md --plain --no-auto-commit', 'a log per line; leave the work uncommitted'],
    ['debussy run plans/billing/MASTER_PLAN.md --json > events.ndjson', 'NDJSON events for a script'],
    ['debussy run plans/billing/MASTER_PLAN.md --queue redis://queue.internal:6379', 'each phase on a `debussy worker`, merged here'],
  ]));
  run.action(lazy(() => import('./commands/run.js')));

  program
    .command('worker')
    .description(`Wait for phase jobs of \`debussy run --queue\` and run each in this worker's own checkout, pushing its branch (${docFile('queue.md')}).`)
    .requiredOption('--queue <url>', 'the Redis queue (redis://host:port, rediss://, unix:///path/to/redis.sock)')
    .option('--dir <dir>', "this worker's checkout (default: a directory per worker under debussy's state directory)")
    .addHelpText('after', examples([
      ['debussy worker --queue redis://queue.internal:6379', 'take phase jobs until stopped (SIGTERM or Ctrl-C)'],
      ['debussy worker --queue redis://127.0.0.1:6379 --dir ~/debussy-worker-2', 'a second worker on the same machine'],
    ]))
    .action(lazy(() => import('./commands/worker.js')));

  const resume = program
    .command('resume')
    .description('Resume the last run of this project where it stopped (same as `debussy run` on its plan).')
    .option('--config <file>', 'use this config file instead of discovering one')
    .option('--trust-completed', 'keep completed phases done without running their gates again: when their phase file or gates changed since, or when debussy cannot prove it recorded the completion');
  addOutputFlags(resume);
  addConfigFlags(resume);
  resume.action(lazy(() => import('./commands/resume.js')));

  program
    .command('config')
    .description('Show the resolved configuration and where each value came from.')
    .option('--json', 'print as JSON')
    .option('--config <file>', 'use this config file instead of discovering one')
    .action(lazy(() => import('./commands/config.js')));

  program
    .command('done')
    .description('Signal that a phase is finished (run by the agent at the end of a phase, or by you in CI).')
    .requiredOption('--phase <id>', 'the phase id, e.g. 6D')
    .addOption(new Option('--status <status>', 'how it ended').choices(['completed', 'blocked', 'failed']).default('completed'))
    .option('--reason <text>', 'why (required reading for blocked)')
    .option('--report <json>', 'a JSON report to record with the signal')
    .option('--plan <file>', 'the master plan (default: the last plan run in this project)')
    .option('--verify', "re-run the phase's gates first and refuse if any fails")
    .option('--json', `print what was recorded as one JSON object (${docFile('output.md')})`)
    .addHelpText('after', examples([
      ['debussy done --phase 2', "the agent's signal at the end of phase 2 (during a run)"],
      ['debussy done --phase 2 --status blocked --reason "needs an API key"', 'the phase cannot go on'],
      ['debussy done --phase 1 --plan plans/billing/MASTER_PLAN.md --verify', 'outside a run: mark phase 1 done once its gates pass'],
    ]))
    .action(lazy(() => import('./commands/done.js')));

  program
    .command('progress')
    .description('Record a progress entry for the current phase; a restart puts it in the checkpoint.')
    .requiredOption('--phase <id>', 'the phase id')
    .option('--message <text>', 'what was done or is being done')
    .option('--step <text>', 'alias of --message')
    .option('--json', `print what was recorded as one JSON object (${docFile('output.md')})`)
    .action(lazy(() => import('./commands/progress.js')));

  program
    .command('status')
    .description('Show the current or last run: each phase with attempts, restarts, commits and timing.')
    .option('--json', 'print as JSON')
    .action(lazy(() => import('./commands/status.js')));

  program
    .command('history')
    .description('List earlier runs in this project.')
    .option('--limit <n>', 'how many runs', '10')
    .option('--json', 'print as JSON')
    .action(lazy(() => import('./commands/history.js')));

  program
    .command('replay')
    .description("Replay Claude Code transcripts (~/.claude/projects/<project>/*.jsonl), Codex CLI rollouts (~/.codex/sessions/**/rollout-*.jsonl) or Gemini CLI chat files (~/.gemini/tmp/<project>/chats/session-*.jsonl) through debussy's context monitor: per API call the reported context, debussy's projection, and where a run would have stopped.")
    .argument('<transcripts...>', 'transcript files (.jsonl)')
    .option('--context-threshold <percent>', 'restart threshold in percent of the window (default 80)')
    .option('--max-context-tokens <n>', 'absolute cap beside the threshold (default 160000; 0: none)')
    .option('--context-window <n>', "the model's window in tokens (transcripts do not say whether a 1M variant ran)")
    .option('--json', 'one JSON object per call, then one summary object')
    .action(lazy(() => import('./commands/replay.js')));

  program
    .command('doctor')
    .description('Check that this machine and project can run a plan: claude and its version, login or API key, git identity, permissions, the config, notification targets.')
    .option('--json', 'print the checks as one JSON object')
    .option('--config <file>', 'use this config file instead of discovering one')
    .action(lazy(() => import('./commands/doctor.js')));

  const ci = program
    .command('ci')
    .description("Generate a CI workflow that runs a plan's phases on CI runners, each phase in its own job as soon as its dependencies are done.");
  ci
    .command('github')
    .description(`Write a GitHub Actions workflow for a plan: a job per phase with needs: from its dependencies, then one that merges and verifies them, then one that pushes (${docFile('ci.md')}).`)
    .argument('<plan>', 'path to the MASTER_PLAN.md')
    .option('--output <file>', 'write the workflow to this file instead of stdout')
    .option('--debussy-package <spec>', "what the jobs install debussy from, as npm takes it: a version (debussy@0.2.0), a tarball or git URL (default: this debussy's repository)")
    .option('--claude-code-version <version>', 'the Claude Code version the phase jobs install (default: the one debussy is tested with)')
    .option('--node-version <version>', 'the Node version of the jobs', '24')
    .addOption(new Option('--secret <name>', "the repository secret the agent's credentials come from").choices(AGENT_SECRETS).default('ANTHROPIC_API_KEY'))
    .option('--setup <command>', 'a command that sets the project up in each job before debussy runs, e.g. "npm ci"; repeatable', (item: string, items: string[] | undefined) => [...(items ?? []), item])
    .addHelpText('after', examples([
      ['debussy ci github plans/billing/MASTER_PLAN.md --output .github/workflows/debussy-billing.yml --setup "npm ci"', 'write the workflow'],
      ['debussy ci github plans/billing/MASTER_PLAN.md --secret CLAUDE_CODE_OAUTH_TOKEN', 'print it; the agent logs in with a subscription token'],
    ]))
    .action(lazy(() => import('./commands/ci-github.js')));
  ci
    .command('keep-work')
    .description('Commit what a phase left uncommitted, as its own commits would hold it: run by the workflow `debussy ci github` writes, after each phase, since a runner\'s working tree is gone when its job ends.')
    .requiredOption('--phase <id>', 'the phase id')
    .requiredOption('--plan <file>', 'the master plan')
    .action(lazy(() => import('./commands/ci-keep-work.js')));

  registerGettingStartedCommands(program);

  program
    .command('completion')
    .description('Print a shell completion script: debussy completion bash|zsh|fish.')
    .addArgument(new Argument('<shell>', 'the shell').choices(['bash', 'zsh', 'fish']))
    .addHelpText('after', examples([
      ['debussy completion bash > ~/.local/share/bash-completion/completions/debussy', 'bash'],
      ['debussy completion zsh > "${fpath[1]}/_debussy"', 'zsh (a folder on $fpath)'],
      ['debussy completion fish > ~/.config/fish/completions/debussy.fish', 'fish'],
    ]))
    // The script is generated from this very program, so commands and flags cannot drift from it.
    .action(async (shell: string) => {
      const { default: completionCommand } = await import('./commands/completion.js');
      process.exitCode = completionCommand(shell, program);
    });
  return program;
}

// `debussy status | head` closes the pipe early: that is the reader's choice, not an error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    // EIO: the terminal is gone (closed window, hang-up); `debussy run` treats it as a stop.
    if (error.code === 'EPIPE' || error.code === 'EIO') return;
    throw error;
  });
}

/** Runs the command `argv` names (process.argv's shape) and sets process.exitCode. */
export async function main(argv: string[]): Promise<void> {
  const program = buildProgram();
  try {
    // -V was the version flag before -v; scripts that use it keep working.
    await program.parseAsync(argv[2] === '-V' && argv.length === 3 ? [...argv.slice(0, 2), '--version'] : argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end through here with code 0.
      if (error.exitCode === 0) {
        process.exitCode = 0;
        return;
      }
      process.stderr.write("Run 'debussy --help' for usage.\n");
      process.exitCode = EXIT_CODES.usage.code;
      return;
    }
    process.exitCode = printError(error);
  }
}
