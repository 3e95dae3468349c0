/**
 * A block of lines kept at the bottom of the terminal while other output scrolls above it, with
 * plain ANSI: after drawing, the cursor sits at the end of the block's last line; to print above
 * it, go back to the block's first row, clear to the end of the screen, write the new lines, and
 * draw the block again below them. Each update is one write, so a frame never shows half drawn.
 */
import { visibleWidth } from './terminal-width.js';

const ESC = '\x1b[';
export const HIDE_CURSOR = `${ESC}?25l`;
export const SHOW_CURSOR = `${ESC}?25h`;
const CLEAR_TO_END = `${ESC}J`;

export class PinnedArea {
  /** The block as drawn, to know how many rows to go back up. */
  private drawn: string[] = [];
  private cursorHidden = false;

  constructor(
    private readonly write: (text: string) => void,
    private readonly columns: () => number,
  ) {}

  /** Prints `above` (complete lines) over the block, then draws `block` under them. */
  update(above: readonly string[], block: readonly string[]): void {
    let out = this.erase();
    if (!this.cursorHidden && block.length > 0) {
      out = HIDE_CURSOR + out;
      this.cursorHidden = true;
    }
    for (const line of above) out += `${line}\n`;
    out += block.join('\n');
    this.drawn = [...block];
    if (out !== '') this.write(out);
  }

  /** Removes the block and gives the cursor back; the screen is left as if it never existed. */
  clear(): void {
    const out = this.erase() + (this.cursorHidden ? SHOW_CURSOR : '');
    this.drawn = [];
    this.cursorHidden = false;
    if (out !== '') this.write(out);
  }

  get isDrawn(): boolean {
    return this.drawn.length > 0;
  }

  /** Back to the block's first row and clear from there. */
  private erase(): string {
    if (this.drawn.length === 0) return '';
    return `\r${upBy(this.rowsDrawn() - 1)}${CLEAR_TO_END}`;
  }

  /**
   * Rows the block takes now. Lines are cut to fit when drawn, but after the terminal narrowed a
   * reflowing terminal shows each on several rows; counting with today's width covers that.
   */
  private rowsDrawn(): number {
    const cols = Math.max(1, this.columns());
    return this.drawn.reduce((rows, line) => rows + Math.max(1, Math.ceil(visibleWidth(line) / cols)), 0);
  }
}

function upBy(rows: number): string {
  return rows > 0 ? `${ESC}${rows}A` : '';
}
