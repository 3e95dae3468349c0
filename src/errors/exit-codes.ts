/**
 * Every exit code debussy can return. This table is the single source: docs/exit-codes.md is
 * checked against it by a test.
 */
export const EXIT_CODES = {
  success: { code: 0, meaning: 'Every phase completed (or the command succeeded).' },
  failed: {
    code: 1,
    meaning:
      "A phase failed, a gate failed, a phase's branch would not merge (--parallel: a conflict left after its merge remediation), or the audit found errors; debussy's state in .debussy/ could not be written at the start (E_STATE_WRITE); an agent's `debussy done` / `progress` found its run's journal gone (E_RUN_JOURNAL_MISSING).",
  },
  usage: {
    code: 2,
    meaning: 'Bad command-line usage or a bad flag value (E_USAGE), an invalid config file (E_CONFIG), a plan `debussy plan import` cannot read (E_PLAN_IMPORT) or would write over edits (E_USAGE).',
  },
  prerequisites: {
    code: 3,
    meaning:
      "A prerequisite is missing: claude not found (E_CLAUDE_NOT_FOUND) or installed without its native binary (E_CLAUDE_NATIVE_MISSING), codex not found with agent codex (E_CODEX_NOT_FOUND), gemini not found with agent gemini (E_GEMINI_NOT_FOUND), not a git repository (E_NOT_GIT_REPO), uncommitted changes (E_DIRTY_TREE), a plan that fails the audit (E_PLAN_INVALID), a run journal written by a newer debussy (E_JOURNAL_NEWER, docs/verification.md), debussy's per-user key that seals completions cannot be made or read (E_JOURNAL_KEY).",
  },
  circuitOpen: { code: 4, meaning: 'Recovery gave up: the circuit breaker is open or a phase is crash-looping.' },
  blocked: { code: 5, meaning: 'The agent reported the phase blocked and needs a person.' },
  locked: { code: 6, meaning: 'Another debussy run holds the lock on this project (E_LOCKED).' },
  permissions: {
    code: 7,
    meaning: 'Claude Code refused tool calls the agent needed (permission_mode / allowed_tools do not allow them), or refused to start with the permission settings given.',
  },
  stateLost: {
    code: 8,
    meaning: "debussy's own state (.debussy/runs) was deleted or could not be written during the run (e.g. the agent ran `git clean -fdx`) (E_STATE_LOST), the agent's debussy (.git/debussy) could not be put back, or the agent deleted debussy's config or plan (written back, the deletion never committed): the session was stopped and its work committed; `debussy run` resumes.",
  },
  budget: {
    code: 9,
    meaning: 'The run or a phase reached its budget (max_cost / max_phase_cost): the session was stopped and its work committed; raise the budget and `debussy run` continues.',
  },
  usageLimit: {
    code: 10,
    meaning: "Claude's usage limit resets later than max_wait: the work is committed; the message gives the reset time and the command to resume.",
  },
  queueUnreachable: {
    code: 11,
    meaning: '`debussy run --queue` or `debussy worker` could not reach the queue\'s Redis when it started (E_QUEUE_UNREACHABLE; docs/queue.md). Once connected, a Redis that goes away is waited for.',
  },
  interrupted: { code: 130, meaning: 'Interrupted by Ctrl-C or SIGTERM; `debussy run` resumes.' },
} as const;

export type ExitCodeName = keyof typeof EXIT_CODES;

export function exitCodeOf(name: ExitCodeName): number {
  return EXIT_CODES[name].code;
}
