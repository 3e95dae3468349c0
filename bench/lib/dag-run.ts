/**
 * A plan of scripted phases (dag-plan.ts) as a real project, and `debussy run` on it timed from
 * outside: wall time, the CPU of debussy and every process under it, and the whole machine's CPU
 * over the same span. Figure 8 runs it with `--parallel N`; figure 9 with `--queue URL`, its
 * workers started beside it (queue-workers.ts).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { E2EProject, type PhaseSpec } from '../../test/e2e/e2e-project.js';
import { assistantTurns, bash, done, sessionKind } from '../../test/e2e/session-script.js';
import { DEBUSSY_BIN } from '../../test/cli/cli-harness.js';
import { firstUserText, type RecordedRequest, type ScriptedTurn } from '../../test/support/scripted-api.js';
import type { DagPhase } from './dag-plan.js';

/** What each phase's one session does: mostly waiting, as real sessions wait on the model. */
export interface PhaseWork {
  /** Time to first byte of each of the session's three model responses. */
  modelLatencyMs: number;
  /** A tool that waits (`(sleep N)`: claude 2.1.332 blocks a bare `sleep N` of more than a few seconds). */
  toolSleepS: number;
}

/** The work of figures 8 and 9: about 5 s of waiting a phase (BENCH_QUICK: about 2.5 s). */
export function benchPhaseWork(quick: boolean): PhaseWork {
  return quick ? { modelLatencyMs: 500, toolSleepS: 1 } : { modelLatencyMs: 1_000, toolSleepS: 2 };
}

export function phaseSpecs(plan: readonly DagPhase[]): PhaseSpec[] {
  return plan.map((p) => ({
    id: p.id, title: `Layer ${p.layer + 1} part ${p.id}`,
    ...(p.dependsOn.length > 0 ? { dependsOn: p.dependsOn } : {}),
    gates: [{ name: 'out', command: `test -f out-${p.id}.txt` }],
  }));
}

/** The phase a request belongs to: "phase ID" comes first in every prompt debussy writes. */
export function phaseOfRequest(req: RecordedRequest): string {
  return /phase (\w+)/.exec(firstUserText(req))?.[1] ?? '?';
}

/**
 * Every phase: wait for the model, run a tool that waits and writes the file the gate checks,
 * signal done, end. A session of any other kind (a reminder, a resume) only signals done, so a
 * phase never hangs; the figure counts sessions to see that none was needed.
 */
export function phaseScript(work: PhaseWork): (req: RecordedRequest) => ScriptedTurn {
  const latencyMs = work.modelLatencyMs;
  return (req) => {
    const id = phaseOfRequest(req);
    const turns: ScriptedTurn[] =
      sessionKind(req) === 'fresh'
        ? [bash(`(sleep ${work.toolSleepS}) && echo ${id} > out-${id}.txt`, { latencyMs }), bash(`debussy done --phase ${id}`, { latencyMs }), done()]
        : [bash(`echo ${id} > out-${id}.txt && debussy done --phase ${id}`, { latencyMs }), done()];
    return { ...(turns[assistantTurns(req)] ?? done()), latencyMs } as ScriptedTurn;
  };
}

export function createDagProject(plan: readonly DagPhase[], work: PhaseWork): Promise<E2EProject> {
  return E2EProject.create({ phases: phaseSpecs(plan), script: phaseScript(work) });
}

/** Busy and total CPU time of the whole machine so far (/proc/stat, all cores), in seconds. */
function machineCpu(): { busyS: number; totalS: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
  const ticks = line.trim().split(/\s+/).slice(1).map(Number);
  const total = ticks.reduce((a, b) => a + b, 0);
  const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0); // idle + iowait
  const hz = 100; // USER_HZ on Linux
  return { busyS: (total - idle) / hz, totalS: total / hz };
}

export interface TimedRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Spawn to exit of `debussy`, in the bench's clock. */
  wallMs: number;
  startedAt: number;
  /** User + system CPU of debussy and every process it waited for (claude, tools, gates, git), from /usr/bin/time. */
  cpuS: { user: number; system: number };
  /** The scripted server's CPU over the run (it runs in this process, which does nothing else meanwhile). */
  serverCpuS: number;
  /** The whole machine's busy CPU over the run, and the share of all cores it was (other work included). */
  machineBusyS: number;
  machineBusyShare: number;
  loadAverageBefore: number;
}

/** Runs `debussy ARGS` in the project under /usr/bin/time. */
export async function timedDebussy(project: E2EProject, args: string[], timesDir: string, label: string): Promise<TimedRun> {
  const timesFile = path.join(timesDir, `time-${label}.txt`);
  const loadAverageBefore = os.loadavg()[0] ?? Number.NaN;
  const machineBefore = machineCpu();
  const ownBefore = process.cpuUsage();
  const startedAt = Date.now();
  const t0 = performance.now();
  const child = spawn('/usr/bin/time', ['-f', '%U %S', '-o', timesFile, process.execPath, DEBUSSY_BIN, ...args], { cwd: project.dir, env: project.env(), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (exit) => resolve(exit));
  });
  const wallMs = performance.now() - t0;
  const own = process.cpuUsage(ownBefore);
  const machineAfter = machineCpu();
  // /usr/bin/time writes "Command exited with non-zero status N" first when it did.
  const [user, system] = (readFileSync(timesFile, 'utf8').trim().split('\n').at(-1) ?? '').split(' ').map(Number);
  const busyS = machineAfter.busyS - machineBefore.busyS;
  return {
    code, stdout, stderr, wallMs, startedAt,
    cpuS: { user: user ?? Number.NaN, system: system ?? Number.NaN },
    serverCpuS: (own.user + own.system) / 1e6,
    machineBusyS: busyS,
    machineBusyShare: busyS / (machineAfter.totalS - machineBefore.totalS),
    loadAverageBefore,
  };
}
