/**
 * Figure 7, overhead per phase: the CPU time debussy spends over a scripted 3-phase run (the
 * built binary, the real claude CLI, the scripted server), against the CPU time of the claude
 * processes of the same run.
 *
 * Method, with the kernel's own accounting (getrusage), nothing sampled:
 *   - every node process started with the exit probe in NODE_OPTIONS (`debussy run`, and any
 *     node `debussy` the agent's calls start, which inherit the environment) records its own CPU
 *     time (process.cpuUsage: all its threads, no children) and its reaped children's
 *     (/proc/self/stat cutime + cstime) when it exits;
 *   - the agent calls `debussy done` / `progress` through a bash wrapper that times each call
 *     with bash's `time` (CPU of everything the call ran: the sh shim that hands the call to the
 *     run's inbox, and node if the shim had to start it), to the millisecond;
 *   - claude_command is a wrapper that execs `/usr/bin/time -f '%U %S' claude ...`, so each
 *     session's claude process tree (the CLI, and every tool it ran and waited for) is recorded.
 * debussy = `debussy run`'s own CPU + the agent's debussy calls.
 * claude = the claude trees - the agent's debussy calls (they ran inside them).
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
/**
 * Tool calls in a phase of the measured run. A phase of a real master plan is a dozen tasks or
 * more, each a few reads, edits and test runs: the design this project follows sets its tool-call
 * fallback restart at 100 calls per session (seeds/smart-restart-phase-spec.md). 40 is on the
 * short side of that. A 7-call phase is measured beside it: there debussy's fixed costs (its own
 * start-up, the phase's commits and gates) are all there is.
 */
const REALISTIC_TOOL_CALLS = 40;
const SHORT_TOOL_CALLS = 7;

/** The 7-call phase: write, look, read, progress, notes, done. */
/** The agent's `debussy ARGS`, timed by the wrapper measureRun writes (on the session's PATH). */
const debussyCall = (args: string) => bash(`timed-debussy ${args}`);

function shortPhaseTurns(dir: string, id: string, random: () => number): ScriptedTurn[] {
  const code = (chars: number) => sliceLines(loadCorpus().text, chars, random);
  const file = path.join(dir, `src/feature-${id}.ts`);
  return [
    write(file, code(8_000), { text: `Phase ${id}: I will write the feature first.` }),
    bash('ls -la src && git status --short'),
    { kind: 'tool_use', name: 'Read', input: { file_path: file } },
    debussyCall('progress --phase "$DEBUSSY_PHASE_ID" --message "feature written and checked"'),
    write(path.join(dir, `notes/NOTES_${id}.md`), `# Notes ${id}\n\n${code(1_500)}`),
    debussyCall('done --phase "$DEBUSSY_PHASE_ID"'),
    done(`Phase ${id} is finished.`),
  ];
}

/**
 * A phase of `toolCalls` calls in the mix of a real one: modules written and read back, searches,
 * listings and checks run through Bash, a progress entry every ten calls, notes, then done.
 */
function realisticPhaseTurns(dir: string, id: string, random: () => number, toolCalls: number): ScriptedTurn[] {
  const code = (chars: number) => sliceLines(loadCorpus().text, chars, random);
  const turns: ScriptedTurn[] = [];
  let module = 0;
  while (turns.length < toolCalls - 2) {
    const file = path.join(dir, `src/phase-${id}/module-${module}.ts`);
    const cycle: ScriptedTurn[] = [
      write(file, code(2_000 + Math.floor(random() * 4_000)), { text: `Module ${module} of phase ${id}.` }),
      { kind: 'tool_use', name: 'Read', input: { file_path: file } },
      bash(`grep -n "export" src/phase-${id}/*.ts | head -40`),
      bash(`wc -l src/phase-${id}/*.ts && git status --short | head -20`),
      bash(`node -e "console.log(require('fs').readFileSync('${file}', 'utf8').split('\\n').length)"`),
    ];
    if ((module + 1) % 2 === 0) cycle.push(debussyCall(`progress --phase "$DEBUSSY_PHASE_ID" --message "modules 0-${module} written and checked"`));
    turns.push(...cycle);
    module += 1;
  }
  turns.length = toolCalls - 2;
  turns.push(write(path.join(dir, `notes/NOTES_${id}.md`), `# Notes ${id}\n\n${code(1_500)}`));
  turns.push(debussyCall('done --phase "$DEBUSSY_PHASE_ID"'));
  turns.push(done(`Phase ${id} is finished.`));
  return turns;
}

/** Each session is answered by its phase's turns: the phase id is in the prompt debussy wrote. */
function scriptByPhase(dir: string, toolCalls: number): (req: RecordedRequest) => ScriptedTurn {
  const random = seededRandom(23);
  const turnsOf = (id: string) => (toolCalls === SHORT_TOOL_CALLS ? shortPhaseTurns(dir, id, random) : realisticPhaseTurns(dir, id, random, toolCalls));
  const turns = new Map(PHASES.map((id) => [id, turnsOf(id)]));
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

/** Exported for a single measured run during development (`npx tsx` a script that calls it). */
export async function measureRun(dir: string, toolCalls: number, profileDir?: string): Promise<Measured> {
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
    script = scriptByPhase(project.dir, toolCalls);
    await warmClaude(project);
    const probe = installExitProbe(dir, profileDir);
    const agentCallTimes = path.join(dir, 'agent-call-times.txt');
    const tools = path.join(dir, 'tools');
    writeFileSync(agentCallTimes, '');
    mkdirSync(tools, { recursive: true });
    writeFileSync(path.join(tools, 'timed-debussy'), `#!/bin/bash\nTIMEFORMAT='%3U %3S'\n{ time debussy "$@" 2>&3 ; } 3>&2 2>> '${agentCallTimes}'\n`);
    chmodSync(path.join(tools, 'timed-debussy'), 0o755);
    const result = await project.run(['run', project.planArg], { ...probe.env, PATH: `${tools}:${project.env().PATH ?? process.env.PATH ?? ''}` });
    if (result.code !== 0) throw new Error(`bench: debussy run exited ${result.code}: ${result.stdout}${result.stderr}`);
    if (process.env.BENCH_DEBUG) console.log(result.stdout);
    const journal = await project.journal();
    const sessions = eventsOf(journal, 'session_started').length;

    const records = probe.records();
    const run = records.find((r) => debussyCommandOf(r) === 'run');
    if (!run) throw new Error('bench: the exit probe saw no `debussy run` process');
    // Node processes the agent's calls started (the shim falls back to node when the run's inbox
    // does not answer): already inside the calls' times, counted here only to show how many.
    const nodeStarts = records.filter((r) => ['done', 'progress'].includes(debussyCommandOf(r) ?? ''));
    const agentCalls = readFileSync(agentCallTimes, 'utf8').split('\n').filter((l) => /^\d/.test(l)).map((l) => l.split(' ').reduce((sum, n) => sum + Number(n) * 1000, 0));
    const agentDebussyMs = agentCalls.reduce((a, b) => a + b, 0);
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
        toolCallsPerPhase: toolCalls,
        sessions,
        perPhaseMs: { debussy: Math.round(value / PHASES.length), claude: Math.round(claudeMs / PHASES.length) },
        debussyRunOwnMs: Math.round(run.ownCpuMs),
        agentDebussyCalls: agentCalls.length,
        agentDebussyCallsMs: Math.round(agentDebussyMs),
        agentCallsThatStartedNode: nodeStarts.length,
        ratioOfDebussyRunAlone: round(run.ownCpuMs / claudeMs, 3),
        claudeTreesMs: claudeTrees.map(Math.round),
        gitAndGatesMs: Math.max(0, Math.round(run.childrenCpuMs - claudeTreeMs)),
        debussyRunPeakRssMb: round(run.vmHwmKb / 1024, 1),
        debussyRunThreadCpuMs: Object.fromEntries(Object.entries(run.threadCpuMs).map(([name, ms]) => [name, Math.round(ms)])),
      },
    };
  } finally {
  await project.dispose();
  }
}

/** A second run with every debussy process CPU-profiled: where `run`, `done` and `progress` spend. */
async function profileRun(dir: string, toolCalls: number, options: BenchOptions): Promise<Record<string, ProfileSummary>> {
  const profiles = path.join(dir, 'profiles');
  mkdirSync(profiles, { recursive: true });
  const measured = await measureRun(dir, toolCalls, profiles);
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
    options.log(`debussy run of 3 phases of ${REALISTIC_TOOL_CALLS} tool calls through the real claude CLI`);
    const { value, claudeMs, details } = await measureRun(path.join(dir, 'measured'), REALISTIC_TOOL_CALLS);
    options.log(`the same with phases of ${SHORT_TOOL_CALLS} tool calls (debussy's fixed costs)`);
    const short = await measureRun(path.join(dir, 'short'), SHORT_TOOL_CALLS);
    details.shortPhases = { debussyMs: Math.round(short.value), claudeMs: Math.round(short.claudeMs), ratio: round(short.value / short.claudeMs, 3), ...short.details };
    // What one more tool call costs each side, from the two runs: the ratio a longer phase tends to.
    const extraCalls = PHASES.length * (REALISTIC_TOOL_CALLS - SHORT_TOOL_CALLS);
    details.perExtraToolCallMs = {
      debussy: round((value - short.value) / extraCalls, 1),
      claude: round((claudeMs - short.claudeMs) / extraCalls, 1),
      ratio: round((value - short.value) / (claudeMs - short.claudeMs), 3),
    };
    const met = value / claudeMs < TARGET;
    if (!met || !options.quick) {
      options.log('profiling: the same run again under --cpu-prof');
      details.profiles = await profileRun(path.join(dir, 'profiled'), REALISTIC_TOOL_CALLS, options);
    }
    return figure({
      id: 7, name: `Overhead per phase (CPU, ${REALISTIC_TOOL_CALLS} tool calls a phase)`, value: Math.round(value), unit: 'ms CPU (3 phases)', limit: Math.round(claudeMs),
      target: `ratio < ${TARGET} (claude processes' CPU in the same run = limit)`, met, details,
    });
  });
}
