/**
 * Tool calls claude refused for want of permission, read from the stream: the tool errors it
 * answers them with, and the `permission_denials` of its `result`. In `-p` mode nobody can answer
 * a permission prompt, so such a call is refused and the session goes on as if nothing happened;
 * debussy counts them so a phase that could not act is reported as such, not as a forgetful agent.
 */
import type { AgentEvent } from './agent-events.js';
import { summarizeToolUse } from './tool-summary.js';

export interface Refusal {
  toolUseId: string | undefined;
  /** "Bash: npm test", "Write: src/x.ts". */
  summary: string;
}

// The words of Claude Code 2.1.x for a call that needs approval, hits a deny rule, or writes in plan mode.
const REFUSAL_PATTERNS: readonly RegExp[] = [
  /\brequires approval\b/i,
  /^Claude requested permissions? to .*, but you haven'?t granted it yet/i,
  /^Permission to use \S+ .*has been denied/i,
  /^Cannot (?:write to|edit|create) .* while in plan mode/i,
];
// A PreToolUse hook that exits 2 (debussy's stop guard, or the user's own) is listed in
// permission_denials too, but no permission setting would let it through.
const HOOK_BLOCK = /^\S+:\S+ hook error\b/;

export function isPermissionRefusal(toolErrorText: string): boolean {
  const text = toolErrorText.trim().replace(/^Error:\s*/, '');
  return REFUSAL_PATTERNS.some((pattern) => pattern.test(text));
}

/** Collects a session's refusals from its events; each refused call is counted once. */
export class RefusalTracker {
  private readonly started = new Map<string, string>();
  private readonly hookBlocked = new Set<string>();
  private readonly refused = new Map<string, Refusal>();
  private readonly unnamed: Refusal[] = [];
  private cwd: string | undefined;

  observe(event: AgentEvent): void {
    switch (event.type) {
      case 'init':
        this.cwd = event.cwd;
        return;
      case 'tool_start':
        if (event.parentToolUseId === undefined) this.started.set(event.toolUseId, event.summary);
        return;
      case 'tool_result': {
        if (!event.isError || event.parentToolUseId !== undefined) return;
        if (HOOK_BLOCK.test(event.text.trim())) this.hookBlocked.add(event.toolUseId);
        else if (isPermissionRefusal(event.text)) this.add(event.toolUseId, this.started.get(event.toolUseId) ?? 'a tool call');
        return;
      }
      case 'result':
        for (const denial of event.permissionDenials ?? []) {
          if (denial.toolUseId !== undefined && this.hookBlocked.has(denial.toolUseId)) continue;
          this.add(denial.toolUseId, summarizeToolUse(denial.toolName, denial.input, this.cwd));
        }
        return;
      default:
        return;
    }
  }

  private add(toolUseId: string | undefined, summary: string): void {
    if (toolUseId === undefined) this.unnamed.push({ toolUseId, summary });
    else if (!this.refused.has(toolUseId)) this.refused.set(toolUseId, { toolUseId, summary });
  }

  refusals(): Refusal[] {
    return [...this.refused.values(), ...this.unnamed];
  }
}

const SHOWN = 4;

/**
 * "claude refused 7 tool calls (Bash: npm test, Write: src/x.ts, ...)": the count of calls, the
 * distinct calls in the order they were refused. Pure.
 */
export function describeRefusals(summaries: readonly string[]): string {
  const distinct = [...new Set(summaries)];
  const shown = distinct.slice(0, SHOWN).join(', ') + (distinct.length > SHOWN ? ', ...' : '');
  const count = summaries.length;
  return `claude refused ${count} tool call${count === 1 ? '' : 's'} (${shown})`;
}
