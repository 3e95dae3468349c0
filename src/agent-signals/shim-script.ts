/**
 * The `debussy` the agent's Bash tool finds first on PATH during a session: a POSIX sh script.
 * `done` and `progress` go to the running debussy through its inbox (signal-inbox.ts), which
 * answers in process: no node start per call. Anything else, a session without the run's
 * variables, or an inbox that does not answer, runs this very debussy with this very node.
 */
import { shellQuote } from '../text/shell-quote.js';
import { CLOSED_MARK, FALLBACK } from './signal-inbox.js';

export interface ShimTarget {
  /** The node binary running debussy now. */
  node: string;
  /** bin/debussy.js of this installation. */
  entry: string;
  /** The run's inbox directory; undefined: every call runs node. */
  inbox?: string | undefined;
  /** The PID of the run answering the inbox: a shim stops waiting when it is gone. */
  runPid?: number | undefined;
}

/** Waiting for an answer: this many polls of POLL_SECONDS before the shim runs node itself. */
const POLLS_BEFORE_FALLBACK = 500;
/** A claimed call is answered at once; this bounds the wait if the run dies in between. */
const POLLS_BEFORE_GIVING_UP = 3000;
const POLL_SECONDS = '0.02';

export function shimScript(target: ShimTarget): string {
  const head = [
    '#!/bin/sh',
    '# debussy for the agent: done/progress go to the running debussy through its inbox; the rest runs node.',
    `node=${shellQuote(target.node)}`,
    `entry=${shellQuote(target.entry)}`,
    'full() { exec "$node" "$entry" "$@"; }',
  ];
  if (target.inbox === undefined || target.runPid === undefined) return `${[...head, 'full "$@"'].join('\n')}\n`;
  return `${[
    ...head,
    `inbox=${shellQuote(target.inbox)}`,
    `run_pid=${target.runPid}`,
    'case "$1" in done|progress) ;; *) full "$@" ;; esac',
    `if [ -z "$DEBUSSY_RUN_ID" ] || [ -z "$DEBUSSY_ATTEMPT_ID" ] || [ ! -d "$inbox" ] || [ -f "$inbox/${CLOSED_MARK}" ]; then full "$@"; fi`,
    // The call is named by this shell's PID, unique among the shims running now (no mktemp: each
    // program a call starts costs ~1 ms of CPU, and the agent calls debussy a few times a phase).
    // The answer files of a killed shim that had this PID are removed first.
    'at="$inbox/$$"',
    'new="$inbox/.new.$$"',
    'if [ -e "$at.code" ] || [ -e "$at.out" ] || [ -e "$at.err" ]; then rm -f "$at.code" "$at.out" "$at.err"; fi',
    `printf '%s\\0' "$DEBUSSY_PROJECT_ROOT" "$DEBUSSY_RUN_ID" "$DEBUSSY_ATTEMPT_ID" "$DEBUSSY_PHASE_ID" "$@" > "$new" || { rm -f "$new"; full "$@"; }`,
    'mv "$new" "$at.req" || { rm -f "$new"; full "$@"; }',
    'polls=0',
    'until [ -f "$at.code" ]; do',
    '  polls=$((polls + 1))',
    `  if [ -f "$inbox/${CLOSED_MARK}" ] || ! kill -0 "$run_pid" 2>/dev/null || [ "$polls" -gt ${POLLS_BEFORE_FALLBACK} ]; then`,
    '    # No answer is coming: take the call back and run debussy itself, unless the run has just',
    '    # claimed it (then its answer is on the way).',
    '    if mv "$at.req" "$at.back" 2>/dev/null; then rm -f "$at.back"; full "$@"; fi',
    `    if [ "$polls" -gt ${POLLS_BEFORE_GIVING_UP} ]; then echo "debussy: the run took this call but did not answer; run it again" >&2; exit 1; fi`,
    '  fi',
    `  sleep ${POLL_SECONDS} 2>/dev/null || sleep 1`,
    'done',
    'read -r code < "$at.code"',
    // The answer's lines, printed by the shell itself (the run writes text lines).
    'show() { while IFS= read -r line || [ -n "$line" ]; do printf \'%s\\n\' "$line"; done < "$1"; }',
    '[ -s "$at.err" ] && show "$at.err" >&2',
    '[ -s "$at.out" ] && show "$at.out"',
    'rm -f "$at.code" "$at.out" "$at.err"',
    `[ "$code" = ${FALLBACK} ] && full "$@"`,
    'exit "$code"',
  ].join('\n')}\n`;
}
