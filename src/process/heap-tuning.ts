/**
 * Memory tuning for the long-running `debussy run` process.
 *
 * A run streams a session's output for hours: a great many short-lived strings and objects (each
 * stream line, its parse, its log lines) and few survivors. Left to its defaults, V8 grows the
 * young generation up to 3 x 16 MB after bursts of survivors and keeps it, and lets the old
 * generation grow to several times its live data before collecting it: together about half of
 * the process's peak memory on a long session (bench figure 2: 196 MB at a 1 GB stream, ~99 MB
 * with these flags, at no measurable CPU cost in figure 1; docs/performance.md).
 *
 * - semi-space growth factor 1: the young generation grows no further than it has when the run
 *   starts (16 MB: loading the CLI's modules grows it first; keeping it at its initial 1-2 MB cost
 *   13-26% more CPU for 19 MB less peak, docs/performance.md section 2).
 * - heap growing percent 20: the old generation is collected when it has grown 20% past what
 *   survived the last collection (each full collection of ~15 MB live data takes ~10 ms).
 *
 * Both are read by V8 at every collection, so setting them once the process runs takes effect
 * (unlike --max-semi-space-size, which works only on node's command line).
 */
import v8 from 'node:v8';

export const LONG_RUN_HEAP_FLAGS = ['--semi-space-growth-factor=1', '--heap-growing-percent=20'] as const;

/** Idempotent: setting the same values again changes nothing. */
export function tuneHeapForLongRun(): void {
  for (const flag of LONG_RUN_HEAP_FLAGS) v8.setFlagsFromString(flag);
}
