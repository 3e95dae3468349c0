/**
 * Condenses a checkpoint after a context overflow, so the next session starts smaller. What a
 * fresh session needs most stays longest: code references (file paths, `identifiers`), errors,
 * decisions and progress entries. Prose and older activity go first. Pure and deterministic: the
 * reductions run in one fixed order and stop as soon as the rendered checkpoint fits the target,
 * so a harder level always ends at or below an easier one.
 */
import type { Checkpoint } from '../checkpoint/index.js';
import { renderCheckpoint } from '../prompt/restart-prompt.js';
import { CONDENSE_REDUCTIONS, type CondenseLevel } from './condense-levels.js';

export interface CondenseOptions {
  /** Token counter for the recorded sizes (e.g. js-tiktoken); sizes in tokens are omitted without it. */
  countTokens?: (text: string) => number;
}

export interface CondensedCheckpoint {
  checkpoint: Checkpoint;
  /** The condensed checkpoint rendered with renderCheckpoint. */
  text: string;
  /** Fraction the size was meant to shrink by (0.25 = 25% smaller). */
  reduction: number;
  targetChars: number;
  beforeChars: number;
  afterChars: number;
  beforeTokens?: number;
  afterTokens?: number;
  /** False when everything that may go is gone and the text is still over the target. */
  reachedTarget: boolean;
  omitted: { progress: number; commits: number; lastActivity: number; changedFiles: number };
}

const CODE_REF =
  /`[^`\n]+`|(?:[\w.@-]+\/)+[\w.@-]+|\b[\w-]+\.(?:ts|tsx|js|jsx|mjs|cjs|json|md|py|rs|go|java|kt|rb|c|h|cc|cpp|hpp|cs|sh|ya?ml|toml|sql|css|scss|html|vue|svelte)\b|\b[A-Za-z_$][\w$]*\(\)/;
const ERROR =
  /\b(?:errors?|fail(?:s|ed|ing|ure|ures)?|exception|traceback|cannot|can't|unable|broken|crash(?:es|ed)?|regression|TypeError|ReferenceError|SyntaxError|ENOENT|EACCES|panic(?:ked)?)\b|✗/i;
const DECISION = /\b(?:decided|decision|chose|chosen|choose|will use|instead of|rather than|switched to|because|trade-?off|must|never|always|do not|don't)\b/i;

/** Whether a line carries something a fresh session would need: a code reference, an error, a decision. */
export function isEssential(line: string): boolean {
  return CODE_REF.test(line) || ERROR.test(line) || DECISION.test(line);
}

/** Keeps the essential sentences of a line (or its first sentence), at most maxChars long. */
export function shortenLine(line: string, maxChars: number): string {
  const sentences = line.split(/(?<=[.!?;])\s+/).filter((s) => s.trim() !== '');
  const kept = sentences.filter(isEssential);
  let text = (kept.length > 0 ? kept : sentences.slice(0, 1)).join(' ').trim();
  if (text.length > maxChars) {
    const room = Math.max(1, maxChars - 1);
    // Cut between words where one is near, so a path or identifier is dropped whole, not halved.
    const space = text.lastIndexOf(' ', room);
    text = `${text.slice(0, space > room * 0.6 ? space : room).trimEnd()}…`;
  }
  return text;
}

interface Work {
  cp: Checkpoint;
  omitted: CondensedCheckpoint['omitted'];
  /** Changed files folded into per-directory lines. */
  folded: boolean;
}

function materialise(w: Work): Checkpoint {
  const { progress, commits, lastActivity } = w.omitted;
  return {
    ...w.cp,
    progress: progress > 0 ? [`(${progress} earlier entries condensed away after a context overflow; see \`debussy progress\`)`, ...w.cp.progress] : w.cp.progress,
    commits: commits > 0 ? [`(${commits} earlier commits: see \`git log\`)`, ...w.cp.commits] : w.cp.commits,
    lastActivity: lastActivity > 0 && w.cp.lastActivity.length > 0 ? [`(${lastActivity} earlier actions omitted)`, ...w.cp.lastActivity] : w.cp.lastActivity,
  };
}

/** Removes the oldest item of `list` (keeping the newest `keep`) that `eligible` accepts. */
function dropOldest(list: string[], keep: number, eligible: (s: string) => boolean): boolean {
  const limit = list.length - keep;
  for (let i = 0; i < limit; i += 1) {
    if (eligible(list[i] ?? '')) {
      list.splice(i, 1);
      return true;
    }
  }
  return false;
}

/** Shortens the longest item of list[0 .. list.length - keepNewest) that is over maxChars. */
function shortenLongest(list: string[], maxChars: number, keepNewest = 0): boolean {
  let index = -1;
  for (let i = 0; i < list.length - keepNewest; i += 1) {
    const len = list[i]?.length ?? 0;
    if (len > maxChars && (index < 0 || len > (list[index]?.length ?? 0))) index = i;
  }
  if (index < 0) return false;
  const shorter = shortenLine(list[index] ?? '', maxChars);
  if (shorter.length >= (list[index]?.length ?? 0)) return false;
  list[index] = shorter;
  return true;
}

/**
 * Folds changed files into one line per top-level area ("src/api/ (7 files): users.ts, …"), two
 * directory levels deep: far enough to keep the map of the change, short enough to matter.
 */
function foldFiles(files: string[], depth = 2): string[] {
  const groups = new Map<string, string[]>();
  for (const file of files) {
    const parts = file.split('/');
    const take = Math.min(depth, parts.length - 1);
    const dir = take > 0 ? `${parts.slice(0, take).join('/')}/` : '';
    groups.set(dir, [...(groups.get(dir) ?? []), parts.slice(take).join('/')]);
  }
  return [...groups].flatMap(([dir, names]) => {
    if (dir === '' || names.length === 1) return names.map((name) => `${dir}${name}`);
    return [`${dir} (${names.length} files): ${names.slice(0, 5).join(', ')}${names.length > 5 ? ', …' : ''}`];
  });
}

function score(line: string): number {
  return (ERROR.test(line) ? 4 : 0) + (DECISION.test(line) ? 2 : 0) + (CODE_REF.test(line) ? 1 : 0);
}

/** Drops the oldest of the least valuable entries, keeping the newest `keep`. */
function dropLeastValuable(list: string[], keep: number): boolean {
  const limit = list.length - keep;
  if (limit <= 0) return false;
  let index = 0;
  for (let i = 1; i < limit; i += 1) if (score(list[i] ?? '') < score(list[index] ?? '')) index = i;
  list.splice(index, 1);
  return true;
}

type Step = (w: Work) => boolean;
type ListKey = 'progress' | 'commits' | 'lastActivity';

/** A step that drops the oldest eligible entry of one list and counts it as omitted. */
function drop(key: ListKey, keep: number, eligible: (s: string) => boolean): Step {
  return (w) => {
    if (!dropOldest(w.cp[key], keep, eligible)) return false;
    w.omitted[key] += 1;
    return true;
  };
}

const nonEssential = (s: string): boolean => !isEssential(s);
const always = (): boolean => true;

/** The reductions, least valuable content first. Each call removes or shortens one thing. */
const STEPS: readonly Step[] = [
  // The diff summary repeats the file list; its totals line is enough.
  (w) => {
    const lines = w.cp.diffSummary.trim().split('\n');
    if (lines.length <= 1) return false;
    w.cp.diffSummary = lines.at(-1) ?? '';
    return true;
  },
  drop('lastActivity', 0, nonEssential),
  (w) => shortenLongest(w.cp.lastActivity, 160),
  drop('commits', 3, always),
  drop('progress', 3, nonEssential),
  (w) => shortenLongest(w.cp.progress, 240, 3),
  drop('lastActivity', 3, always),
  (w) => shortenLongest(w.cp.progress, 160, 1),
  (w) => {
    if (w.cp.reason.length <= 200) return false;
    w.cp.reason = shortenLine(w.cp.reason, 200);
    return true;
  },
  (w) => shortenLongest(w.cp.lastActivity, 80),
  drop('commits', 1, always),
  drop('lastActivity', 2, always),
  drop('progress', 1, nonEssential),
  (w) => shortenLongest(w.cp.progress, 100),
  (w) => {
    if (w.folded || w.cp.changedFiles.length <= 8) return false;
    w.folded = true;
    const folded = foldFiles(w.cp.changedFiles);
    if (folded.join('\n').length >= w.cp.changedFiles.join('\n').length) return false;
    w.omitted.changedFiles += w.cp.changedFiles.length - folded.length;
    w.cp.changedFiles = folded;
    return true;
  },
  (w) => {
    if (!dropLeastValuable(w.cp.progress, 2)) return false;
    w.omitted.progress += 1;
    return true;
  },
  drop('commits', 0, always),
  drop('lastActivity', 0, always),
  (w) => {
    if (w.cp.diffSummary === '') return false;
    w.cp.diffSummary = '';
    return true;
  },
];

/** Condenses to at most `(1 - reduction)` of the rendered size, as far as the content allows. */
export function condenseCheckpointBy(checkpoint: Checkpoint, reduction: number, options: CondenseOptions = {}): CondensedCheckpoint {
  const before = renderCheckpoint(checkpoint);
  const targetChars = Math.floor(before.length * (1 - Math.min(Math.max(reduction, 0), 0.95)));
  const w: Work = {
    cp: { ...checkpoint, progress: [...checkpoint.progress], changedFiles: [...checkpoint.changedFiles], lastActivity: [...checkpoint.lastActivity], commits: [...checkpoint.commits] },
    omitted: { progress: 0, commits: 0, lastActivity: 0, changedFiles: 0 },
    folded: false,
  };
  let text = before;
  while (text.length > targetChars) {
    const applied = STEPS.some((step) => step(w));
    if (!applied) break;
    text = renderCheckpoint(materialise(w));
  }
  const result: CondensedCheckpoint = {
    checkpoint: materialise(w),
    text,
    reduction,
    targetChars,
    beforeChars: before.length,
    afterChars: text.length,
    reachedTarget: text.length <= targetChars,
    omitted: { ...w.omitted },
  };
  if (options.countTokens) {
    result.beforeTokens = options.countTokens(before);
    result.afterTokens = options.countTokens(text);
  }
  return result;
}

/** Condenses for the n-th context overflow of a phase: ~25%, ~40%, ~60% smaller. */
export function condenseCheckpoint(checkpoint: Checkpoint, level: CondenseLevel, options: CondenseOptions = {}): CondensedCheckpoint {
  return condenseCheckpointBy(checkpoint, CONDENSE_REDUCTIONS[level], options);
}
