/**
 * Figure 7, overhead per phase: the CPU time debussy spends over a scripted 3-phase run (the
 * built binary, the real claude CLI, the scripted server), against the CPU time of the claude
 * processes of the same run.
 *
 * Method, with the kernel's own accounting (getrusage), nothing sampled:
 *   - every node process started with the exit probe in NODE_OPTIONS (`debussy run`, and each
 *     `debussy done` / `progress` the agent runs, which inherit the environment) records its own
 *     CPU time (process.cpuUsage: all its threads, no children) and its reaped children's
 *     (/proc/self/stat cutime + cstime) when it exits;
 *   - claude_command is a wrapper that execs `/usr/bin/time -f '%U %S' claude ...`, so each
 *     session's claude process tree (the CLI, and every tool it ran and waited for) is recorded.
 * debussy = `debussy run`'s own CPU + the `debussy done` / `progress` processes.
 * claude = the claude trees - those `debussy done` / `progress` processes (they ran inside them).
 * git and gates = what `debussy run` reaped - the claude trees (reported beside, not counted:
 *   a gate is the user's command, and git is measured in figure 5).
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { E2EProject, eventsOf } from '../../test/e2e/e2e-project.js';
import { assistantTurns, bash, done, write } from '../../test/e2e/session-script.js';
import { CLAUDE_BIN } from '../../test/support/claude.js';
import { firstUserText, type RecordedRequest, type ScriptedTurn } from '../../test/support/scripted-api.js';
import { formatProfile, mergeProfiles, readCpuProfile, summarizeProfile, type CpuProfile, type ProfileSummary } from '../lib/cpu-profile.js';
import { loadCorpus, seededRandom, sliceLines } from '../lib/corpus.js';
import { debussyCommandOf, installExitProbe } from '../lib/exit-probe.js';
import { figure, round, type BenchOptions, type Figure } from '../lib/figure.js';
import { withTempDir } from '../lib/temp.js';

const TARGET = 0.1;
const PHASES = ['1', '2', '3'];

function phaseTurns(dir: string, id: string, random: () => number): ScriptedTurn[] {
  const code = (chars: number) => sliceLines(loadCorpus().text, chars, random);
  const file = path.join(dir, `src/feature-${id}.ts`);
  return [
    write(file, code(8_000), { text: `Phase ${id}: I will write the feature first.` }),
    bash('ls -la src && git status --short'),
    { kind: 'tool_use', name: 'Read', input: { file_path: file } },
    bash('debussy progress --phase "$DEBUSSY_PHASE_ID" --message "feature written and checked"'),
    write(path.join(dir, `notes/NOTES_${id}.md`), `# Notes ${id}\n\n${code(1_500)}`),
    bash('debussy done --phase "$DEBUSSY_PHASE_ID"'),
    done(`Phase ${id} is finished.`),
  ];
}

/** Each session is answered by its phase's turns: the phase id is in the prompt debussy wrote. */
function scriptByPhase(dir: string): (req: RecordedRequest) => ScriptedTurn {
  const random = seededRandom(23);
  const turns = new Map(PHASES.map((id) => [id, phaseTurns(dir, id, random)]));
  return (req) => {
    const id = /You are executing phase (\S+) /.exec(firstUserText(req))?.[1] ?? '';
    return turns.get(id)?.[assistantTurns(req)] ?? done();
  };
}

interface Measured {
  value: number;
  claudeMs: number;
  details: Record<string, unknown>;
  /** pid -> debussy command, for the profiles of a second run. */
  commands: Map<number, string>;
}

/** The claude CLI's first start in a fresh config dir does one-time setup (~10 s here): not a session's cost. */
async function warmClaude(project: E2EProject): Promise<void> {
  const child = spawn(CLAUDE_BIN, ['-p', '--dangerously-skip-permissions'], { cwd: project.dir, env: project.env(), stdio: ['pipe', 'ignore', 'ignore'] });
  child.stdin.end('Say hello.');
  await new Promise((resolve) => child.on('close', resolve));
}

async function measureRun(dir: string, profileDir?: string): Promise<Measured> {
  mkdirSync(dir, { recursive: true });
  const times = path.join(dir, 'claude-times.txt');
  writeFileSync(times, '');
  const wrapper = path.join(dir, 'claude-timed.sh');
  writeFileSync(wrapper, `#!/bin/sh\nexec /usr/bin/time -a -o '${times}' -f '%U %S' '${CLAUDE_BIN}' "$@"\n`);
  chmodSync(wrapper, 0o755);
  let script: (req: RecordedRequest) => ScriptedTurn = () => done();
  const project = await E2EProject.create({
    phases: PHASES.map((id, i) => ({ id, title: `Feature ${id}`, ...(i > 0 ? { dependsOn: [PHASES[i - 1] as string] } : {}) })),
    script: (req) => script(req),
    config: { claude_command: wrapper },
  });
  try {
    script = scriptByPhase(project.dir);
    await warmClaude(project);
    const probe = installExitProbe(dir, profileDir);
    const result = await project.run(['run', project.planArg], probe.env);
    if (result.code !== 0) throw new Error(`bench: debussy run exited ${result.code}: ${result.stdout}${result.stderr}`);
    if (process.env.BENCH_DEBUG) console.log(result.stdout);
    const journal = await project.journal();
    const sessions = eventsOf(journal, 'session_started').length;

    const records = probe.records();
    const run = records.find((r) => debussyCommandOf(r) === 'run');
    if (!run) throw new Error('bench: the exit probe saw no `debussy run` process');
    const agentCalls = records.filter((r) => ['done', 'progress'].includes(debussyCommandOf(r) ?? ''));
    const agentDebussyMs = agentCalls.reduce((sum, r) => sum + r.ownCpuMs + r.childrenCpuMs, 0);
    const claudeTrees = readFileSync(times, 'utf8').split('\n').filter((l) => /^\d/.test(l)).map((l) => l.split(' ').reduce((s, n) => s + Number(n) * 1000, 0));
    if (claudeTrees.length !== sessions) throw new Error(`bench: ${claudeTrees.length} claude timings for ${sessions} sessions`);
    const claudeTreeMs = claudeTrees.reduce((a, b) => a + b, 0);
    const claudeMs = claudeTreeMs - agentDebussyMs;
    const value = run.ownCpuMs + agentDebussyMs;
    return {
      value, claudeMs,
      commands: new Map(records.map((r) => [r.pid, debussyCommandOf(r) ?? 'other'])),
      details: {
        phases: PHASES.length,
        sessions,
        perPhaseMs: { debussy: Math.round(value / PHASES.length), claude: Math.round(claudeMs / PHASES.length) },
        debussyRunOwnMs: Math.round(run.ownCpuMs),
        agentDebussyCalls: agentCalls.length,
        agentDebussyCallsMs: Math.round(agentDebussyMs),
        ratioOfDebussyRunAlone: round(run.ownCpuMs / claudeMs, 3),
        claudeTreesMs: claudeTrees.map(Math.round),
        gitAndGatesMs: Math.max(0, Math.round(run.childrenCpuMs - claudeTreeMs)),
        debussyRunPeakRssMb: round(run.vmHwmKb / 1024, 1),
      },
    };
  } finally {
  await project.dispose();
  }
}

/** A second run with every debussy process CPU-profiled: where `run`, `done` and `progress` spend. */
async function profileRun(dir: string, options: BenchOptions): Promise<Record<string, ProfileSummary>> {
  const profiles = path.join(dir, 'profiles');
  mkdirSync(profiles, { recursive: true });
  const measured = await measureRun(dir, profiles);
  const byCommand = new Map<string, CpuProfile[]>();
  for (const file of readdirSync(profiles).filter((f) => f.endsWith('.cpuprofile'))) {
    const pid = Number(file.split('.')[0]);
    const command = measured.commands.get(pid) ?? 'other';
    byCommand.set(command, [...(byCommand.get(command) ?? []), readCpuProfile(path.join(profiles, file))]);
  }
  const summaries: Record<string, ProfileSummary> = {};
  for (const [command, list] of byCommand) {
    summaries[command] = summarizeProfile(mergeProfiles(list), 12);
    options.log(`debussy ${command} (${list.length} process${list.length > 1 ? 'es' : ''}):\n${formatProfile(summaries[command], 10)}`);
  }
  return summaries;
}

export async function overheadPerPhase(options: BenchOptions): Promise<Figure> {
  return withTempDir('overhead', async (dir) => {
    options.log('debussy run of 3 phases through the real claude CLI');
    const { value, claudeMs, details } = await measureRun(path.join(dir, 'measured'));
    const met = value / claudeMs < TARGET;
    if (!met) {
      options.log('target missed: the same run again under --cpu-prof');
      details.profiles = await profileRun(path.join(dir, 'profiled'), options);
    }
    return figure({
      id: 7, name: 'Overhead per phase (CPU)', value: Math.round(value), unit: 'ms CPU (3 phases)', limit: Math.round(claudeMs),
      target: `ratio < ${TARGET} (claude processes' CPU in the same run = limit)`, met, details,
    });
  });
}
