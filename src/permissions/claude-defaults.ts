/**
 * What Claude Code runs without an allow rule, and the rule to name for what it does not. Measured
 * with claude 2.1.332 in `-p` mode (test/e2e/permission-estimate.test.ts runs these commands through
 * it and compares): read-only commands run in every mode, each part of `a && b | c` judged on its
 * own; with acceptEdits, file commands and output redirection inside the project run too; a command
 * substitution (`$(...)`) runs only under a bare `Bash` rule. Anything else needs a rule. Pure.
 */
import path from 'node:path';
import type { CommandPart } from './shell-parts.js';

/** Read-only commands claude runs in any mode, whatever their arguments (within the project). */
const READ_ONLY = new Set([
  'true', 'false', 'echo', 'printf', 'ls', 'pwd', 'cat', 'head', 'tail', 'cut', 'tr', 'grep', 'rg', 'wc', 'sort', 'diff', 'cmp',
  'comm', 'test', '[', '[[', 'which', 'type', 'date', 'basename', 'dirname', 'stat', 'file', 'du', 'realpath', 'sleep', 'cd', 'jq',
  'uname', 'whoami', 'id', 'nproc', 'md5sum', 'sha256sum', 'tac', 'nl', 'od', 'hexdump', 'column', 'paste', 'fold', 'expr', 'seq',
]);

const READ_ONLY_GIT = new Set(['status', 'diff', 'log', 'show', 'rev-parse', 'ls-files', 'blame']);

/** `git branch` lists branches with these (anything else may create or delete one). */
const GIT_BRANCH_LISTING = /^(-a|-r|-v|-vv|--all|--remotes|--list|--show-current|--verbose)$/;

/** With acceptEdits, these run on files inside the project. */
const FILE_COMMANDS = new Set(['mkdir', 'touch', 'cp', 'mv', 'rm']);

/** `find` with these runs commands or deletes files: no `Bash(find:*)` rule allows that. */
const FIND_ACTIONS = /^-(delete|exec|execdir|ok|okdir|fprint|fprint0|fprintf|fls)$/;

/** Tools whose first argument is a subcommand: a rule names both (`Bash(npm test:*)`). */
const SUBCOMMAND_TOOLS = new Set([
  'npm', 'pnpm', 'yarn', 'npx', 'bun', 'bunx', 'deno', 'cargo', 'go', 'git', 'make', 'uv', 'poetry', 'pip', 'docker', 'dotnet',
  'mvn', 'gradle', './gradlew', 'bundle', 'rake', 'composer', 'mix', 'swift', 'flutter', 'dart', 'just', 'tox', 'nox', 'pytest',
]);

function isReadOnly(words: readonly string[]): boolean {
  const [command = '', ...args] = words;
  if (READ_ONLY.has(command)) return true;
  if (command === 'sed') return !args.some((arg) => /^(-i|--in-place)/.test(arg));
  if (command === 'find') return !args.some((arg) => FIND_ACTIONS.test(arg));
  if (command === 'git') {
    const [sub = '', ...rest] = args;
    if (READ_ONLY_GIT.has(sub)) return true;
    return sub === 'branch' && rest.every((arg) => GIT_BRANCH_LISTING.test(arg));
  }
  return false;
}

function isFileEdit(words: readonly string[]): boolean {
  const [command = '', ...args] = words;
  return FILE_COMMANDS.has(command) || (command === 'sed' && args.some((arg) => /^(-i|--in-place)/.test(arg)));
}

/** Whether claude runs this part's command without any rule, in `mode` (its output files aside). */
export function runsWithoutRule(part: CommandPart, mode: string | undefined): boolean {
  return isReadOnly(part.words) || (mode === 'acceptEdits' && isFileEdit(part.words));
}

/** Whether a `Bash(...)` rule can allow this part at all (else only a bare `Bash` rule or bypassPermissions). */
export function ruleCanAllow(part: CommandPart): boolean {
  if (part.substitution) return false;
  const [command = '', ...args] = part.words;
  return !(command === 'find' && args.some((arg) => FIND_ACTIONS.test(arg)));
}

/** The allowed_tools rule that lets claude run this part's command: `Bash(npm test:*)`, `Bash(make check:*)`. */
export function ruleFor(part: CommandPart): string {
  const [command = '', second] = part.words;
  const sub = second !== undefined && /^[a-z][\w:.-]*$/i.test(second) && SUBCOMMAND_TOOLS.has(path.basename(command)) ? ` ${second}` : '';
  return `Bash(${command}${sub}:*)`;
}
