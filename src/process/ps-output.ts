/**
 * Reading what `ps` prints, as pure functions. debussy asks for `pid ppid pgid stat lstart`
 * (and, for a marker search, the command followed by its environment), with LC_ALL=C and TZ=UTC0
 * so `lstart` reads the same on procps (Linux) and BSD ps (macOS): "Mon Nov 23 20:14:05 2026",
 * the day padded with a space below 10. The parsed start time is Unix epoch milliseconds, whole
 * seconds: the resolution ps gives.
 */
import type { ListedProcess, ProcessMarker } from './process-entry.js';

/** The columns asked of ps, in this order; `lstart` is five words, so it is the last fixed one. */
export const PS_COLUMNS = 'pid=,ppid=,pgid=,stat=,lstart=';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const LSTART = /^[A-Z][a-z]{2}\s+([A-Z][a-z]{2})\s+(\d{1,2})\s+(\d{2}):(\d{2}):(\d{2})\s+(\d{4})$/;
const ROW = /^\s*(\d+)\s+(\d+)\s+(-?\d+)\s+(\S+)\s+([A-Z][a-z]{2}\s+[A-Z][a-z]{2}\s+\d{1,2}\s+\d{2}:\d{2}:\d{2}\s+\d{4})(?:\s(.*))?$/;

/** `lstart` printed in UTC, as epoch milliseconds; undefined when it is not that format. */
export function parseLstart(text: string): number | undefined {
  const match = LSTART.exec(text.trim());
  if (!match) return undefined;
  const [, month, day, hours, minutes, seconds, year] = match;
  const monthIndex = MONTHS.indexOf(month ?? '');
  if (monthIndex === -1) return undefined;
  const ms = Date.UTC(Number(year), monthIndex, Number(day), Number(hours), Number(minutes), Number(seconds));
  return Number.isSafeInteger(ms) ? ms : undefined;
}

export interface PsRow extends Omit<ListedProcess, 'marked'> {
  /** The command and, when asked for, its environment after it (words separated by spaces). */
  command: string;
}

/** One line of ps output; undefined for a header, a blank line or anything not in our format. */
export function parsePsRow(line: string): PsRow | undefined {
  const match = ROW.exec(line);
  if (!match) return undefined;
  const [, pid, ppid, pgid, stat, lstart, command] = match;
  const startTime = parseLstart(lstart ?? '');
  if (startTime === undefined) return undefined;
  // `stat` starts with the state letter on procps and BSD ps alike: Z zombie, X dead (Linux).
  const exited = stat?.startsWith('Z') === true || stat?.startsWith('X') === true;
  return { pid: Number(pid), ppid: Number(ppid), pgid: Number(pgid), startTime, exited, command: command ?? '' };
}

export function parsePsTable(text: string): PsRow[] {
  const rows: PsRow[] = [];
  for (const line of text.split('\n')) {
    const row = parsePsRow(line);
    if (row !== undefined) rows.push(row);
  }
  return rows;
}

/**
 * Whether `NAME=value` stands as a word of a command-and-environment line. ps prints the
 * environment unquoted, space separated, after the arguments; a marker value has no spaces.
 */
export function carriesMarker(commandAndEnvironment: string, marker: ProcessMarker): boolean {
  const needle = `${marker.name}=${marker.value}`;
  for (let at = commandAndEnvironment.indexOf(needle); at !== -1; at = commandAndEnvironment.indexOf(needle, at + 1)) {
    const before = at === 0 ? ' ' : commandAndEnvironment[at - 1];
    const after = commandAndEnvironment[at + needle.length];
    if (before !== ' ' && before !== '\t') continue;
    if (marker.prefix === true || after === undefined || after === ' ' || after === '\t') return true;
  }
  return false;
}
