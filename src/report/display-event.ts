/**
 * What reporters are given of an agent event: the event redacted whole, then a tool's output cut
 * to what any reporter shows (describe-event.ts: verbose output and condensed lines; json-
 * reporter.ts: tool errors). Redaction comes first, so a secret on the cut loses nothing but its
 * tail to `[REDACTED]`; the redaction is shared with the session's readable log, which redacted
 * the same event as it was read (redact-once.ts), so a megabyte tool output is redacted once.
 */
import type { AgentEvent } from '../agent/index.js';
import { redactDeepOnce, type Redactor } from '../redact/index.js';

/** The most of a tool's output any reporter reads. */
export const TOOL_OUTPUT_SHOWN_CHARS = 2_000;

export function eventForDisplay(event: AgentEvent, redact: Redactor): AgentEvent {
  const redacted = redactDeepOnce(event, redact);
  if (redacted.type !== 'tool_result' || redacted.text.length <= TOOL_OUTPUT_SHOWN_CHARS) return redacted;
  return { ...redacted, text: redacted.text.slice(0, TOOL_OUTPUT_SHOWN_CHARS) };
}
