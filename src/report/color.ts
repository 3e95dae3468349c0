/**
 * Whether to colour, and the few colours the reporters use. Only SGR sequences (colour, bold, dim)
 * come from here; cursor movement lives in pinned-area.ts and only the live view uses it.
 */

type Env = Readonly<Record<string, string | undefined>>;

/**
 * FORCE_COLOR decides when set (as in Node itself: `0` or `false` turn colour off, anything else,
 * even empty, turns it on, TTY or not); otherwise a non-empty NO_COLOR turns it off
 * (https://no-color.org); otherwise a TTY that is not TERM=dumb gets colour.
 */
export function colorEnabled(env: Env, isTTY: boolean): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.TERM === 'dumb') return false;
  return isTTY;
}

export type Paint = (text: string) => string;

/** Plain functions (not methods), so `colors.red` can be passed around on its own. */
export interface Colors {
  readonly enabled: boolean;
  readonly red: Paint;
  readonly green: Paint;
  readonly yellow: Paint;
  readonly cyan: Paint;
  readonly dim: Paint;
  readonly bold: Paint;
}

const sgr = (open: number, close: number) => (text: string) => (text === '' ? '' : `\x1b[${open}m${text}\x1b[${close}m`);
const same = (text: string) => text;

export function createColors(enabled: boolean): Colors {
  if (!enabled) return { enabled, red: same, green: same, yellow: same, cyan: same, dim: same, bold: same };
  return { enabled, red: sgr(31, 39), green: sgr(32, 39), yellow: sgr(33, 39), cyan: sgr(36, 39), dim: sgr(2, 22), bold: sgr(1, 22) };
}

export const NO_COLORS: Colors = createColors(false);

/** Colours a line by how much it matters. */
export function paintLevel(colors: Colors, level: 'info' | 'warning' | 'error', text: string): string {
  return level === 'error' ? colors.red(text) : level === 'warning' ? colors.yellow(text) : text;
}
