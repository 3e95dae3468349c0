/**
 * Context figures for the display. An exact snapshot tokenizes everything that entered the
 * context; doing that on every event costs more than the rest of the stream handling. The display
 * refreshes when the API reports usage or a session ends, and otherwise at most every
 * `refreshMs`. The monitor's own threshold check does not go through this.
 */
import type { AgentEvent } from '../agent/agent-events.js';
import type { ContextMonitor, ContextSnapshot } from './context-monitor.js';

export const DISPLAY_REFRESH_MS = 250;

export function createDisplaySnapshot(monitor: ContextMonitor, refreshMs = DISPLAY_REFRESH_MS, now: () => number = Date.now): (event: AgentEvent) => ContextSnapshot {
  let shown: ContextSnapshot | undefined;
  let shownAt = 0;
  return (event) => {
    const at = now();
    if (!shown || event.type === 'usage' || event.type === 'result' || at - shownAt >= refreshMs) {
      shown = monitor.snapshot();
      shownAt = at;
    }
    return shown;
  };
}
