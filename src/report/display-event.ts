/**
 * What reporters are given of an agent event. No reporter shows more than the first 2,000
 * characters of a tool's output (describe-event.ts: verbose output and condensed lines; json-
 * reporter.ts: tool errors), so a tool's output is cut well past that before it is redacted for
 * display: redaction then costs what can be shown, not the whole output, which can be megabytes.
 * The session's log keeps the whole output, redacted on its own.
 */
import type { AgentEvent } from '../agent/index.js';

/** The most of a tool's output any reporter reads. */
export const TOOL_OUTPUT_SHOWN_CHARS = 2_000;
/** Where the output is cut: far enough past what is shown that a secret cut in two is never displayed. */
const TOOL_OUTPUT_KEPT_CHARS = 4 * TOOL_OUTPUT_SHOWN_CHARS;

export function eventForDisplay(event: AgentEvent): AgentEvent {
  if (event.type !== 'tool_result' || event.text.length <= TOOL_OUTPUT_KEPT_CHARS) return event;
  return { ...event, text: event.text.slice(0, TOOL_OUTPUT_KEPT_CHARS) };
}
