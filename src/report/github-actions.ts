/**
 * Under GitHub Actions the plain log gains a collapsible group per phase and annotations for what
 * needs a look (failures, blocked phases, restarts, threshold crossings, failed commits). Wraps the
 * plain reporter so a group opens before a phase's first line and closes after its last.
 * Workflow command syntax: https://docs.github.com/actions/reference/workflow-commands-for-github-actions
 */
import type { AgentEvent } from '../agent/index.js';
import type { ContextSnapshot } from '../context/index.js';
import type { JournalEvent, RunState } from '../state/index.js';
import type { Reporter, RunStartInfo } from './reporter.js';
import { inertLine, inertText } from '../text/inert-text.js';
import { crossingLine } from './describe-event.js';
import { planChangeLines } from '../verification/plan-change.js';

/** A command's message: `%`, CR and LF are escaped so the message stays on its line. */
export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** A command's property value: as data, plus `:` and `,` which end a property. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** A workflow command; its property values and message may quote the plan or the agent: inert, then escaped. */
export function workflowCommand(command: string, properties: Record<string, string | undefined>, message: string): string {
  const props = Object.entries(properties)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([key, value]) => `${key}=${escapeProperty(inertLine(value))}`)
    .join(',');
  return `::${command}${props === '' ? '' : ` ${props}`}::${escapeData(inertText(message))}\n`;
}

export type Annotation = { level: 'error' | 'warning'; title: string; message: string };

/** The annotation a journal event deserves, if any. Pure. */
export function annotationFor(event: JournalEvent): Annotation | undefined {
  switch (event.type) {
    case 'phase_ended':
      if (event.status === 'failed' || event.status === 'blocked') {
        return { level: 'error', title: `Phase ${event.phaseId} ${event.status}`, message: event.reason ?? `phase ${event.phaseId} ${event.status}` };
      }
      return undefined;
    case 'run_ended':
      if (event.status === 'completed') return undefined;
      return {
        level: event.status === 'interrupted' ? 'warning' : 'error',
        title: `debussy run ${event.status}`,
        message: `${event.reason ?? `run ${event.status}`} (exit ${event.exitCode})`,
      };
    case 'restart':
      return { level: 'warning', title: `Phase ${event.phaseId} restarted (${event.restart}/${event.maxRestarts})`, message: `restarted from a checkpoint: ${event.reason}` };
    case 'context_crossed':
      return {
        level: 'warning',
        title: `Phase ${event.phaseId} crossed the ${event.trigger === 'context' ? 'context' : 'tool-call'} threshold`,
        message: crossingLine(event),
      };
    case 'commit_failed':
      return { level: 'warning', title: `Phase ${event.phaseId} commit failed`, message: event.message };
    case 'regression_result':
      if (event.passed) return undefined;
      return {
        level: 'error',
        title: `Regression: gate ${event.name} of phase ${event.phaseId}`,
        message: `fails ${event.afterPhaseId === undefined ? 'at the end of the run' : `after phase ${event.afterPhaseId}`} (exit ${event.exitCode ?? 'none'}): ${event.command}`,
      };
    case 'plan_changed':
      return { level: 'warning', title: `The plan changed since run ${event.sinceRunId}`, message: planChangeLines(event.changes, event.reverify, event.kept).join('; ') };
    default:
      return undefined;
  }
}

export class GitHubActionsReporter implements Reporter {
  private openGroup: string | undefined;

  constructor(
    private readonly write: (text: string) => void,
    private readonly inner: Reporter,
  ) {}

  runStarted(info: RunStartInfo): void {
    this.inner.runStarted?.(info);
  }

  journal(event: JournalEvent): void {
    if (event.type === 'phase_started') {
      this.endGroup();
      this.openGroup = event.phaseId;
      this.write(`::group::${escapeData(`Phase ${event.phaseId}: ${inertLine(event.title)}`)}\n`);
    }
    this.inner.journal?.(event);
    if (event.type === 'phase_ended' && this.openGroup === event.phaseId) this.endGroup();
    if (event.type === 'run_ended') this.endGroup();
    const annotation = annotationFor(event);
    if (annotation) this.write(workflowCommand(annotation.level, { title: annotation.title }, annotation.message));
  }

  agent(phaseId: string, event: AgentEvent, context: ContextSnapshot): void {
    this.inner.agent?.(phaseId, event, context);
  }

  notice(level: 'info' | 'warning' | 'error', message: string): void {
    this.inner.notice?.(level, message);
  }

  runFinished(state: RunState, resumeCommand: string | undefined): void {
    this.endGroup();
    this.inner.runFinished?.(state, resumeCommand);
  }

  close(): void {
    this.endGroup();
    this.inner.close?.();
  }

  private endGroup(): void {
    if (this.openGroup === undefined) return;
    this.openGroup = undefined;
    this.write('::endgroup::\n');
  }
}
