/**
 * The TTY view: the agent's activity and the run's events scroll, one line per step, above a
 * status area pinned at the bottom (plan, phase, attempt, restarts, elapsed, context gauge, tool
 * calls, cost). The area is redrawn on every event and once a second for the clock. Nothing here
 * may throw into the run: every hook is guarded, and close() always gives the terminal back.
 */
import type { AgentEvent } from '../agent/index.js';
import type { ContextSnapshot } from '../context/index.js';
import type { JournalEvent, RunState } from '../state/index.js';
import { paintLevel, type Colors } from './color.js';
import { describeAgentEvent, describeJournalEvent, type AgentLine } from './describe-event.js';
import { clockTime } from './format-units.js';
import { applyAgentEvent, applyJournalEvent, applyRunStart, INITIAL_LIVE_STATE, type LiveState } from './live-state.js';
import { PinnedArea, SHOW_CURSOR } from './pinned-area.js';
import type { Reporter, RunStartInfo } from './reporter.js';
import { renderRunSummary, resumeLine } from './run-summary.js';
import { renderStatusArea } from './status-area.js';
import { inertLine, inertText } from '../text/inert-text.js';
import { truncateToWidth, visibleWidth } from './terminal-width.js';
import { interceptWrites, type InterceptableStream } from './write-interceptor.js';

/** What the live view needs of a terminal; process.stdout fits. */
export interface LiveTerminal {
  write(text: string): unknown;
  columns?: number;
  rows?: number;
  on(event: 'resize', listener: () => void): unknown;
  off(event: 'resize', listener: () => void): unknown;
}

export interface LiveReporterOptions {
  colors: Colors;
  /** Another stream showing on the same screen (stderr on a TTY): its writes go above the area. */
  sharedScreen?: InterceptableStream;
  unicode: boolean;
  verbose: boolean;
  /** Clock redraw interval; 0 turns the timer off (tests). */
  tickMs?: number;
  now?: () => number;
}

const DEFAULT_COLUMNS = 80;

export class LiveReporter implements Reporter {
  private state: LiveState = INITIAL_LIVE_STATE;
  private readonly area: PinnedArea;
  private readonly now: () => number;
  private timer: NodeJS.Timeout | undefined;
  private spinnerFrame = 0;
  private closed = false;
  private restoreShared: (() => void) | undefined;
  private readonly onResize = () => this.guard(() => this.redraw([]));
  // If the process ends without close() (a crash), the cursor must not stay hidden.
  private readonly onExit = () => this.guard(() => void this.terminal.write(SHOW_CURSOR));

  constructor(
    private readonly terminal: LiveTerminal,
    private readonly options: LiveReporterOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.area = new PinnedArea((text) => void this.terminal.write(text), () => this.columns());
    this.terminal.on('resize', this.onResize);
    process.once('exit', this.onExit);
    if (options.sharedScreen) this.restoreShared = interceptWrites(options.sharedScreen, (text, passThrough) => this.writeAbove(text, passThrough));
    const tickMs = options.tickMs ?? 1000;
    if (tickMs > 0) {
      this.timer = setInterval(() => this.guard(() => this.tick()), tickMs);
      this.timer.unref();
    }
  }

  /** The status area as it would be drawn now (for tests and for the redraw). */
  frame(): string[] {
    return renderStatusArea(this.state, {
      now: this.now(), width: this.columns(), ...(this.terminal.rows ? { height: this.terminal.rows } : {}),
      colors: this.options.colors, unicode: this.options.unicode, spinnerFrame: this.spinnerFrame,
    });
  }

  runStarted(info: RunStartInfo): void {
    this.guard(() => {
      this.state = applyRunStart(this.state, info);
      const lines = info.alreadyComplete.map((done) => this.options.colors.dim(`phase ${done.id} already complete (${inertLine(done.why)}): skipped`));
      lines.push(`running ${info.phases.length} phase(s) of ${inertLine(info.plan.name)}: ${info.phases.map((p) => p.id).join(', ') || '(none)'}; context threshold ${info.contextThreshold}%, max restarts ${info.maxRestarts}`);
      this.redraw(lines);
    });
  }

  journal(event: JournalEvent): void {
    this.guard(() => {
      this.state = applyJournalEvent(this.state, event, this.now());
      const line = describeJournalEvent(event);
      this.redraw(line ? [this.stamped(paintLevel(this.options.colors, line.level, line.text))] : []);
    });
  }

  agent(phaseId: string, event: AgentEvent, context: ContextSnapshot): void {
    this.guard(() => {
      this.state = applyAgentEvent(this.state, event, context, phaseId);
      const line = describeAgentEvent(event, this.options.verbose);
      this.redraw(line ? this.agentLines(phaseId, line) : []);
    });
  }

  notice(level: 'info' | 'warning' | 'error', message: string): void {
    this.guard(() => this.redraw(inertText(message).split('\n').map((text) => this.stamped(paintLevel(this.options.colors, level, text)))));
  }

  runFinished(state: RunState, resumeCommand: string | undefined): void {
    this.guard(() => {
      this.stopTimer();
      this.area.clear();
      const resume = resumeLine(resumeCommand);
      this.terminal.write(`\n${renderRunSummary(state, this.options.colors)}\n${resume ? `${this.options.colors.bold(resume)}\n` : ''}`);
    });
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.stopTimer();
    this.guard(() => this.terminal.off('resize', this.onResize));
    process.off('exit', this.onExit);
    this.restoreShared?.();
    this.guard(() => this.area.clear());
  }

  /** Text from the shared stream: the area is lifted, the text written, the area drawn again below. */
  private writeAbove(text: string, passThrough: (text: string) => void): void {
    if (this.closed || !this.area.isDrawn) return passThrough(text);
    this.guard(() => this.area.update([], []));
    passThrough(text.endsWith('\n') ? text : `${text}\n`);
    this.guard(() => this.redraw([]));
  }

  private tick(): void {
    if (this.state.sessionLive) this.spinnerFrame += 1;
    this.redraw([]);
  }

  private redraw(above: string[]): void {
    if (this.closed) {
      // After close only plain lines, never the area again.
      for (const line of above) this.terminal.write(`${line}\n`);
      return;
    }
    const width = this.columns() - 1;
    // Condensed lines are cut so each takes one row; verbose text may wrap, it scrolls away.
    const fitted = this.options.verbose ? above : above.map((line) => truncateToWidth(line, width));
    this.area.update(fitted, this.frame());
  }

  private agentLines(phaseId: string, line: AgentLine): string[] {
    const { colors } = this.options;
    const paint = line.tone === 'error' ? colors.red : line.tone === 'warning' ? colors.yellow : line.tone === 'text' ? colors.dim : (s: string) => s;
    const [first = '', ...rest] = line.text.split('\n');
    const prefix = `  ${colors.cyan(phaseId)} ${this.options.unicode ? '›' : '>'} `;
    return [`${prefix}${paint(first)}`, ...rest.map((more) => `  ${' '.repeat(visibleWidth(phaseId))}   ${paint(more)}`)];
  }

  private stamped(text: string): string {
    return `${this.options.colors.dim(clockTime(this.now()))} ${text}`;
  }

  private columns(): number {
    const columns = this.terminal.columns;
    return typeof columns === 'number' && columns > 0 ? columns : DEFAULT_COLUMNS;
  }

  private stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private guard(action: () => void): void {
    try {
      action();
    } catch {
      // The view is a convenience: a broken terminal must never stop the run.
    }
  }
}
