/**
 * Figure 4, stop precision: `debussy run` (the built binary) drives the real claude CLI against
 * the scripted server, which answers each turn after 300-800 ms. At a scripted turn the context
 * crosses the 80% threshold, two ways in turn:
 *   - usage: the crossing turn's response reports 165,000 of 200,000 tokens while its tool (a
 *     Write) is still to run: that tool must run, nothing after it;
 *   - projection: the last report is 158,000 and the crossing turn's Bash prints ~25 KB; the
 *     crossing is seen on the tool result, and the CLI starts its next request at once.
 * Every turn after the crossing one would `touch` a marker file. Counted per run: model responses
 * completed after the crossing turn's tool results, marker files (tools run), requests started
 * after the crossing and whether each was aborted, and the time from the crossing to the end of
 * the session (journal context_crossed -> session_ended).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { E2EProject, eventsOf } from '../../test/e2e/e2e-project.js';
import { bash, done, scriptBySession, sessionKind, write } from '../../test/e2e/session-script.js';
import type { ScriptedTurn } from '../../test/support/scripted-api.js';
import { loadCorpus, seededRandom, sliceLines } from '../lib/corpus.js';
import { figure, max, median, type BenchOptions, type Figure } from '../lib/figure.js';

type Mode = 'usage' | 'projection';

interface RunResult {
  mode: Mode;
  /** The crossing turn's own tool ran (a stop must not come before it). */
  crossingToolRan: boolean;
  responsesCompletedAfter: number;
  toolsRunAfter: number;
  requestsStartedAfter: number;
  requestsAbortedAfter: number;
  crossingToSessionEndMs: number;
  crossingToStopSignalMs: number | undefined;
  crossedAtPercent: number;
}

const MARKERS = ['after-crossing-1.txt', 'after-crossing-2.txt', 'after-crossing-3.txt'];
/** Index (0-based, in the fresh session) of the turn whose response or tool result crosses. */
const CROSSING_TURN = 1;
/** The last report before a crossing by projection: 79% of sonnet's 200,000 tokens. */
const PROJECTION_REPORT = 158_000;

function freshTurns(mode: Mode, latency: () => number): ScriptedTurn[] {
  const timed = (turn: ScriptedTurn): ScriptedTurn => ({ ...turn, latencyMs: latency() }) as ScriptedTurn;
  const crossing =
    mode === 'usage'
      ? write('part1.txt', 'part one\n', { usage: { input_tokens: 165_000 } })
      : bash('cat big.txt', { usage: { input_tokens: PROJECTION_REPORT } });
  return [
    bash('debussy progress --phase 1 --message "started"'),
    crossing,
    ...MARKERS.map((marker) => bash(`touch ${marker}`)),
    bash('debussy done --phase 1'),
    done(),
  ].map(timed);
}

async function runOnce(mode: Mode, seed: number): Promise<RunResult> {
  const random = seededRandom(seed);
  const latency = () => Math.round(300 + random() * 500);
  const script = scriptBySession({ fresh: freshTurns(mode, latency), checkpoint: [bash('debussy done --phase 1', { latencyMs: latency() }), done()] });
  const project = await E2EProject.create({ phases: [{ id: '1', title: 'Stop precisely' }], script });
  try {
    // ~25 KB of real code: under the CLI's 30,000-character cut, so all of it enters the context.
    project.write('big.txt', sliceLines(loadCorpus().text, 25_000, seededRandom(seed + 1)).slice(0, 25_000));
    await project.git('add', '-A');
    await project.git('commit', '--quiet', '-m', 'bench input');
    const result = await project.run(['run', project.planArg]);
    if (result.code !== 0) throw new Error(`bench: debussy run exited ${result.code}: ${result.stdout.slice(-2000)}${result.stderr}`);

    const journal = await project.journal();
    const crossed = eventsOf(journal, 'context_crossed')[0];
    const ended = eventsOf(journal, 'session_ended').find((e) => e.sessionIndex === crossed?.sessionIndex);
    if (!crossed || !ended) throw new Error('bench: the run did not cross the threshold');
    const fresh = project.api.mainRequests().filter((r) => sessionKind(r) === 'fresh');
    const after = fresh.slice(CROSSING_TURN + 1);
    const stopLine = await stopSignalTime(project, ended.sessionIndex);
    return {
      mode,
      // By projection, the crossing is the Bash output itself entering the context.
      crossingToolRan: mode === 'usage' ? existsSync(path.join(project.dir, 'part1.txt')) : crossed.usedTokens > PROJECTION_REPORT,
      responsesCompletedAfter: after.filter((r) => !r.aborted).length,
      toolsRunAfter: MARKERS.filter((m) => existsSync(path.join(project.dir, m))).length,
      requestsStartedAfter: after.length,
      requestsAbortedAfter: after.filter((r) => r.aborted).length,
      crossingToSessionEndMs: Date.parse(ended.ts) - Date.parse(crossed.ts),
      crossingToStopSignalMs: stopLine === undefined ? undefined : stopLine - Date.parse(crossed.ts),
      crossedAtPercent: Math.round(crossed.percent * 10) / 10,
    };
  } finally {
    await project.dispose();
  }
}

/** When the session log says SIGINT went out (the readable log's own timestamp). */
async function stopSignalTime(project: E2EProject, sessionIndex: number): Promise<number | undefined> {
  const started = eventsOf(await project.journal(), 'session_started').find((e) => e.sessionIndex === sessionIndex);
  if (!started?.logPath) return undefined;
  const line = readFileSync(started.logPath, 'utf8').split('\n').find((l) => l.includes(': SIGINT'));
  return line === undefined ? undefined : Date.parse(line.slice(0, 24));
}

export async function stopPrecision(options: BenchOptions): Promise<Figure> {
  const runs = options.quick ? 4 : 6;
  const results: RunResult[] = [];
  for (let i = 0; i < runs; i++) {
    const mode: Mode = i % 2 === 0 ? 'usage' : 'projection';
    options.log(`run ${i + 1}/${runs} (crossing by ${mode})`);
    results.push(await runOnce(mode, 100 + i));
  }
  const afterCrossing = results.map((r) => r.responsesCompletedAfter + r.toolsRunAfter);
  const allAborted = results.every((r) => r.requestsAbortedAfter === r.requestsStartedAfter);
  const crossingToolsRan = results.every((r) => r.crossingToolRan);
  const value = max(afterCrossing);
  return figure({
    id: 4, name: 'Stop precision', value, unit: 'responses + tools after the crossing turn (worst run)', limit: 0,
    target: '0 in every run, and every request started after the crossing aborted', met: value === 0 && allAborted && crossingToolsRan,
    details: {
      runs: results.length,
      everyLaterRequestAborted: allAborted,
      crossingTurnToolAlwaysRan: crossingToolsRan,
      requestsStartedAfter: results.map((r) => r.requestsStartedAfter),
      crossingToSessionEndMs: { median: median(results.map((r) => r.crossingToSessionEndMs)), worst: max(results.map((r) => r.crossingToSessionEndMs)) },
      crossingToStopSignalMs: { median: median(results.flatMap((r) => r.crossingToStopSignalMs ?? [])), worst: max(results.flatMap((r) => r.crossingToStopSignalMs ?? [])) },
      perRun: results,
    },
  });
}
