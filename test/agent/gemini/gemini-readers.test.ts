import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ChatFileFollower } from '../../../src/agent/gemini/chat-follower.js';
import { RetryNoticeReader } from '../../../src/agent/gemini/gemini-errors.js';

describe('RetryNoticeReader', () => {
  it('reads a notice split across lines and chunks, once', () => {
    const reader = new RetryNoticeReader();
    expect(reader.feed('Warning: something\nAttempt 1 failed: Resource has been exhau')).toEqual([]);
    expect(reader.feed('sted (e.g. check quota).\nSuggested retry after 1s.. Retrying after 5283ms...\n')).toEqual([{ attempt: 1, delayMs: 5283, errorStatus: 429 }]);
    expect(reader.feed('Attempt 2 failed with status 503: [API Error: {"error":{"code":503}}] Retrying after 9000ms...\n')).toEqual([{ attempt: 2, delayMs: 9000, errorStatus: 503 }]);
    expect(reader.feed('unrelated\n')).toEqual([]);
  });
});

describe('ChatFileFollower', () => {
  function chats(): { geminiDir: string; file: string } {
    const geminiDir = mkdtempSync(path.join(tmpdir(), 'debussy-gemini-dir-'));
    onTestFinished(() => rmSync(geminiDir, { recursive: true, force: true }));
    const dir = path.join(geminiDir, 'tmp', 'project', 'chats');
    mkdirSync(dir, { recursive: true });
    return { geminiDir, file: path.join(dir, 'session-2026-11-27T00-00-abcdef12.jsonl') };
  }
  const id = 'abcdef12-0000-4000-8000-000000000000';

  it('finds the file once gemini has made it, and hands out whole lines only, a character split across reads included', () => {
    const { geminiDir, file } = chats();
    const follower = new ChatFileFollower(geminiDir, id, false);
    expect(follower.newLines()).toEqual([]);
    const line = JSON.stringify({ text: 'naïve ✓' });
    const bytes = Buffer.from(`{"a":1}\n${line}\n`);
    const cut = bytes.indexOf(Buffer.from('✓')) + 1;
    writeFileSync(file, bytes.subarray(0, cut));
    expect(follower.newLines()).toEqual(['{"a":1}']);
    appendFileSync(file, bytes.subarray(cut));
    expect(follower.newLines()).toEqual([line]);
    expect(follower.newLines()).toEqual([]);
  });

  it("starts a resumed session's file from its end", () => {
    const { geminiDir, file } = chats();
    writeFileSync(file, '{"earlier":true}\n');
    const follower = new ChatFileFollower(geminiDir, id, true);
    appendFileSync(file, '{"later":true}\n');
    expect(follower.newLines()).toEqual(['{"later":true}']);
  });
});
