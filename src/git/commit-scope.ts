/**
 * What a phase's commits may hold. A phase commits only what changed during its sessions: a file
 * that was untracked or modified before the phase began is the user's and is left alone (even if
 * the agent changed it further: committing it would commit the user's edits too), a file the
 * agent wrote that holds credentials (by its name, or by its content for files such as `.npmrc`:
 * credential-files.ts) stays out unless `commit_secrets` is on, and so does one larger than
 * `max_commit_file_size` (a 2 GB file in history is in every clone for good). The user's
 * changes are recorded when the phase first starts and carried over a resume, so a crash of
 * debussy cannot turn them into the agent's. Pure.
 */
import { looksLikeCredentialFile } from './credential-files.js';
import type { WorkingTreeStatus } from './status.js';

/** Why a changed path belongs to the user rather than to the phase. */
export type UserChangeOrigin = 'untracked_before_phase' | 'modified_before_phase' | 'changed_between_runs';

/** A path that differed from HEAD because of the user, not the agent. A path ending in `/` is a directory of untracked files: everything under it. */
export interface UserChange {
  path: string;
  origin: UserChangeOrigin;
}

/** Looks up whose a path is: the user's change that covers it (itself or a directory above it), or undefined. */
export function userChangeLookup(changes: readonly UserChange[]): (path: string) => UserChange | undefined {
  const byPath = new Map(changes.map((change) => [change.path, change]));
  const hasDirectories = changes.some((change) => change.path.endsWith('/'));
  return (path) => {
    const exact = byPath.get(path);
    if (exact !== undefined || !hasDirectories) return exact;
    for (let slash = path.lastIndexOf('/', path.length - 2); slash > 0; slash = path.lastIndexOf('/', slash - 1)) {
      const covering = byPath.get(path.slice(0, slash + 1));
      if (covering !== undefined) return covering;
    }
    return undefined;
  };
}

export type LeftOutReason = UserChangeOrigin | 'looks_like_credentials' | 'too_large';

export type LeftOut =
  | { path: string; reason: Exclude<LeftOutReason, 'too_large'> }
  /** `bytes`: the file's size; `maxBytes`: the limit it is over (max_commit_file_size). */
  | { path: string; reason: 'too_large'; bytes: number; maxBytes: number };

export interface CommitScope {
  /** Paths the phase's commit records, sorted. */
  commit: string[];
  /** Changed paths it leaves in the working tree, and why, sorted by path. */
  leftOut: LeftOut[];
}

/** Everything that differs from HEAD when a phase first starts is the user's (untracked directories may come collapsed). */
export function userChangesAtPhaseStart(status: Pick<WorkingTreeStatus, 'trackedChanges' | 'untracked'>): UserChange[] {
  const changes: UserChange[] = [
    ...status.untracked.map((path): UserChange => ({ path, origin: 'untracked_before_phase' })),
    ...status.trackedChanges.map((path): UserChange => ({ path, origin: 'modified_before_phase' })),
  ];
  return sortByPath(dedupe(changes));
}

/** A changed file and its content: the git blob id of the file, null when there is no file. */
export interface FileState {
  path: string;
  hash: string | null;
}

export interface ResumeInput {
  /** The user's changes recorded when the phase started (and on earlier resumes). */
  recorded: readonly UserChange[];
  /** The working tree now, as the resumed phase finds it. */
  status: Pick<WorkingTreeStatus, 'trackedChanges' | 'untracked' | 'staged'>;
  /**
   * What the stopped run left uncommitted when it stopped gracefully, with each file's content
   * then; undefined when it died (kill -9, a crash) without saying.
   */
  uncommittedAtStop: readonly FileState[] | undefined;
  /** The content now of the paths in uncommittedAtStop. */
  hashesNow: ReadonlyMap<string, string | null>;
}

/**
 * The user's changes for a resumed phase: the recorded ones, plus what changed while debussy was
 * not running. After a graceful stop that is every path that was not uncommitted then, or whose
 * content has changed since. After a crash the dead session's uncommitted work is
 * indistinguishable from an edit, so only what the user staged counts as theirs (an agent does
 * not stage its work; a person who wants an edit kept out stages it).
 */
export function userChangesAtResume(input: ResumeInput): UserChange[] {
  const recordedChange = userChangeLookup(input.recorded);
  const atStop = input.uncommittedAtStop === undefined ? undefined : new Map(input.uncommittedAtStop.map((file) => [file.path, file.hash]));
  const staged = new Set(input.status.staged);
  const unchangedSinceStop = (path: string): boolean => atStop?.has(path) === true && atStop.get(path) === input.hashesNow.get(path);
  const added: UserChange[] = [];
  for (const path of [...input.status.trackedChanges, ...input.status.untracked]) {
    if (recordedChange(path) !== undefined) continue;
    const theirs = atStop === undefined ? staged.has(path) : !unchangedSinceStop(path);
    if (theirs) added.push({ path, origin: 'changed_between_runs' });
  }
  return sortByPath(dedupe([...input.recorded, ...added]));
}

export interface CommitScopeInput {
  userChanges: readonly UserChange[];
  /** Every path that now differs from HEAD: tracked changes (staged or not) and untracked files. */
  changed: readonly string[];
  /** The changed files judged by their content that hold a credential (credential-contents.ts). */
  holdingCredentials: ReadonlySet<string>;
  commitSecrets: boolean;
  /** The changed files larger than `maxBytes` (max_commit_file_size) that git would store as they are, with their sizes (file-sizes.ts). */
  oversized?: { maxBytes: number; sizes: ReadonlyMap<string, number> };
}

export function decideCommitScope(input: CommitScopeInput): CommitScope {
  const usersChange = userChangeLookup(input.userChanges);
  const commit: string[] = [];
  const leftOut: LeftOut[] = [];
  const named = new Set<string>();
  for (const path of [...new Set(input.changed)].sort(comparePaths)) {
    const users = usersChange(path);
    if (users !== undefined) {
      // Files under a directory of the user's are named by the directory, once.
      if (!named.has(users.path)) leftOut.push({ path: users.path, reason: users.origin });
      named.add(users.path);
      continue;
    }
    const bytes = input.oversized?.sizes.get(path);
    if (!input.commitSecrets && (looksLikeCredentialFile(path) || input.holdingCredentials.has(path))) leftOut.push({ path, reason: 'looks_like_credentials' });
    else if (input.oversized !== undefined && bytes !== undefined) leftOut.push({ path, reason: 'too_large', bytes, maxBytes: input.oversized.maxBytes });
    else commit.push(path);
  }
  return { commit, leftOut };
}

function dedupe(changes: UserChange[]): UserChange[] {
  const seen = new Set<string>();
  return changes.filter((change) => (seen.has(change.path) ? false : (seen.add(change.path), true)));
}

function sortByPath(changes: UserChange[]): UserChange[] {
  return changes.sort((a, b) => comparePaths(a.path, b.path));
}

function comparePaths(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
