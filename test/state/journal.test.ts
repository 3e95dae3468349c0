import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendEvent, JOURNAL_VERSION, readJournal } from '../../src/state/index.js';
import { makeTempDir, removeDir } from './support.js';

let dir: string;
let file: string;

beforeEach(async () => {
  dir = await makeTempDir('journal');
  file = join(dir, 'runs', 'r1', 'journal.ndjson');
});
afterEach(async () => removeDir(dir));

const progress = (message: string) => ({ type: 'progress', phaseId: '1', message }) as const;

describe('appendEvent', () => {
  it('creates the directories and stamps version, time and pid', async () => {
    const written = appendEvent(file, progress('hello'));
    expect(written).toMatchObject({ type: 'progress', message: 'hello', v: JOURNAL_VERSION, pid: process.pid });
    expect(Number.isNaN(Date.parse(written.ts))).toBe(false);
    const text = await readFile(file, 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    expect(JSON.parse(text)).toEqual(written);
  });

  it('starts on a fresh line after a torn tail, so the new event survives', async () => {
    appendEvent(file, progress('one'));
    await appendFile(file, '{"type":"progress","phaseId":"1","mess');
    appendEvent(file, progress('two'));
    const read = await readJournal(file);
    expect(read.events.map((event) => event.type === 'progress' && event.message)).toEqual(['one', 'two']);
    expect(read.tornTail).toBe(false);
    expect(read.badLines).toEqual([{ line: 2, text: '{"type":"progress","phaseId":"1","mess' }]);
  });
});

describe('readJournal', () => {
  it('reads a missing journal as empty', async () => {
    expect(await readJournal(join(dir, 'nope.ndjson'))).toEqual({ events: [], badLines: [], tornTail: false, version: 1 });
  });

  it('loads a journal whose last line was torn by a crash', async () => {
    appendEvent(file, progress('one'));
    appendEvent(file, progress('two'));
    await appendFile(file, '{"type":"progress","pha');
    const read = await readJournal(file);
    expect(read.tornTail).toBe(true);
    expect(read.badLines).toEqual([]);
    expect(read.events.map((event) => event.type === 'progress' && event.message)).toEqual(['one', 'two']);
  });

  it('keeps a complete last event that only lacks its newline', async () => {
    appendEvent(file, progress('one'));
    await appendFile(file, JSON.stringify({ ...progress('two'), v: 1, ts: new Date().toISOString(), pid: 1 }));
    const read = await readJournal(file);
    expect(read.tornTail).toBe(false);
    expect(read.events).toHaveLength(2);
  });

  it('counts bad lines in the middle and carries on', async () => {
    appendEvent(file, progress('one'));
    await appendFile(file, 'not json at all\n{"no":"type"}\n\n   \n');
    appendEvent(file, progress('two'));
    const read = await readJournal(file);
    expect(read.events).toHaveLength(2);
    expect(read.badLines).toEqual([
      { line: 2, text: 'not json at all' },
      { line: 3, text: '{"no":"type"}', problem: 'not a journal event (no type)' },
    ]);
    expect(read.tornTail).toBe(false);
  });

  it('passes over events of types it does not know (a newer debussy wrote them): no event, no bad line', async () => {
    await writeFile(file.replace('runs/r1/', ''), '{"type":"from_the_future","ts":"2030-01-01T00:00:00.000Z"}\n');
    const read = await readJournal(file.replace('runs/r1/', ''));
    expect(read).toEqual({ events: [], badLines: [], tornTail: false, version: 1 });
  });

  it('reassembles lines longer than a read chunk, multi-byte characters included', async () => {
    const long = '€'.repeat(60_000) + 'é'.repeat(30_001);
    appendEvent(file, progress('before'));
    appendEvent(file, progress(long));
    appendEvent(file, progress('after'));
    const read = await readJournal(file);
    expect(read.badLines).toEqual([]);
    expect(read.events.map((event) => event.type === 'progress' && event.message)).toEqual(['before', long, 'after']);
  });
});
