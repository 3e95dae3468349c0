/** The one writer of a session's log file names: the session runner writes them, `debussy logs` finds them. */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeLogFailure, SessionLogs, sessionLogBase, sessionLogPaths, type LogFailure } from '../../src/agent/session-logs.js';

describe('session log names', () => {
  it.each([
    ['1', 1, '1-01'],
    ['2A', 12, '2A-12'],
    ['6.1', 3, '6.1-03'],
    ['a/b c', 100, 'a_b_c-100'],
  ])('phase %s, session %i: %s', (phaseId, sessionIndex, base) => {
    expect(sessionLogBase(phaseId, sessionIndex)).toBe(base);
  });

  it('puts the readable log and the raw stream side by side', () => {
    expect(sessionLogPaths(path.join('run', 'sessions'), '2A', 3)).toEqual({
      readable: path.join('run', 'sessions', '2A-03.log'),
      raw: path.join('run', 'sessions', '2A-03.stream.ndjson'),
    });
  });
});

/** Runs `test` with the path of a raw log in a fresh temp folder, removed afterwards. */
async function withRawLog(test: (raw: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'debussy-logs-'));
  try {
    await test(path.join(dir, 'raw.ndjson'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('SessionLogs writing in pieces', () => {
  it('writes a few lines gathered before the stream went quiet, with no further call', async () => {
    await withRawLog(async (raw) => {
      const logs = new SessionLogs(raw, undefined);
      logs.rawLine('{"type":"system","subtype":"init"}');
      logs.rawLine('{"type":"result"}', Buffer.from('{"type":"result"}'));
      expect(logs.flush()).toBe(true);
      // Less than a piece: written on its own shortly after, though nothing else arrives.
      let text = '';
      for (let waited = 0; waited < 5_000 && text === ''; waited += 50) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        text = readFileSync(raw, 'utf8');
      }
      expect(text).toBe('{"type":"system","subtype":"init"}\n{"type":"result"}\n');
      await logs.close();
    });
  });

  it('writes a line that follows a quiet spell at once, so a kill the moment after cannot take it', async () => {
    await withRawLog(async (raw) => {
      const logs = new SessionLogs(raw, undefined);
      logs.rawLine('{"type":"assistant","n":1}');
      logs.flush();
      await new Promise((resolve) => setTimeout(resolve, 100)); // a model's pause
      logs.rawLine('{"type":"assistant","n":2}');
      logs.flush();
      // In the file when this very call returns: nothing waits for a timer or the threadpool.
      expect(readFileSync(raw, 'utf8')).toBe('{"type":"assistant","n":1}\n{"type":"assistant","n":2}\n');
      await logs.close();
      expect(readFileSync(raw, 'utf8')).toBe('{"type":"assistant","n":1}\n{"type":"assistant","n":2}\n');
    });
  });

  it('never lets a small piece overtake a big one still on its way to the disk', async () => {
    await withRawLog(async (raw) => {
      const logs = new SessionLogs(raw, undefined);
      await new Promise((resolve) => setTimeout(resolve, 50)); // the file is open
      const big = `{"type":"user","text":"${'x'.repeat(300_000)}"}`;
      const lines = [big, '{"type":"assistant","n":1}', big, '{"type":"assistant","n":2}'];
      for (const line of lines) {
        logs.rawLine(line);
        logs.flush(true);
      }
      await logs.close();
      expect(readFileSync(raw, 'utf8')).toBe(lines.map((line) => `${line}\n`).join(''));
    });
  });
});

describe('SessionLogs that cannot be written', () => {
  it.runIf(existsSync('/dev/full'))('a full disk (/dev/full): each log reports its first failure once, keeps it, and nothing throws', async () => {
    const failures: LogFailure[] = [];
    const logs = new SessionLogs('/dev/full', '/dev/full', undefined, (failure) => failures.push(failure));
    logs.rawLine('{"type":"system","subtype":"init"}');
    logs.note('a line of the runner');
    logs.rawLine('{"type":"result"}');
    logs.note('another');
    await logs.close();
    const expected = { path: '/dev/full', error: 'ENOSPC: no space left on device' };
    expect(failures).toEqual([expected, expected]);
    expect(logs.incomplete()).toEqual([expected, expected]);
  });

  it('a folder that cannot be made: the log is incomplete from the start; the other log is written', async () => {
    await withRawLog(async (raw) => {
      const blocker = path.join(path.dirname(raw), 'not-a-folder');
      writeFileSync(blocker, '');
      const failures: LogFailure[] = [];
      const logs = new SessionLogs(raw, path.join(blocker, 'session.log'), undefined, (failure) => failures.push(failure));
      logs.rawLine('{"type":"system"}');
      logs.note('kept nowhere');
      await logs.close();
      expect(readFileSync(raw, 'utf8')).toBe('{"type":"system"}\n');
      expect(logs.incomplete()).toEqual([{ path: path.join(blocker, 'session.log'), error: 'EEXIST: file already exists' }]);
      expect(failures).toEqual(logs.incomplete());
    });
  });

  it('says which log and why in one warning', () => {
    expect(describeLogFailure({ path: '/p/.debussy/runs/r/sessions/2-01.log', error: 'ENOSPC: no space left on device' }, '.debussy/runs/r/sessions/2-01.log')).toBe(
      "session log .debussy/runs/r/sessions/2-01.log could not be written (ENOSPC: no space left on device): it is incomplete; the run goes on, and its journal keeps the session's outcome",
    );
  });
});
