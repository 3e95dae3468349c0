/**
 * Figure 3, context accuracy: one session of the real claude CLI against the scripted server,
 * which answers every request with input_tokens = that request's true token count (cl100k over
 * what the CLI sent). The session reads big files, runs Bash commands that print tens of KB and
 * writes large files. At each response's usage event, before it is observed, the monitor's
 * snapshot is its projection of the request that response answers (nothing enters the context
 * between a request and its response); the response's message id names the request, so each
 * projection meets the true count of exactly the request that came next.
 *
 * Beside it: the same projection with characters/4 x 1.3 instead of the tokenizer for what
 * entered since the last report, and both errors on that increment alone (the tool outputs and
 * file reads), where the two methods differ.
 */
import path from 'node:path';
import { buildClaudeArgs, startAgentSession, type AgentEvent } from '../../src/agent/index.js';
import { ContextMonitor } from '../../src/context/index.js';
import { CLAUDE_BIN, claudeEnv, makeClaudeConfigDir, tempGitRepo } from '../../test/support/claude.js';
import { startScriptedApi, type RecordedRequest, type ScriptedTurn } from '../../test/support/scripted-api.js';
import { loadCorpus, seededRandom, sliceLines } from '../lib/corpus.js';
import { figure, max, median, round, type BenchOptions, type Figure } from '../lib/figure.js';

const MEDIAN_TARGET = 3;
const WORST_TARGET = 8;
const EDIT_MARKER = '// bench: the line the Edit turn replaces';

interface Sample {
  request: number;
  trueTokens: number;
  projected: number;
  charsEstimate: number;
  reported: number;
}

/** Files the session reads and prints: real code, docs and logs, sized like a working project's. */
function projectFiles(): Record<string, string> {
  const corpus = loadCorpus();
  const random = seededRandom(3);
  const take = (chars: number) => sliceLines(corpus.text, chars, random);
  const log = Array.from({ length: 400 }, (_, i) => `[${String(i).padStart(4, '0')}] ${take(40).split('\n')[0]?.slice(0, 70) ?? ''}`).join('\n');
  const records = Array.from({ length: 260 }, (_, i) => ({ id: i, name: `record-${i}`, path: corpus.paths[i % corpus.paths.length], tags: ['bench', `t${i % 7}`], size: (i * 7919) % 100_000 }));
  return {
    'src/big-module.ts': `${take(40_000)}\n${EDIT_MARKER}\n${take(30_000)}\n`,
    'src/types.d.ts': take(60_000),
    'docs/reference.md': sliceLines(corpus.prose, 50_000, random),
    'logs/build.log': `${log}\n${take(6_000)}`.slice(0, 28_000),
    'logs/huge.log': take(80_000),
    'data/records.json': JSON.stringify(records, null, 2),
  };
}

function script(dir: string): ScriptedTurn[] {
  const corpus = loadCorpus();
  const random = seededRandom(5);
  const abs = (file: string) => path.join(dir, file);
  const bash = (command: string, text?: string): ScriptedTurn => ({ kind: 'tool_use', name: 'Bash', input: { command, description: command.slice(0, 40) }, ...(text ? { text } : {}) });
  const read = (file: string, text?: string): ScriptedTurn => ({ kind: 'tool_use', name: 'Read', input: { file_path: abs(file) }, ...(text ? { text } : {}) });
  const write = (file: string, chars: number): ScriptedTurn => ({ kind: 'tool_use', name: 'Write', input: { file_path: abs(file), content: sliceLines(corpus.text, chars, random) } });
  return [
    bash('cat logs/build.log', 'I will start with the build log to see what failed.'),
    read('src/big-module.ts'),
    write('src/new-feature.ts', 20_000),
    bash('seq 1 6000'),
    read('docs/reference.md', 'Now the reference documentation.'),
    bash('cat logs/huge.log'),
    { kind: 'tool_use', name: 'Edit', input: { file_path: abs('src/big-module.ts'), old_string: EDIT_MARKER, new_string: `${EDIT_MARKER} (edited)\n${sliceLines(corpus.text, 3_000, random)}` } },
    { kind: 'tool_use', uses: [{ name: 'Read', input: { file_path: abs('src/types.d.ts') } }, { name: 'Bash', input: { command: 'ls -la src docs logs data', description: 'list' } }], text: 'Two things at once.' },
    bash('head -300 logs/build.log'),
    write('src/second-feature.ts', 40_000),
    read('data/records.json'),
    bash('grep -n "function" src/big-module.ts | head -400'),
    read('src/new-feature.ts', 'Checking what I wrote.'),
    bash('git status --short && git diff --stat'),
    { kind: 'text', text: 'All done: the feature is written and the build log is understood.' },
  ];
}

/** What the monitor puts into its projection for an event, as characters (the chars/4 x 1.3 side). */
function enteredChars(event: AgentEvent): number {
  switch (event.type) {
    case 'assistant_text':
      return event.parentToolUseId === undefined ? event.text.length : 0;
    case 'tool_start':
      return event.parentToolUseId === undefined ? event.name.length + JSON.stringify(event.input ?? {}).length : 0;
    case 'tool_result':
      return event.parentToolUseId === undefined ? event.text.length : 0;
    default:
      return 0;
  }
}

function percentErrors(samples: Sample[], pick: (s: Sample) => number, base: (s: Sample) => number): number[] {
  return samples.map((s) => (100 * Math.abs(pick(s) - base(s))) / Math.max(1, Math.abs(base(s))));
}

function stats(errors: number[]): { median: number; worst: number } {
  return { median: round(median(errors), 2), worst: round(max(errors), 2) };
}

export async function contextAccuracy(options: BenchOptions): Promise<Figure> {
  const repo = await tempGitRepo(projectFiles());
  const config = await makeClaudeConfigDir();
  const api = await startScriptedApi({ script: script(repo.dir), usage: 'computed' });
  try {
    const monitor = new ContextMonitor({ thresholdPercent: 100, toolCallThreshold: 0, onLimit: () => undefined });
    const samples: Sample[] = [];
    const atRequestStart: number[] = [];
    let reported = 0;
    let charsSince = 0;
    options.log('one claude session with large tool outputs');
    const session = startAgentSession({
      command: CLAUDE_BIN, args: buildClaudeArgs({ model: 'sonnet', extraArgs: ['--dangerously-skip-permissions'] }),
      cwd: repo.dir, env: claudeEnv(api.url, config.dir), prompt: 'Work through the build problems in this repository.',
    });
    for await (const event of session.events()) {
      if (event.type === 'request_started') atRequestStart.push(monitor.snapshot().usedTokens);
      if (event.type === 'usage') {
        const request = Number(event.messageId.replace(/^msg_scripted_/, ''));
        if (reported > 0) {
          samples.push({ request, trueTokens: 0, projected: monitor.snapshot().usedTokens, charsEstimate: reported + Math.round((charsSince / 4) * 1.3), reported });
        }
        reported = event.contextTokens;
        charsSince = 0;
      }
      charsSince += enteredChars(event);
      monitor.observe(event);
    }
    const end = await session.ended;
    if (end.outcome !== 'completed') throw new Error(`bench: the claude session ended ${end.outcome}: ${end.stderrTail || end.lastApiError || ''}`);
    const byIndex = new Map<number, RecordedRequest>(api.requests.map((r) => [r.index, r]));
    for (const sample of samples) sample.trueTokens = byIndex.get(sample.request)?.trueTokens ?? Number.NaN;
    const valid = samples.filter((s) => Number.isFinite(s.trueTokens));
    if (valid.length < 5) throw new Error(`bench: only ${valid.length} projections could be matched to requests`);

    const debussy = stats(percentErrors(valid, (s) => s.projected, (s) => s.trueTokens));
    const simple = stats(percentErrors(valid, (s) => s.charsEstimate, (s) => s.trueTokens));
    const increment = (s: Sample) => s.trueTokens - s.reported;
    const debussyIncrement = stats(percentErrors(valid, (s) => s.projected - s.reported, increment));
    const simpleIncrement = stats(percentErrors(valid, (s) => s.charsEstimate - s.reported, increment));
    const met = debussy.median < MEDIAN_TARGET && debussy.worst < WORST_TARGET;
    return figure({
      id: 3, name: 'Context accuracy (projection of the next request)', value: debussy.median, unit: '% median error', limit: MEDIAN_TARGET,
      target: `median < ${MEDIAN_TARGET}% and worst < ${WORST_TARGET}%`, met,
      details: {
        worstErrorPercent: debussy.worst,
        worstLimitPercent: WORST_TARGET,
        requestsCompared: valid.length,
        mainRequests: api.mainRequests().length,
        charsOver4x1_3: simple,
        incrementOnly: { debussy: debussyIncrement, charsOver4x1_3: simpleIncrement },
        projectionAtRequestStartEqualsAtUsage: atRequestStart.slice(1).every((v, i) => v === valid[i]?.projected),
        samples: valid.map((s) => ({ trueTokens: s.trueTokens, projected: s.projected, charsEstimate: s.charsEstimate, previousReport: s.reported })),
      },
    });
  } finally {
    await api.close();
    await config.cleanup();
    await repo.cleanup();
  }
}

