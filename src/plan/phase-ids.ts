import { replaceLinks, stripInlineMarkup, type MarkdownLink } from './markdown.js';

const ID_SHAPE = /^[A-Za-z0-9]+(?:\.[A-Za-z0-9]+)*$/;

/**
 * Phase ids are short tokens: `1`, `3.1`, `6D`, `2b`, `A`. A token must hold a digit or be one or
 * two capital letters, so ordinary words ("is", "Setup") are never taken for ids.
 */
export function isPhaseIdToken(token: string): boolean {
  return token.length <= 12 && ID_SHAPE.test(token) && (/\d/.test(token) || /^[A-Z]{1,2}$/.test(token));
}

/** The id at the start of a Phase cell or link text: `**3.1**`, `Phase 6D`, `2b: Setup`. */
export function leadingPhaseId(text: string): { id: string; rest: string } | undefined {
  const cleaned = stripInlineMarkup(text);
  const match = /^(?:phase\s*)?([A-Za-z0-9]+(?:\.[A-Za-z0-9]+)*)(.*)$/i.exec(cleaned);
  const id = match?.[1];
  if (id !== undefined && isPhaseIdToken(id)) {
    return { id, rest: (match?.[2] ?? '').replace(/^\s*[:.\-–—)]?\s*/, '').trim() };
  }
  return undefined;
}

export interface DependencyList {
  ids: string[];
  /** Parts of the text that named no phase, for a warning. */
  unrecognised: string[];
}

/** Maps a link in dependency text to a phase id (by the file it points at), or undefined. */
export type LinkToPhaseId = (link: MarkdownLink) => string | undefined;

const NONE_WORDS = /^(?:none|n\/?a|nothing|independent|standalone|no(?:\s+(?:dependency|dependencies|prerequisites?))?|-+|—|–)$/i;
const FILLER = new Set(['phase', 'phases', 'and', '&', 'none']);

/** Parenthesised remarks qualify what they follow ("2 (API only)", "N/A (first phase)"); they name nothing. */
function withoutRemarks(text: string): string {
  return text.replace(/\([^)]*\)/g, ' ').replace(/\s[-–—]\s.*$/, ' ').trim();
}

/** The words before a sentence break: "none; it can run any time" says "none". */
function firstClause(text: string): string {
  return text.replace(/[;].*$/, '');
}

/**
 * True for dependency wording that means there is none: `None`, `N/A`, `Independent`, `-`, `—`,
 * an empty cell, also with a remark: `N/A (runs in parallel with Phase 1)`, `None - first phase`.
 * The remark may mention phases; it still names no dependency.
 */
export function meansNoDependency(text: string): boolean {
  const cleaned = withoutRemarks(firstClause(stripInlineMarkup(text))).replace(/[.:;,]+$/, '').trim();
  return cleaned === '' || NONE_WORDS.test(cleaned);
}

/**
 * A list of dependencies as written in a table cell or a `**Depends On:**` line:
 * `1, 2`, `Phase 2 and Phase 3`, `[Phase 1](phase-1.md)`, `None`, `-`, `1-3`,
 * `Phase 1 (Fetcher) - needs its data types`.
 */
export function parseDependencyList(text: string, linkToId: LinkToPhaseId): DependencyList {
  if (meansNoDependency(replaceLinks(text))) return { ids: [], unrecognised: [] };
  // A link to a file the table does not name still says which phase it means: `[Phase 1: Setup](old-name.md)`.
  const withIds = replaceLinks(text, (link) => ` ${linkToId(link) ?? leadingPhaseId(link.text)?.id ?? link.text} `);
  const cleaned = withoutRemarks(stripInlineMarkup(withIds));
  const ids: string[] = [];
  const unrecognised: string[] = [];
  for (const raw of cleaned.split(/[\s,;/]+/)) {
    const token = raw.replace(/^[.:]+|[.:]+$/g, '');
    if (token === '' || FILLER.has(token.toLowerCase())) continue;
    const range = /^(\d+)[-–](\d+)$/.exec(token);
    if (range !== null) {
      ids.push(...expandRange(Number(range[1]), Number(range[2])));
    } else if (isPhaseIdToken(token)) {
      ids.push(token);
    } else {
      unrecognised.push(token);
    }
  }
  return { ids: unique(ids), unrecognised };
}

function expandRange(from: number, to: number): string[] {
  if (to < from || to - from > 50) return [`${from}-${to}`];
  return Array.from({ length: to - from + 1 }, (_, offset) => String(from + offset));
}

const NOT_PHASES = /^(?:internal|external|libraries|library|packages|tools|services|systems|apis?|none|n\/a)\b/i;
const LISTS_PHASES = /\b(?:phases?|depends(?: on)?|dependencies|prerequisites?|requires|after)\s*$/i;
const PHASE_MENTION = /\bphases?\s+([A-Za-z0-9.]+(?:[-–]\d+)?(?:\s*(?:,|&|\band\b)\s*(?:phases?\s+)?[A-Za-z0-9.]+(?:[-–]\d+)?)*)/gi;
// "runs in parallel with Phase 1", "independent of Phase 2": a mention that denies the dependency.
const DENIES_DEPENDENCY = /\b(?:parallel\s+(?:with|to)|alongside|independent(?:ly)?\s+(?:of|from)|not\s+(?:depend\w*\s+on|need|require)\w*|no\s+dependenc\w*\s+on|without|unlike|instead\s+of|before)\s+$/i;

/**
 * Phase references in one line of a `## Dependencies` section. The section mixes phases with
 * other things ("Internal: Orchestrator", "External: None"), so only clear references count:
 * links to phase files, "Phase N" mentions, and ids listed under a phase label such as
 * "Previous phases: ALL (1, 2, 3)".
 */
export function phaseReferencesInLine(line: string, linkToId: LinkToPhaseId): string[] {
  const content = line.replace(/^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?/, '').replace(/`[^`]*`/g, ' ');
  if (NOT_PHASES.test(stripInlineMarkup(content))) return [];
  // "Previous phase: N/A (runs in parallel with Phase 1)", "- None": the line says there is none.
  const plain = stripInlineMarkup(replaceLinks(content));
  if (meansNoDependency(plain) || meansNoDependency(plain.slice(plain.indexOf(':') + 1))) return [];

  const ids: string[] = [];
  const text = stripInlineMarkup(
    replaceLinks(content, (link) => {
      const id = linkToId(link);
      if (id !== undefined) ids.push(id);
      return id === undefined ? link.text : ' ';
    }),
  );
  let affirmed = text;
  for (const mention of text.matchAll(PHASE_MENTION)) {
    if (DENIES_DEPENDENCY.test(text.slice(0, mention.index))) {
      // Blanked, so the label's id list below does not read it back either.
      affirmed = affirmed.slice(0, mention.index) + ' '.repeat(mention[0].length) + affirmed.slice(mention.index + mention[0].length);
      continue;
    }
    for (const token of (mention[1] ?? '').split(/\s*(?:,|&|\band\b)\s*(?:phases?\s+)?/i)) {
      ids.push(...idsInToken(token.replace(/\.+$/, '')));
    }
  }
  const colon = affirmed.indexOf(':');
  const label = colon === -1 ? '' : affirmed.slice(0, colon);
  if (LISTS_PHASES.test(label)) {
    for (const token of affirmed.slice(colon + 1).split(/[\s,;()]+/)) {
      const cleaned = token.replace(/^[.:]+|[.:]+$/g, '');
      if (/\d/.test(cleaned)) ids.push(...idsInToken(cleaned));
    }
  }
  return unique(ids);
}

/** `3`, `6D`, or a range `1-3` expanded; nothing for a word. */
function idsInToken(token: string): string[] {
  const range = /^(\d+)[-–](\d+)$/.exec(token);
  if (range !== null) return expandRange(Number(range[1]), Number(range[2]));
  return isPhaseIdToken(token) ? [token] : [];
}

export function unique(values: string[]): string[] {
  return [...new Set(values)];
}
