/**
 * One timestamped line per event, no cursor movement: the output for CI logs, pipes and --plain.
 */
import type { AgentEvent } from '../agent/index.js';
import type { ContextSnapshot } from '../context/index.js';
import type { JournalEvent, RunState } from '../state/index.js';
import { describeAgentEvent, describeJournalEvent } from './describe-event.js';
import type { Reporter, RunStartInfo } from './reporter.js';
import { renderRunSummary } from './run-summary.js';

export class PlainReporter implements Reporter {
  constructor(
    private readonly write: (text: string) => void,
    private readonly options: { verbose: boolean; timestamps: boolean },
  ) {}

  private line(text: string): void {
    const stamp = this.options.timestamps ? `${new Date().toISOString().slice(11, 19)} ` : '';
    this.write(`${stamp}${text}\n`);
  }

  runStarted(info: RunStartInfo): void {
    for (const done of info.alreadyComplete) this.line(`phase ${done.id} already complete (${done.why}): skipped`);
    this.line(`running ${info.phases.length} phase(s) of ${info.plan.name}: ${info.phases.map((p) => p.id).join(', ') || '(none)'}; context threshold ${info.contextThreshold}%, max restarts ${info.maxRestarts}`);
  }

  journal(event: JournalEvent): void {
    const described = describeJournalEvent(event);
    if (described) this.line(described.level === 'info' ? described.text : `${described.level}: ${described.text}`);
  }

  agent(phaseId: string, event: AgentEvent, context: ContextSnapshot): void {
    const text = describeAgentEvent(event, this.options.verbose);
    if (text === undefined) return;
    const gauge = context.contextWindow ? ` [ctx ${context.percent.toFixed(0)}%]` : '';
    this.line(`  ${phaseId}${gauge} ${text}`);
  }

  notice(level: 'info' | 'warning' | 'error', message: string): void {
    this.line(level === 'info' ? message : `${level}: ${message}`);
  }

  runFinished(state: RunState, resumeCommand: string | undefined): void {
    this.write(`\n${renderRunSummary(state)}\n`);
    if (resumeCommand) this.write(`To resume: ${resumeCommand}\n`);
  }
}
