/**
 * `npm run demo`: runs plans/demo/ end to end with the built `debussy` and the real `claude` CLI,
 * against the project's scripted Messages API server on 127.0.0.1 (no network, no API key).
 *
 * In a fresh temp git repository, the scripted model works through the plan (scripts/demo/
 * agent-script.ts); its first session crosses the 80% context threshold, and debussy stops it,
 * commits, and restarts it from a checkpoint; then both phases pass their gates. Afterwards: the
 * restarted session's prompt, the git log and `debussy status`. Everything started is stopped and
 * the temp project removed (unless --keep), Ctrl-C included. Exits with debussy's exit code.
 *
 * Usage: npm run demo [-- --keep] (node --import tsx scripts/demo.ts, after the build)
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { GITIGNORE_ENTRIES } from '../src/scaffold/gitignore.js';
import { CLAUDE_BIN, claudeEnv } from '../test/support/claude.js';
import { startDemoModelServer, type DemoModelServer } from './demo/model-server.js';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const DEBUSSY_BIN = path.join(REPO_ROOT, 'bin', 'debussy.js');
const PLAN_SOURCE = path.join(REPO_ROOT, 'plans', 'demo');
const PLAN_ARG = 'plans/demo/MASTER_PLAN.md';
/** Time to first byte of every scripted reply: slow enough to watch, quick enough to finish soon. */
const LATENCY_MS = 450;

const run = promisify(execFile);

async function git(cwd: string, ...args: string[]): Promise<string> {
  return (await run('git', args, { cwd })).stdout;
}

const CONFIG_YAML = `# Written by scripts/demo.ts; docs/configuration.md lists every key.
# The real Claude Code CLI from the debussy repository; the demo's environment points it
# (ANTHROPIC_BASE_URL) at the scripted model server on 127.0.0.1.
claude_command: ${JSON.stringify(CLAUDE_BIN)}
claude_args: ["--dangerously-skip-permissions"]
# A model name with a known 200,000-token window.
model: claude-sonnet-4-5
stop_grace: 2s
`;

/** A git repository holding the demo plan, a config and the .gitignore entries for run data. */
async function createProject(): Promise<string> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'debussy-demo-'));
  cpSync(PLAN_SOURCE, path.join(dir, 'plans', 'demo'), { recursive: true });
  mkdirSync(path.join(dir, '.debussy'));
  writeFileSync(path.join(dir, '.debussy', 'config.yaml'), CONFIG_YAML);
  writeFileSync(path.join(dir, '.gitignore'), `${GITIGNORE_ENTRIES.join('\n')}\n`);
  await git(dir, 'init', '--quiet', '--initial-branch=main');
  await git(dir, 'config', 'user.name', 'debussy demo');
  await git(dir, 'config', 'user.email', 'demo@debussy.invalid');
  await git(dir, 'config', 'commit.gpgsign', 'false');
  await git(dir, 'config', 'core.hooksPath', '.git/hooks'); // none: the machine's own hooks stay out
  await git(dir, 'add', '-A');
  await git(dir, 'commit', '--quiet', '-m', 'demo project: the word counter plan');
  return dir;
}

/** claude's isolated environment, minus the variables of a debussy run this demo may be started from. */
function demoEnv(apiUrl: string, claudeConfigDir: string): Record<string, string> {
  const env = claudeEnv(apiUrl, claudeConfigDir);
  for (const key of Object.keys(env)) if (key.startsWith('DEBUSSY_')) delete env[key];
  return env;
}

/**
 * Signals while the demo runs are forwarded to debussy, which stops its session gracefully (a
 * second one ends it at once; a third ends debussy's whole process group). Before debussy starts,
 * a signal means "do not start it".
 */
class SignalRelay {
  private child: ChildProcess | undefined;
  private count = 0;
  private readonly names: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  private readonly onSignal = (signal: NodeJS.Signals): void => {
    this.count += 1;
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    if (this.count >= 3 && child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    else child.kill(signal);
  };

  constructor() {
    for (const name of this.names) process.on(name, this.onSignal);
  }

  get interrupted(): boolean {
    return this.count > 0;
  }

  attach(child: ChildProcess): void {
    this.child = child;
  }

  dispose(): void {
    for (const name of this.names) process.off(name, this.onSignal);
  }
}

function runDebussy(cwd: string, env: Record<string, string>, args: string[], relay: SignalRelay): Promise<number> {
  // Its own process group, so a Ctrl-C in the terminal reaches debussy once (through the relay),
  // not twice: a second SIGINT means "end at once" to debussy.
  const child = spawn(process.execPath, [DEBUSSY_BIN, ...args], { cwd, env, stdio: 'inherit', detached: true });
  relay.attach(child);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve(code ?? 128 + (signal ? os.constants.signals[signal] : 0)));
  });
}

const print = (text: string): void => void process.stdout.write(text);
const heading = (text: string): void => print(`\n=== ${text}\n`);

/** One line per commit, its files indented below it. */
async function commitLog(dir: string): Promise<string> {
  const log = await git(dir, 'log', '--name-only', '--format=%h %s');
  return log
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => (/^[0-9a-f]{7,} /.test(line) ? line : `        ${line}`))
    .join('\n');
}

async function printEpilogue(dir: string, env: Record<string, string>, restartPrompt: string | undefined): Promise<void> {
  if (restartPrompt !== undefined) {
    heading('the restarted session was given its checkpoint first; its prompt began:');
    print(`${restartPrompt.split('\n').slice(0, 14).map((line) => `  | ${line}`).join('\n')}\n  | ...\n`);
  }
  heading('git log of the demo project: the checkpoint commit is where the first session was stopped');
  print(`${await commitLog(dir)}\n`);
  heading('$ debussy status');
  const status = await run(process.execPath, [DEBUSSY_BIN, 'status'], { cwd: dir, env }).catch((error: { stdout?: string; stderr?: string }) => error);
  print(`${status.stdout ?? ''}${status.stderr ?? ''}`);
}

function printBanner(project: string, apiUrl: string): void {
  print(
    [
      'debussy demo',
      `  project:      ${project} (a fresh git repository holding plans/demo/)`,
      `  model server: ${apiUrl} (scripted: nothing leaves this machine, nothing is billed)`,
      `  agent:        ${path.relative(REPO_ROOT, CLAUDE_BIN)} --model sonnet (the real Claude Code CLI)`,
      'Phase 1 crosses the 80% context threshold: watch debussy stop it, commit, and restart it from a checkpoint.',
      '',
      `$ debussy run ${PLAN_ARG}`,
      '',
    ].join('\n'),
  );
}

async function main(argv: string[]): Promise<number> {
  const unknown = argv.filter((arg) => arg !== '--keep');
  if (unknown.length > 0) {
    process.stderr.write(`demo: unknown argument ${unknown.join(' ')}\nUsage: npm run demo [-- --keep]\n`);
    return 2;
  }
  const keep = argv.includes('--keep');
  // A closed pipe (`npm run demo | head`) must not skip the clean-up below.
  process.stdout.on('error', () => undefined);
  const relay = new SignalRelay();
  const claudeConfigDir = mkdtempSync(path.join(os.tmpdir(), 'debussy-demo-claude-'));
  let project: string | undefined;
  let server: DemoModelServer | undefined;
  try {
    server = await startDemoModelServer(LATENCY_MS);
    project = await createProject();
    const env = demoEnv(server.url, claudeConfigDir);
    printBanner(project, server.url);
    if (relay.interrupted) {
      heading('interrupted before debussy started');
      return 130;
    }
    const started = Date.now();
    const exitCode = await runDebussy(project, env, ['run', PLAN_ARG], relay);
    heading(`debussy exited with code ${exitCode} after ${((Date.now() - started) / 1000).toFixed(1)} s`);
    await printEpilogue(project, env, server.restartPrompt());
    heading(
      keep
        ? `the project is kept in ${project} (outside this demo, \`debussy run\` there would reach the real API)`
        : `the project in ${project} is removed (keep it with: npm run demo -- --keep)`,
    );
    return exitCode;
  } finally {
    await server?.close();
    rmSync(claudeConfigDir, { recursive: true, force: true });
    if (project && !keep) rmSync(project, { recursive: true, force: true });
    relay.dispose(); // last: a signal during the clean-up must not end the demo half-way
  }
}

process.exitCode = await main(process.argv.slice(2));
