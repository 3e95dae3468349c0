import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendEvent, describeJournalLoss, eventsOfLines, JournalKeeper, readJournal } from '../../src/state/index.js';
import { makeTempDir } from './support.js';

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await makeTempDir('keeper');
  file = join(dir, 'runs', 'r1', 'journal.ndjson');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const event = (n: number) => JSON.stringify({ type: 'notice', level: 'info', message: `event ${n}`, v: 1, ts: new Date().toISOString(), pid: process.pid });

describe('JournalKeeper', () => {
  it('writes like appendRecord and keeps every line, its own and those other processes append', async () => {
    const keeper = new JournalKeeper(file);
    expect(keeper.append(event(1))).toBeUndefined();
    appendEvent(file, { type: 'progress', phaseId: '1', message: 'from the agent' });
    expect(keeper.append(event(2))).toBeUndefined();
    expect(eventsOfLines(keeper.records).map((e) => e.type)).toEqual(['notice', 'progress', 'notice']);
    expect((await readJournal(file)).events).toHaveLength(3);
  });

  it('writes the journal back when its directory is deleted, with what was appended since', async () => {
    const keeper = new JournalKeeper(file);
    keeper.append(event(1));
    keeper.append(event(2));
    rmSync(join(dir, 'runs'), { recursive: true });
    // The agent's done lands first, in a fresh file of its own.
    appendEvent(file, { type: 'signal', phaseId: '1', status: 'completed' });
    const loss = keeper.check();
    expect(loss).toMatchObject({ kind: 'replaced', restored: true });
    const read = await readJournal(file);
    expect(read.events.map((e) => e.type)).toEqual(['notice', 'notice', 'signal']);
    expect(read.badLines).toEqual([]);
    expect(keeper.append(event(3))).toBeUndefined();
    expect((await readJournal(file)).events).toHaveLength(4);
  });

  it('notices a deleted journal on the next append and writes it back before appending', async () => {
    const keeper = new JournalKeeper(file);
    keeper.append(event(1));
    rmSync(file);
    expect(keeper.append(event(2))).toMatchObject({ kind: 'deleted', restored: true });
    expect((await readJournal(file)).events.map((e) => (e as { message?: string }).message)).toEqual(['event 1', 'event 2']);
  });

  it('keeps events in memory while the journal cannot be written, and saves them once it can', () => {
    const keeper = new JournalKeeper(file);
    keeper.append(event(1));
    rmSync(join(dir, 'runs'), { recursive: true });
    writeFileSync(join(dir, 'runs'), 'a file in the way');
    const loss = keeper.check();
    expect(loss).toMatchObject({ kind: 'deleted', restored: false });
    expect(loss?.error?.message).toContain(file);
    expect(keeper.append(event(2))).toBeUndefined(); // reported once
    expect(keeper.unsaved).toBe(true);
    expect(keeper.lastError?.hint).toContain(`make ${join(dir, 'runs')} a writable directory`);
    rmSync(join(dir, 'runs'));
    mkdirSync(join(dir, 'runs'));
    keeper.check();
    expect(keeper.unsaved).toBe(false);
    expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(2);
  });

  it('a journal cut short is rewritten from memory', async () => {
    const keeper = new JournalKeeper(file);
    keeper.append(event(1));
    keeper.append(event(2));
    writeFileSync(file, '');
    expect(keeper.check()).toMatchObject({ kind: 'replaced', restored: true });
    expect((await readJournal(file)).events).toHaveLength(2);
  });
});

describe('describeJournalLoss', () => {
  it.each([
    [{ kind: 'deleted', restored: true } as const, /state was deleted during the run: J was removed .*written back from memory.*`debussy run` resumes/],
    [{ kind: 'replaced', restored: true } as const, /J was replaced/],
    [{ kind: 'deleted', restored: false } as const, /keeps the journal in memory/],
  ])('%o', (loss, expected) => {
    expect(describeJournalLoss(loss, 'J')).toMatch(expected);
  });
});
