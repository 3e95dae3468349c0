/**
 * codex's usage limits (a ChatGPT plan's five-hour and weekly windows) as debussy's neutral
 * `rate_limit` events, which the phase runner reads as it reads claude's rate_limit_event: a
 * window at 100% is a limit hit, waited out until its reset (recovery/usage-limit.ts). codex
 * 0.171.0's app-server sends `account/rateLimits/updated {rateLimits: {primary, secondary}}` from
 * the API's x-codex-* headers, each window `{usedPercent, windowDurationMins, resetsAt}` (unix
 * seconds); its error text ("You’ve hit your usage limit ... try again at 1:57 AM") gives only a
 * clock time without a date or zone. Pure.
 */
import type { AgentEvent } from '../agent-events.js';
import { numberField, recordField, type JsonRecord } from '../json-fields.js';

/** The name claude gives the same windows, so notices and the journal read alike for both agents. */
function windowKind(minutes: number | undefined): string {
  if (minutes === 300) return 'five_hour';
  if (minutes === 10_080) return 'seven_day';
  return minutes === undefined ? 'codex' : `${minutes}_minute`;
}

export function rateLimitEvents(params: JsonRecord): AgentEvent[] {
  const limits = recordField(params, 'rateLimits');
  if (limits === undefined) return [];
  const events: AgentEvent[] = [];
  for (const name of ['primary', 'secondary']) {
    const window = recordField(limits, name);
    const used = window === undefined ? undefined : numberField(window, 'usedPercent');
    if (window === undefined || used === undefined) continue;
    const resetsAt = numberField(window, 'resetsAt');
    events.push({
      type: 'rate_limit',
      status: used >= 100 ? 'rejected' : 'allowed',
      ...(resetsAt === undefined ? {} : { resetsAt }),
      rateLimitType: windowKind(numberField(window, 'windowDurationMins')),
    });
  }
  return events;
}
