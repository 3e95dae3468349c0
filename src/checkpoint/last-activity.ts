/**
 * "What the previous session was doing last" for a checkpoint: the last few steps of a session,
 * condensed to one line each. Built live while a session runs, or afterwards from its raw stream
 * log when debussy was killed before it could record the session's end.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { AgentEvent } from '../agent/agent-events.js';
import { newStreamParseState, parseStreamLine } from '../agent/claude/stream-parser.js';
import { describeAgentEvent } from '../report/describe-event.js';

export const ACTIVITY_LINES = 8;

/**
 * One line for a step worth remembering (a tool call, the model's text, an error), or undefined.
 * The reporters' condensed line of the step (describe-event.ts), the model's text marked as said.
 * Pure.
 */
export function describeActivity(event: AgentEvent): string | undefined {
  const line = describeAgentEvent(event, false);
  if (line === undefined || line.tone === 'warning') return undefined;
  return line.tone === 'text' ? `said: ${line.text}` : line.text;
}

/** The last ACTIVITY_LINES steps, oldest first. */
export class ActivityTrail {
  private readonly kept: string[] = [];

  observe(event: AgentEvent): void {
    const line = describeActivity(event);
    if (line === undefined) return;
    this.kept.push(line);
    if (this.kept.length > ACTIVITY_LINES) this.kept.shift();
  }

  lines(): string[] {
    return [...this.kept];
  }
}

/**
 * The last steps of a session read back from its raw stream log (written redacted), or none when
 * the log is missing. Read line by line: a long session's log is never held whole.
 */
export async function activityFromStreamLog(file: string): Promise<string[]> {
  const trail = new ActivityTrail();
  const state = newStreamParseState();
  try {
    const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
    for await (const line of lines) for (const event of parseStreamLine(line, state)) trail.observe(event);
  } catch {
    // No log (never written, or deleted): nothing is known of the session's last steps.
  }
  return trail.lines();
}
