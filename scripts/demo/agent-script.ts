/**
 * The scripted "model" of the demo: what it answers to each request the real claude CLI sends.
 * It works through plans/demo/ as an agent would (progress entries, files, the gates run by hand,
 * notes, `debussy done`), and the third turn of its first session reports a context of 165,000
 * of 200,000 tokens, so debussy stops that session at the 80% threshold and restarts it from a
 * checkpoint. A session is recognised by the start of its prompt; the turn within it by how many
 * assistant messages the conversation already holds. Pure.
 */
import { firstUserText, type RecordedRequest, type ScriptedTurn, type UsageSpec } from '../../test/support/scripted-api.js';

export type DemoSession = 'phase 1' | 'phase 1 after restart' | 'phase 2';

/** 82.5% of sonnet's 200,000-token window: over the default 80% threshold. */
const CROSSING_USAGE = { input_tokens: 165_000 };

const bash = (command: string, text?: string): ScriptedTurn =>
  ({ kind: 'tool_use', name: 'Bash', input: { command, description: command.slice(0, 40) }, ...(text ? { text } : {}) });
const write = (file: string, content: string, text?: string, usage?: UsageSpec): ScriptedTurn =>
  ({ kind: 'tool_use', name: 'Write', input: { file_path: file, content }, ...(text ? { text } : {}), ...(usage ? { usage } : {}) });
const say = (text: string): ScriptedTurn => ({ kind: 'text', text });

const COUNT_WORDS = `/** The number of whitespace-separated words in text. */
export function countWords(text) {
  const words = text.trim().split(/\\s+/);
  return words[0] === '' ? 0 : words.length;
}
`;

const COUNT_COMMAND = `import { readFileSync } from 'node:fs';
import { countWords } from './src/count-words.mjs';

console.log(countWords(readFileSync(0, 'utf8')));
`;

const COUNT_TESTS = `import assert from 'node:assert/strict';
import { test } from 'node:test';
import { countWords } from '../src/count-words.mjs';

test('counts the words of a sentence', () => assert.equal(countWords('the quick brown fox'), 4));
test('blank text has no words', () => assert.equal(countWords('  \\n'), 0));
test('runs of whitespace separate one word from the next', () => assert.equal(countWords('a   b\\t\\tc'), 3));
`;

const SESSIONS: Record<DemoSession, ScriptedTurn[]> = {
  'phase 1': [
    write('src/count-words.mjs', COUNT_WORDS, 'Starting with task 1.1: the countWords function.'),
    bash('debussy progress --phase 1 --message "1.1 done: countWords in src/count-words.mjs"'),
    // Over the threshold: this turn's tool still runs, then debussy stops the session before the
    // model is asked for another turn, so the turn after it never happens.
    write('count.mjs', COUNT_COMMAND, 'Task 1.2: the command that reads standard input.', CROSSING_USAGE),
    bash('echo "the session was not stopped" > never.txt'),
  ],
  'phase 1 after restart': [
    bash('echo "the quick brown fox" | node count.mjs', 'Continuing from the checkpoint: both files exist. Checking the command.'),
    bash('debussy progress --phase 1 --message "1.2 done: count.mjs prints the word count"'),
    write('notes/NOTES_demo_phase_1.md', '# Phase 1 notes\n\n- `src/count-words.mjs`: `countWords(text)`\n- `echo "some words" | node count.mjs` prints the count\n'),
    bash('debussy done --phase 1', 'Tasks done, gate checked, notes written.'),
    say('Phase 1 is complete.'),
  ],
  'phase 2': [
    bash('cat notes/NOTES_demo_phase_1.md', 'Reading the notes phase 1 left.'),
    write('test/count-words.test.mjs', COUNT_TESTS, 'Task 2.1: tests with node:test.'),
    bash('node --test test/count-words.test.mjs'),
    bash('debussy progress --phase 2 --message "2.1 done: 3 tests pass"'),
    write('notes/NOTES_demo_phase_2.md', '# Phase 2 notes\n\nRun the tests with `node --test test/count-words.test.mjs`.\n'),
    bash('debussy done --phase 2'),
    say('Phase 2 is complete.'),
  ],
};

export function demoSessionOf(req: RecordedRequest): DemoSession | undefined {
  const prompt = firstUserText(req);
  if (prompt.startsWith('# debussy checkpoint: continuing phase 1 ')) return 'phase 1 after restart';
  if (prompt.startsWith('You are executing phase 1 ')) return 'phase 1';
  if (prompt.startsWith('You are executing phase 2 ')) return 'phase 2';
  return undefined;
}

function assistantTurns(req: RecordedRequest): number {
  const body = req.body as { messages?: { role?: string }[] } | undefined;
  return (body?.messages ?? []).filter((m) => m.role === 'assistant').length;
}

export function demoAgent(req: RecordedRequest): ScriptedTurn {
  const session = demoSessionOf(req);
  if (session === undefined) return say('(the demo has no script for this prompt)');
  return SESSIONS[session][assistantTurns(req)] ?? say('Nothing left to do.');
}
