/** The one writer of a session's log file names: the session runner writes them, `debussy logs` finds them. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sessionLogBase, sessionLogPaths } from '../../src/agent/session-logs.js';

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
