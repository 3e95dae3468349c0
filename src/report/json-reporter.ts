/**
 * `--json`: one JSON object per line on stdout and nothing else, for programs that follow a run.
 * Every object has `type` and `ts`; journal events pass through as written to journal.ndjson, the
 * agent's activity is condensed to what a follower needs, and `run_summary` comes last. The
 * schema is documented in docs/output.md.
 */
import { TOOL_OUTPUT_SHOWN_CHARS } from './display-event.js';
import type { AgentEvent } from '../agent/index.js';
import type { ContextSnapshot } from '../context/index.js';
import type { JournalEvent, RunState } from '../state/index.js';
import type { Reporter, RunStartInfo } from './reporter.js';
import { summarizeRun } from './run-summary.js';
import { inertJson } from '../text/inert-text.js';

const TOOL_ERROR_CHARS = TOOL_OUTPUT_SHOWN_CHARS;

export type JsonRecord = { type: string; ts: string } & Record<string, unknown>;

function round1(n: number): number {
  return Math.round(n * 10) / 10;
}

function contextOf(snapshot: ContextSnapshot): Record<string, unknown> {
  return {
    usedTokens: snapshot.usedTokens,
    contextWindow: snapshot.contextWindow ?? null,
    percent: round1(snapshot.percent),
    peakPercent: round1(snapshot.peakPercent),
    toolCalls: snapshot.toolCalls,
  };
}

/** The agent event as a follower sees it, or undefined for the ones not reported (usage, init, ...). */
export function agentRecord(event: AgentEvent): Record<string, unknown> | undefined {
  switch (event.type) {
    case 'tool_start':
      return { event: 'tool_start', toolUseId: event.toolUseId, name: event.name, summary: event.summary, ...(event.parentToolUseId ? { parentToolUseId: event.parentToolUseId } : {}) };
    case 'assistant_text':
      return event.text.trim() === '' ? undefined : { event: 'assistant_text', text: event.text, ...(event.parentToolUseId ? { parentToolUseId: event.parentToolUseId } : {}) };
    case 'tool_result':
      return event.isError ? { event: 'tool_error', toolUseId: event.toolUseId, text: event.text.slice(0, TOOL_ERROR_CHARS) } : undefined;
    case 'api_retry':
      return { event: 'api_retry', attempt: event.attempt, maxRetries: event.maxRetries, delayMs: event.delayMs, errorStatus: event.errorStatus };
    case 'api_error':
      return { event: 'api_error', errorType: event.errorType, text: event.text };
    case 'compaction':
      return { event: 'compaction', stage: event.stage, preTokens: event.preTokens ?? null, postTokens: event.postTokens ?? null };
    case 'model_fallback':
      return { event: 'model_fallback', from: event.from ?? null, to: event.to ?? null };
    default:
      return undefined;
  }
}

export class JsonReporter implements Reporter {
  private readonly now: () => number;

  constructor(
    private readonly writeLine: (line: string) => void,
    options: { now?: () => number } = {},
  ) {
    this.now = options.now ?? Date.now;
  }

  private emit(record: JsonRecord): void {
    // JSON.stringify escapes newlines inside strings: one object is always one line; inertJson
    // escapes the C1 and bidi controls it leaves raw, so a terminal showing the line acts on none.
    this.writeLine(`${inertJson(JSON.stringify(record))}\n`);
  }

  private ts(): string {
    return new Date(this.now()).toISOString();
  }

  runStarted(info: RunStartInfo): void {
    this.emit({
      type: 'run_plan', ts: this.ts(), runId: info.runId, planName: info.plan.name, planPath: info.plan.path,
      phases: info.phases.map((p) => ({ id: p.id, title: p.title, dependsOn: p.dependsOn })),
      alreadyComplete: info.alreadyComplete, maxRestarts: info.maxRestarts, contextThreshold: info.contextThreshold, resumedFrom: info.resumedFrom ?? null,
    });
  }

  journal(event: JournalEvent): void {
    this.emit(event);
  }

  agent(phaseId: string, event: AgentEvent, context: ContextSnapshot): void {
    const record = agentRecord(event);
    if (record) this.emit({ type: 'agent', ts: this.ts(), phaseId, ...record, context: contextOf(context) });
  }

  notice(level: 'info' | 'warning' | 'error', message: string): void {
    this.emit({ type: 'notice', ts: this.ts(), level, message });
  }

  runFinished(state: RunState, resumeCommand: string | undefined): void {
    this.emit({ type: 'run_summary', ts: this.ts(), ...summarizeRun(state), resumeCommand: resumeCommand ?? null });
  }
}
