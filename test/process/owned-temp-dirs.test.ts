import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ownedTempPrefix, removeOwnedTempDirs } from '../../src/process/owned-temp-dirs.js';
import { OWNER_MARKER_VAR } from '../../src/process/owner-marker.js';
import { processStartTime } from '../../src/process/identity.js';

function folder(prefix: string): string {
  const dir = mkdtempSync(prefix);
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe('temporary folders named by the debussy that made them', () => {
  it('carry its owner marker, or none when it has none or one that is not plain', () => {
    expect(path.basename(ownedTempPrefix('commit', { [OWNER_MARKER_VAR]: '123-4567' }))).toBe('debussy-commit-123-4567-');
    expect(path.dirname(ownedTempPrefix('commit', {}))).toBe(tmpdir());
    expect(path.basename(ownedTempPrefix('commit', {}))).toBe('debussy-commit-');
    expect(path.basename(ownedTempPrefix('commit', { [OWNER_MARKER_VAR]: '../../etc' }))).toBe('debussy-commit-');
  });

  it("are removed for a dead owner, its own alone; a live owner's are kept", () => {
    // PID 2**22 + 1 is above Linux's pid_max and macOS's: no process has it.
    const dead = { pid: 4_194_305, startTime: 1 };
    const deadOnes = [folder(ownedTempPrefix('commit', { [OWNER_MARKER_VAR]: '4194305-1' })), folder(ownedTempPrefix('commit', { [OWNER_MARKER_VAR]: '4194305-1' }))];
    const anotherStart = folder(ownedTempPrefix('commit', { [OWNER_MARKER_VAR]: '4194305-12' }));
    const unowned = folder(ownedTempPrefix('commit', {}));
    const self = { pid: process.pid, ...(processStartTime(process.pid) === undefined ? {} : { startTime: processStartTime(process.pid) }) };
    const live = folder(ownedTempPrefix('commit', { [OWNER_MARKER_VAR]: `${self.pid}-${self.startTime ?? 'x'}` }));

    expect(removeOwnedTempDirs(dead, 'commit')).toBe(2);
    expect(deadOnes.filter(existsSync)).toEqual([]);
    expect([anotherStart, unowned].every(existsSync)).toBe(true);
    expect(removeOwnedTempDirs(self, 'commit')).toBe(0);
    expect(existsSync(live)).toBe(true);
  });
});
