/** One human line per journal event or agent step. Pure, shared by every text reporter. */
import type { AgentEvent } from '../agent/index.js';
import { compactionFigures, describeCompaction } from '../agent/describe-compaction.js';
import { TOOL_OUTPUT_SHOWN_CHARS } from './display-event.js';
import { describeCrossing } from '../context/context-figures.js';
import type { ContextCrossedEvent, JournalEvent } from '../state/index.js';
import { formatPercent, plural } from './format-units.js';
import { planChangeLines } from '../verification/plan-change.js';
import { cutText } from '../redact/index.js';
import { formatCount } from '../text/format-count.js';
import { inertLine, inertText } from '../text/inert-text.js';


/** A crossing and what debussy does about it: every reporter's words for a context_crossed event. */
export function crossingLine(event: ContextCrossedEvent): string {
  return `${describeCrossing(event)}${event.stopping ? ': stopping the session' : ' (one-shot mode: running on)'}`;
}

export interface JournalLine {
  level: 'info' | 'warning' | 'error';
  text: string;
}

/** --parallel: where a phase runs and what became of its merge. */
function branchLine(event: Extract<JournalEvent, { type: 'phase_branch' }>): JournalLine {
  const files = event.files === undefined || event.files.length === 0 ? '' : `: ${event.files.join(', ')}`;
  switch (event.stage) {
    case 'worktree':
      return { level: 'info', text: `phase ${event.phaseId}: runs in its worktree on branch ${event.branch}` };
    case 'merged':
      return { level: 'info', text: `phase ${event.phaseId}: branch ${event.branch} merged into the run's branch` };
    case 'conflict':
      return { level: 'warning', text: `phase ${event.phaseId}: ${event.reason ?? 'the merge failed'}${files}; the merge is aborted and the phase gets a merge remediation` };
    case 'merge_failed':
      return { level: 'error', text: `phase ${event.phaseId}: ${event.reason ?? 'the merge failed'}${files}` };
  }
}

/** One line per journal event worth showing; the text is free of escape sequences. */
export function describeJournalEvent(event: JournalEvent): JournalLine | undefined {
  const line = journalLine(event);
  return line === undefined ? undefined : { level: line.level, text: inertText(line.text).replace(/\n+/g, ' ') };
}

function journalLine(event: JournalEvent): JournalLine | undefined {
  switch (event.type) {
    case 'run_started':
      return { level: 'info', text: `run ${event.runId} started: ${event.planName} (${event.phaseIds.length} phases)${event.resumedFrom ? `, resuming run ${event.resumedFrom}` : ''}` };
    case 'phase_started':
      return { level: 'info', text: `phase ${event.phaseId} started: ${event.title}` };
    case 'phase_branch':
      return branchLine(event);
    case 'phase_job':
      return event.stage === 'queued'
        ? { level: 'info', text: `phase ${event.phaseId}: queued as job ${event.jobId}` }
        : { level: 'info', text: `phase ${event.phaseId}: job ${event.jobId} ended ${event.status ?? ''} on worker ${event.worker ?? '?'}, branch at ${(event.commitSha ?? '').slice(0, 10)}` };
    case 'phase_resumed':
      return { level: 'info', text: `phase ${event.phaseId}: continues run ${event.fromRunId} (${event.progress.length === 1 ? '1 progress entry' : `${event.progress.length} progress entries`} carried over)` };
    case 'attempt_started':
      return event.kind === 'initial' ? undefined : { level: 'info', text: `phase ${event.phaseId}: ${event.kind} session (restarts ${event.restart}, retries ${event.retry})` };
    case 'session_started':
      return { level: 'info', text: `phase ${event.phaseId}: session ${event.sessionIndex} started (${event.agent ?? 'claude'} pid ${event.agentPid})` };
    case 'session_ended':
      return {
        level: event.outcome === 'completed' || event.outcome === 'stopped' ? 'info' : 'warning',
        text: `phase ${event.phaseId}: session ${event.sessionIndex} ended: ${event.outcome}, peak context ${formatPercent(event.peakContextPercent, 1)} (${formatCount(event.peakContextTokens)} tokens), ${plural(event.toolCalls, 'tool call')}${event.message ? `: ${event.message}` : ''}`,
      };
    case 'context_crossed':
      return { level: 'warning', text: `phase ${event.phaseId}: ${crossingLine(event)}` };
    case 'compaction':
      return {
        level: 'warning',
        text: `phase ${event.phaseId}: claude compacted the context of session ${event.sessionIndex}${compactionFigures(event.preTokens, event.postTokens)}${event.stopping ? ': restarting from a checkpoint instead of going on with its summary' : ' (one-shot mode: running on)'}`,
      };
    case 'stop_requested':
      return { level: 'info', text: `phase ${event.phaseId}: stop requested (${event.reason})` };
    case 'commit':
      return { level: 'info', text: `phase ${event.phaseId}: committed ${event.sha.slice(0, 10)} (${event.files} files): ${event.message.split('\n')[0] ?? ''}` };
    case 'commit_failed':
      return { level: 'warning', text: `phase ${event.phaseId}: ${event.message}` };
    case 'restart':
      return { level: 'warning', text: `phase ${event.phaseId}: restart ${event.restart}/${event.maxRestarts} from a checkpoint (${event.reason})` };
    case 'signal':
      return { level: event.status === 'completed' ? 'info' : 'warning', text: `phase ${event.phaseId}: agent signalled ${event.status}${event.reason ? `: ${event.reason}` : ''}` };
    case 'progress':
      return { level: 'info', text: `phase ${event.phaseId}: progress: ${event.message}` };
    case 'gate_result':
      return { level: event.passed ? 'info' : 'warning', text: `phase ${event.phaseId}: gate ${event.name} ${event.passed ? 'passed' : `FAILED (exit ${event.exitCode ?? 'none'}${event.inherited === true ? '; inherited: it failed before the phase started too' : ''})`}: ${event.command}` };
    case 'baseline_result':
      return { level: 'info', text: `phase ${event.phaseId}: ${event.reverify === true ? 're-verification' : 'baseline'}: gate ${event.name} ${event.passed ? 'passes' : `fails (exit ${event.exitCode ?? 'none'})`} before the phase's session: ${event.command}` };
    case 'regression_result':
      return {
        level: event.passed ? 'info' : 'error',
        text: `regression check${event.afterPhaseId === undefined ? ' at the end of the run' : ` after phase ${event.afterPhaseId}`}: gate ${event.name} of phase ${event.phaseId} ${event.passed ? 'passes' : `FAILS (exit ${event.exitCode ?? 'none'})`}: ${event.command}`,
      };
    case 'plan_changed':
      return { level: 'warning', text: `the plan changed since run ${event.sinceRunId}: ${planChangeLines(event.changes, event.reverify, event.kept).join('; ')}` };
    case 'phase_ended':
      if (event.status === 'in_progress') return { level: 'warning', text: `phase ${event.phaseId} interrupted: its work is saved; \`debussy run\` resumes it from a checkpoint` };
      return { level: event.status === 'completed' ? 'info' : 'error', text: `phase ${event.phaseId} ${event.status}${event.reason ? `: ${event.reason}` : ''}` };
    case 'notice':
      return { level: event.level, text: `${event.phaseId ? `phase ${event.phaseId}: ` : ''}${event.message}` };
    case 'run_ended':
      return { level: event.status === 'completed' ? 'info' : 'error', text: `run ${event.status} (exit ${event.exitCode})${event.reason ? `: ${event.reason}` : ''}` };
    default:
      return undefined;
  }
}

/** How an agent line is shown: the model's prose is quieter than its actions; errors stand out. */
export type AgentLineTone = 'text' | 'tool' | 'error' | 'warning';

export interface AgentLine {
  tone: AgentLineTone;
  text: string;
}

const CONDENSED_CHARS = 160;

function condensed(text: string): string {
  // Fold only the start: the line shows 160 characters, and a tool's output can be megabytes
  // (reporters are given at most a few thousand characters of it: display-event.ts).
  return cutText(inertLine(text.slice(0, CONDENSED_CHARS * 8)), CONDENSED_CHARS);
}

/**
 * One line per step of the agent (`verbose`: the full text, possibly several lines). Escape
 * sequences the model or its tools wrote are removed here, so no reporter can pass them on.
 */
export function describeAgentEvent(event: AgentEvent, verbose: boolean): AgentLine | undefined {
  switch (event.type) {
    case 'tool_start':
      return { tone: 'tool', text: inertLine(event.summary) };
    case 'assistant_text': {
      const text = inertText(event.text).trim();
      if (text === '') return undefined;
      return { tone: 'text', text: verbose ? text : condensed(text) };
    }
    case 'tool_result':
      // The whole message folded to one line: the first line alone is often just "Exit code 1".
      if (event.isError) return { tone: 'error', text: `tool error: ${condensed(event.text)}` };
      return verbose ? { tone: 'text', text: inertText(event.text.slice(0, TOOL_OUTPUT_SHOWN_CHARS)).trimEnd() } : undefined;
    case 'api_retry':
      return { tone: 'warning', text: `API retry ${event.attempt}/${event.maxRetries} in ${Math.round(event.delayMs / 1000)} s (status ${event.errorStatus ?? 'none'})` };
    case 'api_error':
      return { tone: 'error', text: `API error ${inertLine(event.errorType)}: ${condensed(event.text)}` };
    case 'compaction':
      return { tone: 'warning', text: describeCompaction(event) };
    case 'model_fallback':
      return { tone: 'warning', text: `model fallback ${inertLine(event.from ?? '?')} -> ${inertLine(event.to ?? '?')}` };
    default:
      return undefined;
  }
}
