/**
 * Figure 3's scripted agent: a session whose calls are sized like real Claude Code sessions'. Each
 * main request draws a growth share from the held-out sessions' distribution (real-growth.ts) and
 * answers with a turn that adds about that share of the request's context: Reads of slices of the
 * project's files (several at once for the largest), `sed`/`grep`/`ls`/`git` commands, Writes and
 * Edits of the agent's own files, some with a sentence of text before the calls. The turn is sized
 * from the server's count of the request (the truth the projection does not see); a small factor
 * per kind of turn, learned from the growths that followed, keeps the sizes near their targets.
 * The session ends with a text reply once the context reaches `peakTokens`.
 */
import path from 'node:path';
import type { ScriptFunction, ScriptedTurn, ToolUseSpec } from '../../test/support/scripted-api.js';
import { loadCorpus, seededRandom, sliceLines } from './corpus.js';
import { evenGrowthShares } from './real-growth.js';

export interface ShapedSessionOptions {
  /** The repository the session works in (absolute paths for Read/Write/Edit). */
  dir: string;
  /** Its files, as written there (relative path -> content). */
  files: Record<string, string>;
  seed: number;
  /** The session ends (a text reply) at the first request this large. */
  peakTokens: number;
  /** No call grows the context past this (under the CLI's own blocking limit). */
  ceilingTokens: number;
  /** At most this many calls, whatever the context. */
  maxCalls: number;
}

/** What the script planned for one call, for the figure's details. */
export interface PlannedCall {
  kind: TurnKind;
  /** The drawn growth share, % of the next request. */
  targetSharePercent: number;
  targetTokens: number;
}

type TurnKind = 'small' | 'read' | 'bash' | 'write' | 'edit';

/** A round trip with almost nothing in it (`git status` and the like): 140-170 tokens of this truth, measured; the base of every call. */
const SMALL_CALL_TOKENS = 170;
/** Tool output one call carries: under claude's 30,000-character Bash limit, Reads of ~10,000 tokens each; the largest call. */
const MAX_BASH_CHARS = 20_000;
const MAX_READ_CHARS = 28_000;
const MAX_CALL_TOKENS = 26_000;
const TEXT_SHARE = 0.35;
/** An Edit also carries its anchor line twice and claude's snippet of the edited lines: about this much more, measured. */
const EDIT_EXTRA_TOKENS = 120;
/** Calls with less content than this teach no tokens-per-character (their fixed part dominates). */
const MIN_LEARN_CHARS = 600;
/** Starting tokens per character of content (p50k on code, scaled 1.2; a Read's line numbers add more, measured); each kind then learns its own. */
const INITIAL_TOKENS_PER_CHAR = 0.33;
const INITIAL_READ_TOKENS_PER_CHAR = 0.39;
/** Commands with next to no output: the smallest call a session makes. */
const SMALL_COMMANDS = ['git status --short', 'wc -l src/module1.ts', 'ls data', 'git rev-parse --short HEAD', 'test -d src && echo ok', 'wc -c logs/build.log'];

export function shapedSession(options: ShapedSessionOptions): { script: ScriptFunction; planned: PlannedCall[] } {
  const corpus = loadCorpus();
  const random = seededRandom(options.seed);
  const abs = (file: string) => path.join(options.dir, file);
  const lines = Object.fromEntries(Object.entries(options.files).map(([file, content]) => [file, content.split('\n')]));
  const readable = Object.keys(lines);
  const written = new Map<string, string>();
  const tokensPerChar: Record<TurnKind, number> = { small: 0, read: INITIAL_READ_TOKENS_PER_CHAR, bash: INITIAL_TOKENS_PER_CHAR, write: INITIAL_TOKENS_PER_CHAR, edit: INITIAL_TOKENS_PER_CHAR };
  const planned: PlannedCall[] = [];
  let previous: { context: number; kind: TurnKind; chars: number; textTokens: number } | undefined;
  let small = 0;
  const nextShare = evenGrowthShares(random);

  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

  /** Whole lines of a file, from a random start, about `chars` long. */
  const slice = (file: string, chars: number): { offset: number; limit: number; chars: number } => {
    const all = lines[file] ?? [];
    const total = all.reduce((n, l) => n + l.length + 1, 0);
    let offset = Math.floor(random() * all.length);
    let tail = all.slice(offset).reduce((n, l) => n + l.length + 1, 0);
    if (tail < Math.min(chars, total)) {
      offset = 0;
      tail = total;
    }
    let limit = 0;
    let taken = 0;
    while (offset + limit < all.length && taken < chars) taken += (all[offset + limit++]?.length ?? 0) + 1;
    return { offset: offset + 1, limit: Math.max(1, limit), chars: taken };
  };

  const readUses = (chars: number): { uses: ToolUseSpec[]; chars: number } => {
    const uses: ToolUseSpec[] = [];
    let left = chars;
    let total = 0;
    while (left > 0 && uses.length < 6) {
      const file = pick(readable);
      const part = slice(file, Math.min(left, MAX_READ_CHARS));
      uses.push({ name: 'Read', input: { file_path: abs(file), offset: part.offset, limit: part.limit } });
      left -= Math.max(part.chars, 1);
      total += part.chars;
    }
    return { uses, chars: total };
  };

  const turnFor = (kind: TurnKind, chars: number): { turn: ScriptedTurn; chars: number; kind: TurnKind } => {
    switch (kind) {
      case 'small':
        return { turn: bash(SMALL_COMMANDS[small++ % SMALL_COMMANDS.length] ?? 'true'), chars: 0, kind };
      case 'bash': {
        const file = pick(readable.filter((f) => !f.endsWith('.json')));
        const part = slice(file, chars);
        const command = random() < 0.3 ? `grep -n "" ${file} | sed -n '${part.offset},${part.offset + part.limit - 1}p'` : `sed -n '${part.offset},${part.offset + part.limit - 1}p' ${file}`;
        return { turn: bash(command), chars: part.chars, kind };
      }
      case 'write': {
        const file = `src/new${written.size}.ts`;
        const content = sliceLines(corpus.text, chars, random);
        written.set(file, content);
        return { turn: { kind: 'tool_use', name: 'Write', input: { file_path: abs(file), content } }, chars: content.length, kind };
      }
      case 'edit': {
        const [file, content] = pick([...written]);
        const anchor = content.split('\n').find((line) => line.trim().length > 20 && content.indexOf(line) === content.lastIndexOf(line));
        if (anchor === undefined) return turnFor('bash', chars);
        const added = sliceLines(corpus.text, chars, random);
        const edited = `${anchor}\n${added}`;
        written.set(file, content.replace(anchor, edited));
        return { turn: { kind: 'tool_use', name: 'Edit', input: { file_path: abs(file), old_string: anchor, new_string: edited } }, chars: added.length, kind };
      }
      case 'read': {
        const reads = readUses(chars);
        const turn: ScriptedTurn = reads.uses.length === 1 && reads.uses[0] !== undefined ? { kind: 'tool_use', ...reads.uses[0] } : { kind: 'tool_use', uses: reads.uses };
        return { turn, chars: reads.chars, kind };
      }
    }
  };

  /** Large calls are mostly Reads (as in real sessions, where Read results are most of the tokens); small ones mostly commands and edits. */
  const kindFor = (contentTokens: number): TurnKind => {
    if (contentTokens < 60) return 'small';
    const u = random();
    if (contentTokens > MAX_BASH_CHARS * INITIAL_TOKENS_PER_CHAR) return u < 0.85 ? 'read' : 'write';
    if (contentTokens > 2_000) return u < 0.65 ? 'read' : u < 0.85 ? 'bash' : 'write';
    if (written.size === 0) return u < 0.4 ? 'bash' : u < 0.7 ? 'read' : 'write';
    return u < 0.35 ? 'bash' : u < 0.6 ? 'read' : u < 0.85 ? 'edit' : 'write';
  };

  const script: ScriptFunction = (request, mainIndex) => {
    const context = request.trueTokens ?? 0;
    if (previous !== undefined && previous.chars >= MIN_LEARN_CHARS) {
      // What the last call's content cost, per character; a pair with an unseen jump in it says nothing.
      const observed = (context - previous.context - baseTokens(previous.kind) - previous.textTokens) / previous.chars;
      const current = tokensPerChar[previous.kind];
      if (observed > current / 2 && observed < current * 2) tokensPerChar[previous.kind] = 0.5 * current + 0.5 * observed;
    }
    if (context >= options.peakTokens || mainIndex >= options.maxCalls) return { kind: 'text', text: 'All done: the modules are read and the new files written.' };
    const share = Math.max(0, nextShare()) / 100;
    const target = Math.min((share * context) / (1 - share), MAX_CALL_TOKENS, options.ceilingTokens - context);
    // A sentence before the calls where the budget has room for it (the smallest calls have none).
    const sentence = sliceLines(corpus.prose, 120, random).split('\n')[0]?.slice(0, 200) || 'Next, the module.';
    const text = random() < TEXT_SHARE && target > SMALL_CALL_TOKENS + 2 * sentence.length * INITIAL_TOKENS_PER_CHAR ? sentence : '';
    const textTokens = text.length * INITIAL_TOKENS_PER_CHAR;
    let kind = kindFor(target - SMALL_CALL_TOKENS - textTokens);
    if (kind === 'edit' && target - baseTokens(kind) - textTokens < 60) kind = 'bash';
    const content = target - baseTokens(kind) - textTokens;
    const chars = Math.max(0, Math.round(content / (tokensPerChar[kind] || INITIAL_TOKENS_PER_CHAR)));
    const built = turnFor(kind, chars);
    planned.push({ kind, targetSharePercent: Math.round(share * 10_000) / 100, targetTokens: Math.round(target) });
    previous = { context, kind: built.kind, chars: built.chars, textTokens };
    return text === '' || built.turn.kind !== 'tool_use' ? built.turn : { ...built.turn, text };
  };
  return { script, planned };
}

function baseTokens(kind: TurnKind): number {
  return kind === 'edit' ? SMALL_CALL_TOKENS + EDIT_EXTRA_TOKENS : SMALL_CALL_TOKENS;
}

function bash(command: string): ScriptedTurn {
  return { kind: 'tool_use', name: 'Bash', input: { command, description: command.slice(0, 40) } };
}
