/**
 * Where debussy keeps its state inside a project: journals and project marks live under
 * `<root>/.debussy/`, where root is the git top level (so every subdirectory of a repository shares
 * one state) or, outside git, the directory debussy was started in. What a live run cannot do
 * without (the lock, the agent's shim and inbox) lives where cleaning the work tree does not reach:
 * see `liveStateDir`.
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { StateError } from '../errors/index.js';

export function findProjectRoot(cwd: string): Promise<string> {
  return new Promise((done) => {
    execFile('git', ['rev-parse', '--show-toplevel'], { cwd, encoding: 'utf8' }, (error, stdout) => {
      const top = stdout.trim();
      // Not a repository, git missing, or cwd unreadable: the directory itself is the project.
      done(error || top === '' ? resolve(cwd) : top);
    });
  });
}

export function debussyDir(root: string): string {
  return join(root, '.debussy');
}

export function runsDir(root: string): string {
  return join(debussyDir(root), 'runs');
}

const RUN_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export function isValidRunId(runId: string): boolean {
  return RUN_ID.test(runId);
}

export function runDir(root: string, runId: string): string {
  // A run id may come from the command line; it must never walk out of the runs directory.
  if (!isValidRunId(runId)) {
    throw new StateError('E_RUN_ID', `invalid run id "${runId}"`, {
      exitKind: 'usage',
      hint: 'run ids look like 20261121-214501-ab12; `debussy history` lists them',
    });
  }
  return join(runsDir(root), runId);
}

export function journalPath(root: string, runId: string): string {
  return join(runDir(root, runId), 'journal.ndjson');
}

/** The git directory of the work tree whose top level is `root` (`.git`, or where a `.git` file points). */
export function gitDirOf(root: string): string | undefined {
  const dotGit = join(root, '.git');
  try {
    const stat = statSync(dotGit);
    if (stat.isDirectory()) return dotGit;
    const pointer = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, 'utf8'));
    return pointer?.[1] === undefined ? undefined : resolve(root, pointer[1]);
  } catch {
    return undefined;
  }
}

/**
 * Where a live run keeps the lock and the agent's shim and inbox: out of the agent's reach, since
 * an agent that cleans the tree (`git clean -fdx`, `rm -rf .debussy`) must not delete them while
 * the run needs them. In a git work tree `<git dir>/debussy/`; outside git a per-user run-time
 * directory keyed by the project's path (`$XDG_RUNTIME_DIR/debussy/` or `<tmp>/debussy-<uid>/`).
 */
export function liveStateDir(root: string): string {
  const gitDir = gitDirOf(root);
  if (gitDir !== undefined) return join(gitDir, 'debussy');
  const base = process.env.XDG_RUNTIME_DIR ? join(process.env.XDG_RUNTIME_DIR, 'debussy') : join(tmpdir(), `debussy-${process.getuid?.() ?? 'user'}`);
  return join(base, `project-${createHash('sha256').update(canonicalPath(root)).digest('hex').slice(0, 16)}`);
}

/** A run's shim and inbox, in the live state directory. */
export function liveRunDir(root: string, runId: string): string {
  runDir(root, runId); // validates the id
  return join(liveStateDir(root), 'runs', runId);
}

export function lockPath(root: string): string {
  return join(liveStateDir(root), 'run.lock');
}

/** Scratch space for the lock's staged files and reclaim tickets, beside the lock. */
export function lockWorkDir(root: string): string {
  return join(liveStateDir(root), 'lock-work');
}

export function projectJournalPath(root: string): string {
  return join(debussyDir(root), 'project.ndjson');
}

/** UTC time then a random suffix: ids sort by start time and two runs in one second differ. */
export function newRunId(now: Date = new Date()): string {
  const two = (n: number): string => String(n).padStart(2, '0');
  const date = `${now.getUTCFullYear()}${two(now.getUTCMonth() + 1)}${two(now.getUTCDate())}`;
  const time = `${two(now.getUTCHours())}${two(now.getUTCMinutes())}${two(now.getUTCSeconds())}`;
  return `${date}-${time}-${randomBytes(2).toString('hex')}`;
}

/** Absolute, symlinks resolved where the path exists, so two spellings of one plan compare equal. */
export function canonicalPath(path: string, base: string = process.cwd()): string {
  const absolute = resolve(base, path);
  try {
    return realpathSync.native(absolute);
  } catch {
    return absolute;
  }
}
