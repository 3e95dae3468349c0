/**
 * File sizes in config and flags: `5MB`, `500KB`, `1.5GB`, `512k`, or a bare number of bytes. A
 * kilobyte is 1,024 bytes, as in git's own settings (`core.bigFileThreshold`); `KiB`/`MiB`/`GiB`
 * read the same. Pure.
 */

const UNITS: Record<string, number> = { '': 1, b: 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

/** The number of bytes `raw` says, or undefined when it is not a size. */
export function parseSize(raw: unknown): number | undefined {
  if (typeof raw === 'number') return Number.isInteger(raw) && raw >= 0 ? raw : undefined;
  if (typeof raw !== 'string') return undefined;
  const match = /^\s*(\d+(?:\.\d+)?)\s*(?:([kmg])(?:i?b)?|(b))?\s*$/i.exec(raw);
  if (!match) return undefined;
  const factor = UNITS[(match[2] ?? match[3] ?? '').toLowerCase()];
  return factor === undefined ? undefined : Math.round(Number(match[1]) * factor);
}

/** A size as the config file writes it: 5MB, 512KB, 1GB, or bytes when no unit divides it. */
export function formatConfigSize(bytes: number): string {
  for (const [unit, factor] of [['GB', 1024 ** 3], ['MB', 1024 ** 2], ['KB', 1024]] as const) {
    if (bytes >= factor && bytes % factor === 0) return `${bytes / factor}${unit}`;
  }
  return String(bytes);
}

/** A size for people, to a tenth: 2 GB, 300 MB, 2.5 KB, 17 B. */
export function formatSize(bytes: number): string {
  for (const [unit, factor] of [['GB', 1024 ** 3], ['MB', 1024 ** 2], ['KB', 1024]] as const) {
    // Rounded first: 1,048,575 bytes read 1 MB, not 1024 KB.
    const shown = (bytes / factor).toFixed(1);
    if (Number(shown) >= 1) return `${shown.replace(/\.0$/, '')} ${unit}`;
  }
  return `${bytes} B`;
}
