/** One human line per journal event or agent step. Pure, shared by every text reporter. */
import type { AgentEvent } from '../agent/index.js';
import type { JournalEvent } from '../state/index.js';

const pct = (n: number) => `${n.toFixed(1)}%`;
const tokens = (n: number) => n.toLocaleString('en-US');

export function describeJournalEvent(event: JournalEvent): { level: 'info' | 'warning' | 'error'; text: string } | undefined {
  switch (event.type) {
    case 'run_started':
      return { level: 'info', text: `run ${event.runId} started: ${event.planName} (${event.phaseIds.length} phases)${event.resumedFrom ? `, resuming run ${event.resumedFrom}` : ''}` };
    case 'phase_started':
      return { level: 'info', text: `phase ${event.phaseId} started: ${event.title}` };
    case 'attempt_started':
      return event.kind === 'initial' ? undefined : { level: 'info', text: `phase ${event.phaseId}: ${event.kind} session (restarts ${event.restart}, retries ${event.retry})` };
    case 'session_started':
      return { level: 'info', text: `phase ${event.phaseId}: session ${event.sessionIndex} started (claude pid ${event.agentPid})` };
    case 'session_ended':
      return {
        level: event.outcome === 'completed' || event.outcome === 'stopped' ? 'info' : 'warning',
        text: `phase ${event.phaseId}: session ${event.sessionIndex} ended: ${event.outcome}, peak context ${pct(event.peakContextPercent)} (${tokens(event.peakContextTokens)} tokens), ${event.toolCalls} tool calls${event.message ? `: ${event.message}` : ''}`,
      };
    case 'context_crossed':
      return {
        level: 'warning',
        text: event.trigger === 'context'
          ? `phase ${event.phaseId}: context at ${pct(event.percent)} of ${tokens(event.contextWindow)} tokens crossed the ${event.threshold}% threshold${event.stopping ? ': stopping the session' : ' (one-shot mode: running on)'}`
          : `phase ${event.phaseId}: ${event.toolCalls} tool calls reached the tool-call threshold ${event.threshold}${event.stopping ? ': stopping the session' : ' (one-shot mode: running on)'}`,
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
      return { level: event.passed ? 'info' : 'warning', text: `phase ${event.phaseId}: gate ${event.name} ${event.passed ? 'passed' : `FAILED (exit ${event.exitCode ?? 'none'})`}: ${event.command}` };
    case 'phase_ended':
      return { level: event.status === 'completed' ? 'info' : 'error', text: `phase ${event.phaseId} ${event.status}${event.reason ? `: ${event.reason}` : ''}` };
    case 'notice':
      return { level: event.level, text: `${event.phaseId ? `phase ${event.phaseId}: ` : ''}${event.message}` };
    case 'run_ended':
      return { level: event.status === 'completed' ? 'info' : 'error', text: `run ${event.status} (exit ${event.exitCode})${event.reason ? `: ${event.reason}` : ''}` };
    default:
      return undefined;
  }
}

export function describeAgentEvent(event: AgentEvent, verbose: boolean): string | undefined {
  switch (event.type) {
    case 'tool_start':
      return event.summary;
    case 'assistant_text': {
      const text = event.text.trim();
      if (text === '') return undefined;
      if (verbose) return text;
      const line = text.replace(/\s+/g, ' ');
      return line.length > 120 ? `${line.slice(0, 117)}...` : line;
    }
    case 'tool_result':
      return event.isError ? `tool error: ${(event.text.trim().split('\n')[0] ?? '').slice(0, 160)}` : verbose ? event.text.slice(0, 2000) : undefined;
    case 'api_retry':
      return `API retry ${event.attempt}/${event.maxRetries} in ${Math.round(event.delayMs / 1000)} s (status ${event.errorStatus ?? 'none'})`;
    case 'api_error':
      return `API error ${event.errorType}: ${event.text.slice(0, 200)}`;
    case 'compaction':
      return event.stage === 'started' ? 'claude is compacting its context' : `claude compacted its context (${event.preTokens ?? '?'} -> ${event.postTokens ?? '?'} tokens)`;
    case 'model_fallback':
      return `model fallback ${event.from ?? '?'} -> ${event.to ?? '?'}`;
    default:
      return undefined;
  }
}
