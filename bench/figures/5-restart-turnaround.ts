/**
 * Figure 5, restart turnaround: `debussy run` in a repository of 10,000 committed files. In each
 * of five sessions the agent's first tool changes 200 files and prints ~25 KB, which takes the
 * projected context past 80% of the window, so debussy stops the session, commits the 200 changes, writes the checkpoint and
 * starts the next session; the sixth session signals done. Measured per restart: from the
 * journal's stop_requested to the next session's first POST /v1/messages at the scripted server
 * (both wall clock, same machine), with the steps in between from the journal.
 *
 * The limit, in the same run and the same repository afterwards: 2 s plus the median time of a
 * plain `git add -A && git commit` of another 200-file change.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stopGuardSettings } from '../../src/agent/claude/session-settings.js';
import { E2EProject, eventsOf } from '../../test/e2e/e2e-project.js';
import { assistantTurns, bash, done } from '../../test/e2e/session-script.js';
import type { RecordedRequest, ScriptedTurn } from '../../test/support/scripted-api.js';
import { startClaude } from '../../test/support/claude.js';
import { loadCorpus, seededRandom, sliceLines } from '../lib/corpus.js';
import { figure, max, median, type BenchOptions, type Figure } from '../lib/figure.js';

const FILES = 10_000;
const CHANGED = 200;
const RESTARTS = 5;
const BASE_MS = 2_000;
// 79% of sonnet's 200,000 tokens: the ~25 KB the change prints at its end crosses 80%, so the
// stop is requested when no tool runs and goes out at once (the tool's own time is not counted).
const REPORT_BEFORE_CROSSING = { input_tokens: 158_000 };

// Changes CHANGED files of the 100 x 100 tree: set N touches files N*200 .. N*200+199.
const CHANGE_SCRIPT = `#!/bin/sh
n=$1; i=0
while [ $i -lt ${CHANGED} ]; do
  f=$((n * ${CHANGED} + i)); d=$((f % 100)); x=$((f / 100))
  printf '// change %s\\n' "$n" >> "src/m$(printf %03d $d)/f$(printf %03d $x).ts"
  i=$((i + 1))
done
`;

function writeTree(dir: string): void {
  const corpus = loadCorpus();
  const random = seededRandom(17);
  for (let d = 0; d < 100; d++) {
    const folder = path.join(dir, 'src', `m${String(d).padStart(3, '0')}`);
    mkdirSync(folder, { recursive: true });
    for (let x = 0; x < FILES / 100; x++) writeFileSync(path.join(folder, `f${String(x).padStart(3, '0')}.ts`), `${sliceLines(corpus.text, 1_200, random)}\n`);
  }
  writeFileSync(path.join(dir, 'change.sh'), CHANGE_SCRIPT);
  writeFileSync(path.join(dir, 'big.txt'), sliceLines(corpus.text, 25_000, random).slice(0, 25_000));
}

/** Turns by session, in the order sessions first reach the server (their session-id header). */
function scriptBySessionOrder(sessions: ScriptedTurn[][]): (req: RecordedRequest) => ScriptedTurn {
  const order: string[] = [];
  return (req) => {
    const id = String(req.headers['x-claude-code-session-id'] ?? '');
    if (!order.includes(id)) order.push(id);
    return sessions[order.indexOf(id)]?.[assistantTurns(req)] ?? done();
  };
}

function firstRequestPerSession(requests: RecordedRequest[]): number[] {
  const seen = new Map<string, number>();
  for (const req of requests) {
    const id = String(req.headers['x-claude-code-session-id'] ?? '');
    if (!seen.has(id)) seen.set(id, req.receivedAt);
  }
  return [...seen.values()];
}

function timePlainCommit(dir: string, set: number): number {
  const change = spawnSync('sh', ['change.sh', String(set)], { cwd: dir });
  if (change.status !== 0) throw new Error(`bench: change.sh ${set} failed: ${change.stderr.toString()}`);
  const start = performance.now();
  const commit = spawnSync('sh', ['-c', `git add -A && git commit -q -m "plain commit ${set}"`], { cwd: dir });
  const ms = performance.now() - start;
  if (commit.status !== 0) throw new Error(`bench: plain git commit failed: ${commit.stderr.toString()}`);
  return ms;
}

/**
 * The claude CLI alone in the same repository, from spawn to its first request: its own start-up,
 * bare or with the flags debussy adds (the model and the stop guard's `--settings` hook).
 */
async function timeClaudeStartup(project: E2EProject, withDebussyFlags: boolean): Promise<number> {
  const before = project.api.mainRequests().length;
  const extraArgs = withDebussyFlags ? ['--model', 'claude-sonnet-4-5', '--settings', stopGuardSettings(path.join(project.dir, 'no-stop-file'))] : [];
  const start = Date.now();
  const running = await startClaude({ cwd: project.dir, prompt: 'Say hello.', apiUrl: project.api.url, extraArgs });
  const first = await project.api.waitForMainRequest(before + 1);
  await running.done;
  return first.receivedAt - start;
}

export async function restartTurnaround(options: BenchOptions): Promise<Figure> {
  const sessions: ScriptedTurn[][] = [
    ...Array.from({ length: RESTARTS }, (_, s) => [bash(`sh change.sh ${s} && cat big.txt`, { usage: REPORT_BEFORE_CROSSING, latencyMs: 300 }), bash('touch never.txt', { latencyMs: 300 })]),
    [bash('debussy done --phase 1', { latencyMs: 300 }), done()],
  ];
  const project = await E2EProject.create({ phases: [{ id: '1', title: 'Restart in a big repository' }], script: scriptBySessionOrder(sessions), config: { max_restarts: RESTARTS } });
  try {
    options.log(`writing and committing ${FILES} files`);
    writeTree(project.dir);
    await project.git('add', '-A');
    await project.git('commit', '--quiet', '-m', `${FILES} files`);
    // Files written in the same second as the index are "racily clean" and re-read by every git
    // command until the index is rewritten later: let a second pass, then refresh it, as in a
    // repository that has been sitting there.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await project.git('update-index', '--refresh');

    options.log(`debussy run with ${RESTARTS} restarts of ${CHANGED} changed files each`);
    const result = await project.run(['run', project.planArg]);
    if (result.code !== 0) throw new Error(`bench: debussy run exited ${result.code}: ${result.stdout.slice(-2000)}${result.stderr}`);
    const journal = await project.journal();
    const firsts = firstRequestPerSession(project.api.mainRequests());
    const at = (ts: string | undefined) => (ts === undefined ? Number.NaN : Date.parse(ts));
    const restarts = eventsOf(journal, 'stop_requested').map((stop) => {
      const stopAt = at(stop.ts);
      const next = stop.sessionIndex + 1;
      const since = (ts: string | undefined) => Math.round(at(ts) - stopAt);
      return {
        sessionIndex: stop.sessionIndex,
        turnaroundMs: Math.round((firsts[next - 1] ?? Number.NaN) - stopAt),
        sessionEndedMs: since(eventsOf(journal, 'session_ended').find((e) => e.sessionIndex === stop.sessionIndex)?.ts),
        committedMs: since(eventsOf(journal, 'commit').find((e) => e.purpose === 'checkpoint' && at(e.ts) >= stopAt)?.ts),
        committedFiles: eventsOf(journal, 'commit').find((e) => e.purpose === 'checkpoint' && at(e.ts) >= stopAt)?.files,
        nextSessionStartedMs: since(eventsOf(journal, 'session_started').find((e) => e.sessionIndex === next)?.ts),
      };
    });
    if (restarts.length !== RESTARTS) throw new Error(`bench: expected ${RESTARTS} restarts, the journal has ${restarts.length}`);

    options.log('timing plain git add -A && git commit of the same size of change');
    const plain = Array.from({ length: RESTARTS }, (_, i) => timePlainCommit(project.dir, RESTARTS + 1 + i));
    const plainMs = Math.round(median(plain));
    options.log('timing the claude CLI\'s own start-up in the same repository');
    const claudeStartup: number[] = [];
    const claudeStartupWithFlags: number[] = [];
    for (let i = 0; i < 3; i++) {
      claudeStartup.push(await timeClaudeStartup(project, false));
      claudeStartupWithFlags.push(await timeClaudeStartup(project, true));
    }
    const turnarounds = restarts.map((r) => r.turnaroundMs);
    const value = median(turnarounds);
    const limit = BASE_MS + plainMs;
    return figure({
      id: 5, name: 'Restart turnaround', value, unit: 'ms (median of restarts)', limit,
      target: `< ${BASE_MS} ms + plain git add -A && git commit (${plainMs} ms)`, met: value < limit,
      details: {
        files: FILES, changedPerRestart: CHANGED,
        worstTurnaroundMs: max(turnarounds),
        plainGitCommitMs: plain.map(Math.round),
        claudeStartupMs: claudeStartup,
        claudeStartupWithDebussyFlagsMs: claudeStartupWithFlags,
        nextSessionSpawnToFirstRequestMs: restarts.map((r) => r.turnaroundMs - r.nextSessionStartedMs),
        debussyPartMs: median(restarts.map((r) => r.nextSessionStartedMs)),
        perRestart: restarts,
        note: 'perRestart steps are ms after stop_requested; debussyPartMs = stop_requested -> next session spawned; claudeStartupMs = a bare claude -p in the same repo from spawn to its first request (WithDebussyFlags: plus --model and the stop guard --settings)',
      },
    });
  } finally {
    await project.dispose();
  }
}
