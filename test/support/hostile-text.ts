/**
 * Text from plans, agents and tools that would act on a terminal if printed as it is, and the
 * check that what debussy printed holds none of it: shared by the untrusted-text tests (through
 * the binary and in process).
 */

/** A clipboard write (OSC 52, "evil"), clear screen (CSI), a bell, an 8-bit CSI (device status report) and a right-to-left override. */
export const HOSTILE = '\x1b]52;c;ZXZpbA==\x07\x1b[2J\x07\u009b6n\u202e';
/** The same, as printf(1) writes it from a shell command (the C1 and the override in UTF-8). */
export const HOSTILE_PRINTF = String.raw`\033]52;c;ZXZpbA==\007\033[2J\007\302\2336n\342\200\256`;
/** What none of the outputs may hold: what HOSTILE is made of. */
// eslint-disable-next-line no-control-regex
export const FOREIGN = /[\x07\x1b\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;

/** A gate whose output carries HOSTILE and that fails until fixed.txt exists. */
export const HOSTILE_GATE = `printf 'gate says ${HOSTILE_PRINTF} done\\n'; test -f fixed.txt`;

/** A one-phase plan whose title, phase title, task and gate name all carry HOSTILE, with `gate` as its gate's command. */
export function hostilePlanFiles(gate = HOSTILE_GATE): Record<string, string> {
  return {
    'plans/e2e/MASTER_PLAN.md': `# Hostile${HOSTILE}Plan - Master Plan\n\n| Phase | Title | Status | Depends On |\n|---|---|---|---|\n| 1 | [Clip${HOSTILE}board](phase-1.md) | Pending | - |\n`,
    'plans/e2e/phase-1.md': [
      `# Phase 1: Clip${HOSTILE}board`, '', '**Status:** Pending', '', '## Tasks', `- [ ] 1.1: do the ${HOSTILE} work`, '',
      '## Gates', `- check${HOSTILE}: passes (command: \`${gate}\`)`, '',
    ].join('\n'),
  };
}

/** Each foreign character in `text` with what surrounds it (up to five), for a readable failure. */
export function foreignIn(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(new RegExp(FOREIGN.source, 'g'))) {
    found.push(JSON.stringify(text.slice(Math.max(0, (match.index ?? 0) - 30), (match.index ?? 0) + 10)));
    if (found.length >= 5) break;
  }
  return found;
}
