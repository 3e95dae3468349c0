/**
 * Figure 6, command start-up: wall time of `debussy done --phase 1` as the agent calls it at the
 * end of every phase (the session's `debussy` shim, answered by the run's inbox, which this
 * process runs as `debussy run` does), against `node -e 0`, interleaved, median of N runs. Beside
 * it, the same command outside a run (`--plan PLAN`, as CI or a user calls it, and as the shim
 * runs it when no run answers: the full CLI, config and plan). Beside the wall times, each process's own
 * CPU time from the exit probe (less disturbed by other load on the machine), and
 * `debussy --version`: the floor of the CLI entry before any command loads. Then a few runs under
 * `node --cpu-prof`, and what importing each piece costs on its own.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { DEBUSSY_BIN } from '../../test/cli/cli-harness.js';
import { planFiles } from '../../test/e2e/e2e-project.js';
import { tempGitRepo } from '../../test/support/claude.js';
import { formatProfile, mergeProfiles, readCpuProfile, summarizeProfile } from '../lib/cpu-profile.js';
import { installExitProbe, type ExitProbe } from '../lib/exit-probe.js';
import { appendEvent, journalPath } from '../../src/state/index.js';
import { SignalInbox } from '../../src/agent-signals/signal-inbox.js';
import { writeDebussyShim } from '../../src/orchestrator/agent-environment.js';
import { figure, median, round, type BenchOptions, type Figure } from '../lib/figure.js';
import { withTempDir } from '../lib/temp.js';

const TARGET = 2;
const PLAN = 'plans/e2e/MASTER_PLAN.md';
const PROJECT_ROOT = path.resolve(import.meta.dirname, '..', '..');
/** Direct dependencies, each timed alone when the target is missed. */
const DEPENDENCIES = ['commander', 'yaml', 'cosmiconfig', 'js-tiktoken'];

interface Timing {
  wallMs: number;
  cpuMs: number;
}

/** This process's environment without a run's variables: `done` must take the outside-a-run path. */
function cleanEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && !key.startsWith('DEBUSSY_') && key !== 'NODE_OPTIONS') env[key] = value;
  return env;
}

function timeNode(args: string[], cwd: string, env: Record<string, string>, probe?: ExitProbe): Timing {
  const start = performance.now();
  const result = spawnSync(process.execPath, args, { cwd, env: { ...env, ...probe?.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const wallMs = performance.now() - start;
  if (result.status !== 0) throw new Error(`bench: node ${args.join(' ')} exited ${result.status}: ${result.stderr.toString()}`);
  return { wallMs, cpuMs: probe?.records().at(-1)?.ownCpuMs ?? Number.NaN };
}

/** The shim as the agent's shell runs it: asynchronously, so the inbox in this process can answer. */
function timeShim(shim: string, args: string[], cwd: string, env: Record<string, string>): Promise<Timing> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(shim, args, { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`bench: the shim exited ${String(code)}: ${stderr}`));
      // No node starts: the shim's CPU is sh's and the run's (a few ms); the wall time is the figure.
      else resolve({ wallMs: performance.now() - start, cpuMs: Number.NaN });
    });
  });
}

/**
 * What loading costs, each in a fresh process, as CPU time above a bare node (median of 5,
 * interleaved): the done command's whole module graph, and each direct dependency alone.
 */
function importCosts(env: Record<string, string>, probe: ExitProbe): Record<string, number> {
  const specifiers = ['./dist/cli/commands/done.js', ...DEPENDENCIES];
  const samples = new Map<string, number[]>([['floor', []], ...specifiers.map((s): [string, number[]] => [s, []])]);
  for (let i = 0; i < 5; i++) {
    samples.get('floor')?.push(timeNode(['-e', '0'], PROJECT_ROOT, env, probe).cpuMs);
    for (const specifier of specifiers) {
      samples.get(specifier)?.push(timeNode(['--input-type=module', '-e', `await import(${JSON.stringify(specifier)})`], PROJECT_ROOT, env, probe).cpuMs);
    }
  }
  const floor = median(samples.get('floor') ?? []);
  return Object.fromEntries(specifiers.map((s) => [s, Math.round(median(samples.get(s) ?? []) - floor)]));
}

/**
 * The environment of an agent session of a run of this repo's plan: a journal that the run
 * started, and the variables debussy gives the agent. The signals pile up in the journal; that is
 * what a run would see too, and it does not change what a call costs.
 */
function sessionEnv(env: Record<string, string>, root: string, shimDir: string): { env: Record<string, string>; journal: string } {
  const runId = '20261122-000000-bench';
  const journal = journalPath(root, runId);
  appendEvent(journal, { type: 'run_started', runId, planPath: path.join(root, PLAN), planName: 'Startup Plan', phaseIds: ['1'], options: {} });
  return { env: { ...env, PATH: `${shimDir}${path.delimiter}${env.PATH ?? ''}`, DEBUSSY_PROJECT_ROOT: root, DEBUSSY_RUN_ID: runId, DEBUSSY_ATTEMPT_ID: '1-bench', DEBUSSY_PHASE_ID: '1' }, journal };
}

export async function commandStartup(options: BenchOptions): Promise<Figure> {
  const runs = options.quick ? 7 : 21;
  const repo = await tempGitRepo(planFiles('Startup Plan', [{ id: '1', title: 'Only phase' }]));
  try {
    return await withTempDir('startup', async (dir) => {
      const env = cleanEnv();
      const probe = installExitProbe(dir);
      const session = sessionEnv(env, repo.dir, path.join(dir, 'bin'));
      const inSession = session.env;
      // The run's side: its inbox answers the shim and records the signal, as `debussy run` does.
      const inbox = new SignalInbox(path.join(dir, 'inbox'), env, (event) => appendEvent(session.journal, event)).start();
      const shim = path.join(writeDebussyShim(path.join(dir, 'bin'), inbox), 'debussy');
      const done = ['done', '--phase', '1'];
      const doneOutside = [DEBUSSY_BIN, 'done', '--phase', '1', '--plan', PLAN];
      const version = [DEBUSSY_BIN, '--version'];
      const bare = ['-e', '0'];
      // Warm the page cache for both sides.
      for (const args of [bare, version, doneOutside]) timeNode(args, repo.dir, env);
      await timeShim(shim, done, repo.dir, inSession);
      const samples = { node: [] as Timing[], version: [] as Timing[], done: [] as Timing[], doneOutside: [] as Timing[] };
      options.log(`${runs} runs each, interleaved`);
      for (let i = 0; i < runs; i++) {
        samples.node.push(timeNode(bare, repo.dir, env, probe));
        samples.done.push(await timeShim(shim, done, repo.dir, inSession));
        samples.doneOutside.push(timeNode(doneOutside, repo.dir, env, probe));
        samples.version.push(timeNode(version, repo.dir, env, probe));
      }
      const wall = (list: Timing[]) => round(median(list.map((t) => t.wallMs)), 1);
      const cpu = (list: Timing[]) => round(median(list.map((t) => t.cpuMs)), 1);
      const value = wall(samples.done);
      const limit = wall(samples.node);
      const met = value / limit < TARGET;
      const details: Record<string, unknown> = {
        runs,
        cpuMs: { node: cpu(samples.node), version: cpu(samples.version) },
        outsideARun: { wallMs: wall(samples.doneOutside), cpuMs: cpu(samples.doneOutside), ratio: round(wall(samples.doneOutside) / limit, 2) },
        debussyVersionWallMs: wall(samples.version),
        doneWallMsMinMax: [round(Math.min(...samples.done.map((t) => t.wallMs)), 1), round(Math.max(...samples.done.map((t) => t.wallMs)), 1)],
        nodeWallMsMinMax: [round(Math.min(...samples.node.map((t) => t.wallMs)), 1), round(Math.max(...samples.node.map((t) => t.wallMs)), 1)],
      };
      // Always, met or not: the figure sits close to its target, and the profile says what to cut.
      options.log('profiling `debussy done` (outside a run: the full CLI) with node --cpu-prof');
      const profiles = path.join(dir, 'profiles');
      for (let i = 0; i < 5; i++) timeNode(['--cpu-prof', '--cpu-prof-dir', profiles, ...doneOutside], repo.dir, env);
      const files = readdirSync(profiles).filter((f) => f.endsWith('.cpuprofile'));
      const summary = summarizeProfile(mergeProfiles(files.map((f) => readCpuProfile(path.join(profiles, f)))), 15);
      details.profileOf5Runs = summary;
      options.log(formatProfile(summary, 12));
      details.importCpuMsAboveNode = importCosts(env, probe);
      options.log(`  import cost in a fresh process, CPU ms above node -e 0: ${JSON.stringify(details.importCpuMsAboveNode)}`);
      inbox.close();
      return figure({ id: 6, name: 'Command start-up (debussy done, in a session)', value, unit: 'ms (median wall)', limit, target: `ratio < ${TARGET} (node -e 0 = limit)`, met, details });
    });
  } finally {
    await repo.cleanup();
  }
}
