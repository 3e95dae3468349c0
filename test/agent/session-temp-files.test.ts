import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createStopGuard } from '../../src/agent/stop-guard.js';
import { besideStopFile, removeSessionTempFiles, sessionTempFiles, sessionTempPaths } from '../../src/agent/session-temp-files.js';

/** Every file a session of `marker` makes, as the session makes them. */
function sessionLeftFiles(marker: string): string[] {
  const files = sessionTempFiles(marker);
  const guard = createStopGuard(marker);
  guard.arm(['toolu_1']);
  writeFileSync(guard.answerFile, '');
  mkdirSync(path.join(files.geminiHome, '.gemini'), { recursive: true });
  writeFileSync(path.join(files.geminiHome, '.gemini', 'settings.json'), '{}');
  const beside = besideStopFile(files.stopFile);
  mkdirSync(path.join(beside.tokens, '1'), { recursive: true });
  writeFileSync(beside.next, '');
  onTestFinished(() => removeSessionTempFiles(marker));
  return sessionTempPaths(files);
}

describe("a session's files in the temporary directory", () => {
  it('are all named by its marker, and removed by it alone', () => {
    const dead = randomUUID();
    const other = randomUUID();
    const left = sessionLeftFiles(dead);
    const others = sessionLeftFiles(other);
    expect(left.every(existsSync)).toBe(true);
    expect(left.every((file) => path.basename(file).includes(dead))).toBe(true);
    removeSessionTempFiles(dead);
    expect(left.filter(existsSync)).toEqual([]);
    expect(others.every(existsSync)).toBe(true);
  });

  it('a marker that is not a plain name (a forged journal) removes nothing', () => {
    const victim = mkdtempSync(path.join(tmpdir(), 'debussy-victim-'));
    onTestFinished(() => rmSync(victim, { recursive: true, force: true }));
    writeFileSync(path.join(victim, 'work.txt'), 'the user\'s');
    for (const forged of [`x/../../${path.relative('/', victim)}`, `../${path.basename(victim)}`, '..', '', '/', `a/../${path.basename(victim)}`]) {
      removeSessionTempFiles(forged);
      expect(existsSync(path.join(victim, 'work.txt')), forged).toBe(true);
    }
  });

  it('removing what is gone already is no error', () => {
    expect(() => removeSessionTempFiles(randomUUID())).not.toThrow();
  });
});
