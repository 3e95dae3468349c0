/**
 * Every exit code debussy can return. This table is the single source: docs/exit-codes.md is
 * checked against it by a test.
 */
export const EXIT_CODES = {
  success: { code: 0, meaning: 'Every phase completed (or the command succeeded).' },
  failed: { code: 1, meaning: 'A phase failed, a gate failed, or the audit found errors.' },
  usage: { code: 2, meaning: 'Bad command-line usage, a bad flag value, or an invalid config file.' },
  prerequisites: {
    code: 3,
    meaning: 'A prerequisite is missing: claude not found (or installed without its native binary), not a git repository, uncommitted changes, a plan that fails the audit, a run journal written by a newer debussy (docs/verification.md).',
  },
  circuitOpen: { code: 4, meaning: 'Recovery gave up: the circuit breaker is open or a phase is crash-looping.' },
  blocked: { code: 5, meaning: 'The agent reported the phase blocked and needs a person.' },
  locked: { code: 6, meaning: 'Another debussy run holds the lock on this project.' },
  permissions: {
    code: 7,
    meaning: 'Claude Code refused tool calls the agent needed (permission_mode / allowed_tools do not allow them), or refused to start with the permission settings given.',
  },
  stateLost: {
    code: 8,
    meaning: "debussy's own state (.debussy/runs) was deleted or could not be written during the run (e.g. the agent ran `git clean -fdx`), the agent's debussy (.git/debussy) could not be put back, or the agent deleted debussy's config or plan (written back, the deletion never committed): the session was stopped and its work committed; `debussy run` resumes.",
  },
  budget: {
    code: 9,
    meaning: 'The run or a phase reached its budget (max_cost / max_phase_cost): the session was stopped and its work committed; raise the budget and `debussy run` continues.',
  },
  usageLimit: {
    code: 10,
    meaning: "Claude's usage limit resets later than max_wait: the work is committed; the message gives the reset time and the command to resume.",
  },
  interrupted: { code: 130, meaning: 'Interrupted by Ctrl-C or SIGTERM; `debussy run` resumes.' },
} as const;

export type ExitCodeName = keyof typeof EXIT_CODES;

export function exitCodeOf(name: ExitCodeName): number {
  return EXIT_CODES[name].code;
}
