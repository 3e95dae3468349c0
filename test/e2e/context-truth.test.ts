/**
 * Issue 13 acceptance, through the real claude CLI against the scripted server: the server counts
 * tokens in a way debussy does not share (another vocabulary, scaled per content kind, hidden
 * per-message overhead, an unseen jump), 20-60% above cl100k, and debussy still stops the session
 * before the request that would cross the threshold, and not absurdly early. Then the window a
 * session is measured against: the 1M variant kept on --resume, the real claude's default model
 * (1M) capped by --max-context-tokens. The default cap of 160,000 on a 1M session is shown in
 * process: test/context/default-context-cap-run.test.ts.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { countRequestTokens, type RecordedRequest, type ScriptedTurn } from '../support/scripted-api.js';
import { E2EProject, eventsOf } from './e2e-project.js';
import { bash, done, scriptBySession, sessionKind } from './session-script.js';

const WINDOW = 80_000;
const THRESHOLD = 80;
const LIMIT = (WINDOW * THRESHOLD) / 100;

/** Real declarations and prose, sized like files an agent reads: ~3,000 cl100k tokens each. */
function sourceFiles(): Record<string, string> {
  const root = path.resolve(import.meta.dirname, '..', '..');
  const es5 = readFileSync(path.join(root, 'node_modules/typescript/lib/lib.es5.d.ts'), 'utf8');
  const dom = readFileSync(path.join(root, 'node_modules/typescript/lib/lib.dom.d.ts'), 'utf8');
  const files: Record<string, string> = {};
  for (let i = 0; i < 6; i++) files[`lib/part${i}.d.ts`] = es5.slice(20_000 + i * 12_000, 32_000 + i * 12_000);
  for (let i = 0; i < 6; i++) files[`lib/dom${i}.d.ts`] = dom.slice(100_000 + i * 11_000, 111_000 + i * 11_000);
  return files;
}

function readTurns(): ScriptedTurn[] {
  const turns: ScriptedTurn[] = [];
  for (let i = 0; i < 6; i++) {
    turns.push(bash(`cat lib/part${i}.d.ts`));
    turns.push({ kind: 'tool_use', name: 'Read', input: { file_path: `lib/dom${i}.d.ts` }, text: `Reading the DOM declarations, part ${i}.` });
  }
  return turns;
}

let project: E2EProject | undefined;
afterEach(async () => {
  await project?.dispose();
  project = undefined;
});

describe('context truth: a server whose counts debussy does not share', () => {
  it('stops before the request that crosses the threshold although the counts are 20-60% above cl100k', async () => {
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Read a lot' }],
      files: sourceFiles(),
      usage: 'foreign',
      // One unseen jump of 6,000 tokens early on (the 6th message): it must not throw the learner off.
      foreign: { jumpAtMessages: [6] },
      config: { context_window: WINDOW, context_threshold: THRESHOLD },
      // A real model takes seconds to answer: the stop after a tool result lands before the next answer.
      defaultLatencyMs: 800,
      script: scriptBySession({ fresh: [...readTurns(), bash('debussy done --phase 1'), done()], checkpoint: [bash('debussy done --phase 1'), done()] }),
    });
    const result = await project.run(['run', project.planArg]);
    expect(result.code, result.stdout + result.stderr).toBe(0);

    const fresh = project.api.mainRequests().filter((r) => sessionKind(r) === 'fresh');
    const answered = fresh.filter((r) => !r.aborted);
    const trueOf = (r: RecordedRequest) => r.trueTokens ?? 0;

    // The server's truth differs from cl100k by 20-60% on what the session added.
    const growthRatios = answered.slice(1).map((r, i) => {
      const before = answered[i] as RecordedRequest;
      return (trueOf(r) - trueOf(before)) / (countRequestTokens(r.body) - countRequestTokens(before.body));
    });
    // The pair with the unseen jump aside: the one whose later request first holds 6 messages.
    const messagesIn = (r: RecordedRequest) => ((r.body as { messages?: unknown[] }).messages ?? []).length;
    const jumpPair = answered.findIndex((r) => messagesIn(r) >= 6) - 1;
    expect(jumpPair).toBeGreaterThanOrEqual(0);
    const contentRatios = growthRatios.filter((ratio, i) => i !== jumpPair);
    expect(Math.min(...contentRatios)).toBeGreaterThanOrEqual(1.2);
    expect(Math.max(...contentRatios)).toBeLessThanOrEqual(1.6);

    // debussy stopped: no request it let through carried more than the limit...
    const events = await project.journal();
    const crossing = eventsOf(events, 'context_crossed');
    expect(crossing).toMatchObject([{ phaseId: '1', trigger: 'context', stopping: true }]);
    for (const r of answered) expect(trueOf(r), `request ${r.index} went out over the limit`).toBeLessThan(LIMIT);
    // ...and it did not stop absurdly early: the last request it let through was near the limit.
    const last = answered.at(-1) as RecordedRequest;
    expect(trueOf(last)).toBeGreaterThan(LIMIT * 0.8);
    // The projection that stopped it was close to the truth of the request it projected (sent, then aborted).
    const projected = fresh.find((r) => r.aborted && r.index > last.index);
    if (projected !== undefined) expect(Math.abs((crossing[0]?.usedTokens ?? 0) - trueOf(projected)) / trueOf(projected)).toBeLessThan(0.02);
    // cl100k alone would have been far off: the same request counted with it is 15% or more lower.
    expect(countRequestTokens(last.body)).toBeLessThan(trueOf(last) * 0.87);
    // The reads after the stop never ran; the phase restarted from a checkpoint and completed.
    expect(fresh.length).toBeLessThan(readTurns().length);
    expect(eventsOf(events, 'restart')).toMatchObject([{ phaseId: '1', restart: 1 }]);
    expect(eventsOf(events, 'phase_ended')).toMatchObject([{ phaseId: '1', status: 'completed' }]);
  });
});

describe('the window and limit a session is measured against', () => {
  it('a session continued with --resume on a 1M variant stays on 1M (issue 11)', async () => {
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Big context' }],
      usage: 'scripted',
      // A `[1m]` variant (2.1.197 fell back to the plain model on --resume without --model), and no cap.
      config: { model: 'claude-sonnet-4-5[1m]', max_context_tokens: 0 },
      script: scriptBySession({
        fresh: [bash('echo working', { usage: { input_tokens: 300_000 } }), done('I think that is all.')],
        reminder: [bash('debussy done --phase 1', { usage: { input_tokens: 310_000 } }), done()],
      }),
    });
    const result = await project.run(['run', project.planArg]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const events = await project.journal();
    // 310,000 of 200,000 would have been 155% and a stop at once; of 1,000,000 it is 31%.
    expect(eventsOf(events, 'context_crossed')).toEqual([]);
    const ended = eventsOf(events, 'session_ended');
    expect(ended.map((e) => e.contextWindow)).toEqual([1_000_000, 1_000_000]);
    expect(ended[1]?.peakContextTokens).toBeGreaterThanOrEqual(310_000);
    // claude kept the 1M variant: the resumed session asked for it (the context-1m beta).
    const reminder = project.api.mainRequests().filter((r) => sessionKind(r) === 'reminder');
    expect(reminder.length).toBeGreaterThan(0);
    for (const r of reminder) expect(String(r.headers['anthropic-beta'])).toContain('context-1m');
    expect(eventsOf(events, 'session_started')[1]?.model).toBe('claude-sonnet-4-5[1m]');
    expect(eventsOf(events, 'phase_ended')).toMatchObject([{ phaseId: '1', status: 'completed' }]);
  });

  it('--max-context-tokens stops a 1M session at the cap; status shows the limit and where it came from', async () => {
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Capped' }],
      usage: 'scripted',
      config: { model: null },
      script: scriptBySession({
        fresh: [bash('echo one', { usage: { input_tokens: 260_000 } }), bash('touch after-cap.txt', { latencyMs: 1500 }), done()],
        checkpoint: [bash('debussy done --phase 1'), done()],
      }),
    });
    const result = await project.run(['run', project.planArg, '--max-context-tokens', '250000']);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const events = await project.journal();
    expect(eventsOf(events, 'context_crossed')).toMatchObject([{ phaseId: '1', trigger: 'context', contextWindow: 1_000_000, stopping: true }]);
    expect(eventsOf(events, 'session_ended')[0]).toMatchObject({ contextWindow: 1_000_000, contextLimitTokens: 250_000, contextLimitSource: 'max_context_tokens' });
    expect(eventsOf(events, 'restart')).toHaveLength(1);
    const status = await project.run(['status']);
    expect(status.stdout).toContain('of 1,000,000 tokens, limit 250,000 (max_context_tokens)');
    // The restarted session runs under the same cap.
    const second = eventsOf(events, 'session_ended')[1];
    expect(second).toMatchObject({ contextLimitTokens: 250_000, contextLimitSource: 'max_context_tokens' });
  });
});
