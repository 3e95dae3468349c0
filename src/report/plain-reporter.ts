/**
 * One timestamped line per event, no cursor movement: the output for CI logs, pipes and --plain.
 * Colour only when asked for (FORCE_COLOR, or a TTY with --plain); the text itself is stripped of
 * any escape sequence the agent or its tools wrote.
 */
import type { AgentEvent } from '../agent/index.js';
import type { ContextSnapshot } from '../context/index.js';
import type { JournalEvent, RunState } from '../state/index.js';
import { NO_COLORS, paintLevel, type Colors } from './color.js';
import { describeAgentEvent, describeJournalEvent } from './describe-event.js';
import { clockTime } from './format-units.js';
import type { Reporter, RunStartInfo } from './reporter.js';
import { renderRunSummary, resumeLine } from './run-summary.js';
import { inertLine, inertText } from '../text/inert-text.js';

export interface PlainReporterOptions {
  verbose: boolean;
  timestamps: boolean;
  colors?: Colors;
  now?: () => number;
}

export class PlainReporter implements Reporter {
  private readonly colors: Colors;
  private readonly now: () => number;

  constructor(
    private readonly write: (text: string) => void,
    private readonly options: PlainReporterOptions,
  ) {
    this.colors = options.colors ?? NO_COLORS;
    this.now = options.now ?? Date.now;
  }

  /**
   * Every line of a multi-line text after the first is marked with `|`, so no line of the agent's
   * output starts a line of the log (where a CI runner could read it as a command).
   */
  private line(text: string, paint: (s: string) => string = (s) => s): void {
    const stamp = this.options.timestamps ? `${this.colors.dim(clockTime(this.now()))} ` : '';
    const [first = '', ...rest] = text.split('\n');
    const indent = this.options.timestamps ? ' '.repeat(9) : '';
    this.write(`${stamp}${paint(first)}\n${rest.map((more) => `${indent}  | ${paint(more)}\n`).join('')}`);
  }

  runStarted(info: RunStartInfo): void {
    for (const done of info.alreadyComplete) this.line(`phase ${done.id} already complete (${inertLine(done.why)}): skipped`);
    this.line(`running ${info.phases.length} phase(s) of ${inertLine(info.plan.name)}: ${info.phases.map((p) => p.id).join(', ') || '(none)'}; context threshold ${info.contextThreshold}%, max restarts ${info.maxRestarts}`);
  }

  journal(event: JournalEvent): void {
    const described = describeJournalEvent(event);
    if (!described) return;
    const text = described.level === 'info' ? described.text : `${described.level}: ${described.text}`;
    this.line(text, (s) => paintLevel(this.colors, described.level, s));
  }

  agent(phaseId: string, event: AgentEvent, context: ContextSnapshot): void {
    const described = describeAgentEvent(event, this.options.verbose);
    if (described === undefined) return;
    const gauge = context.contextWindow ? ` [ctx ${context.percent.toFixed(0)}%]` : '';
    const paint = described.tone === 'error' ? this.colors.red : described.tone === 'warning' ? this.colors.yellow : (s: string) => s;
    this.line(`  ${phaseId}${gauge} ${described.text}`, paint);
  }

  notice(level: 'info' | 'warning' | 'error', message: string): void {
    const text = inertText(message);
    this.line(level === 'info' ? text : `${level}: ${text}`, (s) => paintLevel(this.colors, level, s));
  }

  runFinished(state: RunState, resumeCommand: string | undefined): void {
    const resume = resumeLine(resumeCommand);
    this.write(`\n${renderRunSummary(state, this.colors)}\n${resume ? `${resume}\n` : ''}`);
  }
}
