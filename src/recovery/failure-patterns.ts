/**
 * Recurring failures: the same class three or more times in a run says more than any single
 * failure ("the API is down" rather than "phase 3 failed, phase 4 failed..."). Pure.
 */
import type { FailureClassification } from './classify.js';
import type { FailureClass } from './failure-class.js';

/** A failure of the run so far: its classification's class, message and key, when and where. */
export interface FailureRecord extends Pick<FailureClassification, 'class' | 'message'>, Partial<Pick<FailureClassification, 'correlationKey'>> {
  /** epoch ms */
  at: number;
  phaseId?: string;
}

export interface RecurringPattern {
  class: FailureClass;
  count: number;
  likelyRootCause: string;
  firstAt: number;
  lastAt: number;
  /** Phases it happened in, in order of first appearance. */
  phaseIds: string[];
  /** The most frequent correlation key in the group, when the records carry keys. */
  commonKey?: string;
}

export const RECURRING_THRESHOLD = 3;

const ROOT_CAUSES: Readonly<Record<FailureClass, string>> = {
  context_overflow:
    'The phase needs more context than the model has: its prompt, attached files or tool definitions are too large, or the phase does too much for one session.',
  rate_limit: 'The API key is hitting its rate or usage limit: other clients share it, or the plan runs more tokens per minute than the tier allows.',
  overloaded: 'The API is overloaded for this model: the provider is under heavy load.',
  server_error: 'The API provider (or a proxy in front of it) is having an outage.',
  network: 'The API cannot be reached reliably: the network, a proxy, DNS or ANTHROPIC_BASE_URL is at fault.',
  stall: 'API responses stop mid-stream: a proxy or network path drops long-lived connections, or the provider stalls.',
  timeout: 'Sessions take longer than session_timeout: the phase is too large for one session, or the timeout is too tight.',
  authentication: 'The API key is invalid, expired or lacks permission.',
  invalid_request: 'The API rejects the requests debussy sends: a wrong model name, bad claude_args or an account problem.',
  agent_crash: 'The claude process keeps dying: it is being killed (out of memory, a supervisor) or a tool makes it crash.',
  turn_limit: 'Sessions run out of turns: --max-turns in claude_args is too low for this phase.',
  budget_limit: 'Sessions hit their spending cap: --max-budget-usd in claude_args is too low for this phase.',
  permissions: 'Claude Code refuses tool calls the phases need: permission_mode / allowed_tools do not allow them.',
  unknown: 'Sessions fail in a way debussy does not recognise: the session logs hold the details.',
};

export function likelyRootCause(failureClass: FailureClass): string {
  return ROOT_CAUSES[failureClass];
}

function mostFrequent(values: readonly string[]): string | undefined {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best: string | undefined;
  let bestCount = 0;
  for (const [v, n] of counts) {
    if (n > bestCount) {
      best = v;
      bestCount = n;
    }
  }
  return best;
}

/** Every class seen at least `threshold` times, most frequent first (ties: most recent first). */
export function findRecurringPatterns(failures: readonly FailureRecord[], threshold = RECURRING_THRESHOLD): RecurringPattern[] {
  const groups = new Map<FailureClass, FailureRecord[]>();
  for (const f of failures) groups.set(f.class, [...(groups.get(f.class) ?? []), f]);
  const patterns: RecurringPattern[] = [];
  for (const [cls, group] of groups) {
    if (group.length < threshold) continue;
    const times = group.map((f) => f.at);
    const phaseIds = [...new Set(group.map((f) => f.phaseId).filter((id): id is string => id !== undefined))];
    const commonKey = mostFrequent(group.map((f) => f.correlationKey).filter((k): k is string => k !== undefined));
    patterns.push({
      class: cls,
      count: group.length,
      likelyRootCause: likelyRootCause(cls),
      firstAt: Math.min(...times),
      lastAt: Math.max(...times),
      phaseIds,
      ...(commonKey === undefined ? {} : { commonKey }),
    });
  }
  return patterns.sort((a, b) => b.count - a.count || b.lastAt - a.lastAt);
}

/** The strongest recurring pattern, if any: what a notification leads with. */
export function mainRecurringPattern(failures: readonly FailureRecord[], threshold = RECURRING_THRESHOLD): RecurringPattern | undefined {
  return findRecurringPatterns(failures, threshold)[0];
}
