/**
 * The ps process table, for systems without /proc (macOS, the BSDs) or when forced. Each question
 * is one `ps` run (a few milliseconds), so callers batch: `readMany` asks about all their PIDs at
 * once. The environment of a process is shown to its own user (and root), which is all a marker
 * search needs: debussy's children run as the user who started it.
 */
import { execFileSync } from 'node:child_process';
import { PS_COLUMNS, carriesMarker, parsePsTable, type PsRow } from './ps-output.js';
import type { ListedProcess, ProcessEntry, ProcessMarker, ProcessTable } from './process-entry.js';
import { startedAtOrAfter } from './start-clock.js';

/** Show the environment after the command: procps takes BSD `e`, macOS `-E`, the BSDs `-e`. */
function environmentFlags(platform: NodeJS.Platform): string[] {
  if (platform === 'linux') return ['eww'];
  if (platform === 'darwin') return ['-E', '-ww'];
  return ['-e', '-ww'];
}

/** ps's output, or undefined when ps cannot be run at all. ps exits 1 when no PID matched. */
function runPs(args: string[]): string | undefined {
  try {
    return execFileSync('ps', args, {
      encoding: 'utf8',
      env: { ...process.env, LC_ALL: 'C', TZ: 'UTC0' },
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: 256 * 1024 * 1024,
    });
  } catch (error) {
    const stdout = (error as { stdout?: unknown }).stdout;
    return typeof stdout === 'string' && (error as { status?: unknown }).status === 1 ? stdout : undefined;
  }
}

function validPids(pids: readonly number[]): number[] {
  return [...new Set(pids)].filter((pid) => Number.isSafeInteger(pid) && pid > 0);
}

/**
 * Rows of ps, or undefined unless they include this very process: a ps that runs but does not
 * understand the arguments (an unknown system) must read as "cannot tell", never as "all gone".
 */
function readPs(args: string[]): PsRow[] | undefined {
  const output = runPs(args);
  if (output === undefined) return undefined;
  const rows = parsePsTable(output);
  return rows.some((row) => row.pid === process.pid) ? rows : undefined;
}

export const psTable: ProcessTable = {
  backend: 'ps',

  readMany(pids) {
    const wanted = validPids(pids);
    if (wanted.length === 0) return new Map();
    const rows = readPs(['-p', [...new Set([...wanted, process.pid])].join(','), '-o', PS_COLUMNS]);
    if (rows === undefined) return undefined;
    const found = new Map<number, ProcessEntry>();
    for (const { command: _command, ...entry } of rows) if (wanted.includes(entry.pid)) found.set(entry.pid, entry);
    return found;
  },

  list(marker?: ProcessMarker): ListedProcess[] {
    const args = marker === undefined ? ['-A', '-o', PS_COLUMNS] : ['-A', ...environmentFlags(process.platform), '-o', `${PS_COLUMNS},command=`];
    return (readPs(args) ?? [])
      .filter((row) => !row.exited)
      .map(({ command, ...entry }) => ({ ...entry, marked: marker !== undefined && startedAtOrAfter(entry.startTime, marker.rootStartTime) && carriesMarker(command, marker) }));
  },
};
