/**
 * The ps parsers, on output captured from procps-ng 4.0.2 here (LC_ALL=C TZ=UTC0 ps -A eww -o
 * pid=,ppid=,pgid=,stat=,lstart=,command=, of processes started with a scrubbed environment) and on
 * a macOS sample written from BSD ps's documented format (ps -A -E -ww, same columns).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { carriesMarker, parseLstart, parsePsRow, parsePsTable } from '../../src/process/ps-output.js';

const fixture = (name: string) => readFileSync(path.join(import.meta.dirname, '..', 'fixtures', 'ps', name), 'utf8');
const at = (...parts: [number, number, number, number, number, number]) => Date.UTC(...parts);

describe('parseLstart', () => {
  it.each([
    ['Mon Nov 23 20:14:05 2026', at(2026, 10, 23, 20, 14, 5)],
    ['Tue Nov  3 08:01:12 2026', at(2026, 10, 3, 8, 1, 12)],
    ['Thu Jan  1 00:00:00 1970', 0],
    ['Sat Feb 29 23:59:59 2028', at(2028, 1, 29, 23, 59, 59)],
    ['  Fri Dec 31 12:00:00 2027  ', at(2027, 11, 31, 12, 0, 0)],
  ])('%j is %d', (text, expected) => {
    expect(parseLstart(text)).toBe(expected);
  });

  it.each(['', 'Mon Foo 23 20:14:05 2026', '20:14:05', 'Mon Nov 23 2026', 'lun. nov. 23 20:14:05 2026', '3-04:05:06'])('rejects %j', (text) => {
    expect(parseLstart(text)).toBeUndefined();
  });
});

describe('parsePsRow', () => {
  it.each([
    ['    1     0     0 SLl  Mon Nov 23 20:14:15 2026', { pid: 1, ppid: 0, pgid: 0, exited: false, command: '' }],
    [' 8183  8181  8183 Ss   Mon Nov 23 21:17:42 2026 sleep 378 HOME=/home/dev', { pid: 8183, ppid: 8181, pgid: 8183, exited: false, command: 'sleep 378 HOME=/home/dev' }],
    [' 9063  9061  9061 Z    Mon Nov 23 20:14:31 2026 (sleep)', { pid: 9063, pgid: 9061, exited: true, command: '(sleep)' }],
    ['  700     1   700 Zs   Mon Nov 23 20:14:31 2026 [sh] <defunct>', { pid: 700, exited: true }],
    ['  701     1   701 X    Mon Nov 23 20:14:31 2026', { pid: 701, exited: true }],
    ['  702     1   702 R+   Mon Nov 23 20:14:31 2026 a  b   c', { pid: 702, exited: false, command: 'a  b   c' }],
  ])('%j', (line, expected) => {
    expect(parsePsRow(line)).toMatchObject(expected);
  });

  it.each(['', '  PID  PPID  PGID STAT                  STARTED', 'garbage', '12 34 56 S', '12 34 56 S Mon Nov 23 2026'])('ignores %j', (line) => {
    expect(parsePsRow(line)).toBeUndefined();
  });
});

describe('parsePsTable', () => {
  it('reads procps output captured on Linux', () => {
    const rows = parsePsTable(fixture('procps-linux.txt'));
    expect(rows.map((r) => [r.pid, r.ppid, r.pgid, r.exited])).toEqual([
      [1, 0, 0, false], [2, 0, 0, false], [4, 2, 0, false], [8181, 8179, 8177, false], [8182, 8181, 8177, false], [8183, 8181, 8183, false],
    ]);
    expect(rows[3]?.startTime).toBe(at(2026, 10, 23, 21, 17, 42));
    expect(rows[4]?.command).toBe('sleep 377 HOME=/home/dev DEBUSSY_SESSION_MARKER=4f1c0b2e-77aa-4d38-9a51-0c9e2f7d1b63 PATH=/usr/bin:/bin PWD=/tmp');
  });

  it('reads the BSD (macOS) format: padded day, application paths with spaces, a zombie', () => {
    const rows = parsePsTable(fixture('bsd-macos.txt'));
    expect(rows.map((r) => [r.pid, r.ppid, r.pgid, r.exited])).toEqual([
      [1, 0, 1, false], [612, 1, 612, false], [9021, 9020, 9021, false], [9044, 9021, 9044, false], [9050, 9044, 9050, false], [9061, 9050, 9061, false], [9063, 9061, 9061, true],
    ]);
    expect(rows[0]?.startTime).toBe(at(2026, 10, 3, 8, 1, 12));
    expect(rows[1]?.command).toBe('/Applications/Visual Studio Code.app/Contents/MacOS/Electron');
    // debussy's owner marker carries its own start time in the ps clock.
    expect(rows[3]?.command).toContain(`DEBUSSY_OWNER=9044-${rows[3]?.startTime}`);
  });
});

describe('carriesMarker', () => {
  const marker = { name: 'DEBUSSY_SESSION_MARKER', value: '4f1c0b2e-77aa-4d38-9a51-0c9e2f7d1b63' };
  it('finds the marker among the environment words of every captured process that has it', () => {
    const rows = parsePsTable(fixture('procps-linux.txt'));
    expect(rows.filter((r) => carriesMarker(r.command, marker)).map((r) => r.pid)).toEqual([8181, 8182, 8183]);
  });

  it.each([
    ['sleep 1 DEBUSSY_SESSION_MARKER=b9e0', { name: 'DEBUSSY_SESSION_MARKER', value: 'b9e0' }, true],
    ['sleep 1 DEBUSSY_SESSION_MARKER=b9e0 USER=dev', { name: 'DEBUSSY_SESSION_MARKER', value: 'b9e0' }, true],
    ['sleep 1 DEBUSSY_SESSION_MARKER=b9e01 USER=dev', { name: 'DEBUSSY_SESSION_MARKER', value: 'b9e0' }, false],
    ['sleep 1 XDEBUSSY_SESSION_MARKER=b9e0', { name: 'DEBUSSY_SESSION_MARKER', value: 'b9e0' }, false],
    ['sleep 1 DEBUSSY_SESSION_MARKER=other', { name: 'DEBUSSY_SESSION_MARKER', value: 'b9e0' }, false],
    ['sleep 1 DEBUSSY_OWNER=9044-1795464849000 USER=dev', { name: 'DEBUSSY_OWNER', value: '9044-', prefix: true }, true],
    ['sleep 1 DEBUSSY_OWNER=19044-1795464849000', { name: 'DEBUSSY_OWNER', value: '9044-', prefix: true }, false],
    ['', { name: 'DEBUSSY_OWNER', value: '9044-', prefix: true }, false],
  ])('%j with %j: %s', (line, m, expected) => {
    expect(carriesMarker(line, m)).toBe(expected);
  });
});
