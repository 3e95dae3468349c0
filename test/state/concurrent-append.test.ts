import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readJournal } from '../../src/state/index.js';
import { buildStateModule, makeTempDir, removeDir, ScriptedChild } from './support.js';

const WORKERS = 4;
const EVENTS_EACH = 200;

let dir: string;
let stateModule: string;
const children: ScriptedChild[] = [];

beforeAll(async () => {
  dir = await makeTempDir('append');
  stateModule = await buildStateModule(join(dir, 'build'));
});
afterAll(async () => {
  await Promise.all(children.map((child) => child.stop()));
  await removeDir(dir);
});

it(`${WORKERS} processes appending ${EVENTS_EACH} events each at once lose none`, async () => {
  const file = join(dir, 'runs', 'r1', 'journal.ndjson');
  for (let w = 0; w < WORKERS; w++) children.push(new ScriptedChild('append-worker.js', [stateModule, file, `w${w}`, String(EVENTS_EACH)]));
  for (const child of children) expect(await child.nextLine()).toBe('ready');
  for (const child of children) child.send('go');
  for (const child of children) expect(await child.nextLine()).toBe('done');
  expect(await Promise.all(children.map((child) => child.exited))).toEqual(children.map(() => 0));

  // Every line is one whole event. (A blank line is allowed: a writer that sees another's write
  // half done for longer than a moment starts on a fresh line, and readers skip blank lines.)
  const text = await readFile(file, 'utf8');
  expect(text.endsWith('\n')).toBe(true);
  const lines = text.split('\n').filter((line) => line !== '');
  expect(lines).toHaveLength(WORKERS * EVENTS_EACH);
  for (const line of lines) expect(() => JSON.parse(line) as unknown).not.toThrow();

  const read = await readJournal(file);
  expect(read.badLines).toEqual([]);
  expect(read.tornTail).toBe(false);
  const seen = new Set(read.events.map((event) => (event.type === 'progress' ? event.message : '')));
  for (let w = 0; w < WORKERS; w++) {
    for (let i = 0; i < EVENTS_EACH; i++) expect(seen.has(`w${w}:${i}`)).toBe(true);
  }
  // Each worker's own events stay in the order it wrote them.
  for (let w = 0; w < WORKERS; w++) {
    const mine = read.events.filter((event) => event.type === 'progress' && event.attemptId === `w${w}`);
    expect(mine.map((event) => (event.type === 'progress' ? event.message : ''))).toEqual(
      Array.from({ length: EVENTS_EACH }, (_, i) => `w${w}:${i}`),
    );
    expect(new Set(mine.map((event) => event.pid))).toEqual(new Set([children[w]?.pid]));
  }
});
