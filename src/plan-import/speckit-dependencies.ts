/**
 * spec-kit's dependency section, read into phase dependencies. tasks.md writes it in prose:
 *
 *   ### Phase Dependencies
 *   - **Setup (Phase 1)**: No dependencies - can start immediately
 *   - **Foundational (Phase 2)**: Depends on Setup completion - BLOCKS all user stories
 *   - **User Stories (Phase 3+)**: All depend on Foundational phase completion
 *   - **Polish (Final Phase)**: Depends on all desired user stories being complete
 *
 * Each top-level bullet's bold label names the phases it is about (by number, `3+`, `3-5`, `Final
 * Phase`, or by title); the text after "depends on" names what they wait for (`Phase 2`, a title
 * such as "Setup", `User Story 1`, "all user stories", a task id such as T004). A remark after ` - `
 * or `;` is not read: "BLOCKS all user stories" says who waits, not what for. Pure.
 */
import { findSections, stripInlineMarkup, type MarkdownLine } from '../plan/markdown.js';

export interface SpeckitPhaseRef {
  id: string;
  /** Without the priority and emoji: `User Story 1 - Word counts`. */
  title: string;
  taskIds: string[];
}

const BULLET = /^[-*]\s+(?:\*\*(.+?)\*\*|__(.+?)__|([^:]+?))\s*:\s*(.*)$/;
const NONE = /^(?:none|no dependenc\w*|n\/a|nothing|independent|can start (?:immediately|any\s?time))\b/i;

export function readPhaseDependencies(lines: MarkdownLine[], phases: SpeckitPhaseRef[]): { byPhase: Map<string, string[]>; notices: string[] } {
  const notices: string[] = [];
  const byPhase = new Map<string, string[]>();
  const section = findSections(lines, (text) => /^phase dependencies$/i.test(text))[0] ?? findSections(lines, (text) => /\bdependenc/i.test(text) && !/^phase\s/i.test(text))[0];
  if (section === undefined) {
    notices.push('tasks.md has no dependency section: its phases are imported without dependencies and run in their order in the file');
    return { byPhase, notices };
  }
  const explicit = new Map<string, Set<string>>();
  const openEnded = new Map<string, Set<string>>();
  const named = new Set<string>();
  for (const line of section.body) {
    if (line.inFence || line.heading !== undefined) continue;
    const bullet = BULLET.exec(line.text); // top-level bullets only: nested ones are remarks
    if (bullet === null) continue;
    const label = stripInlineMarkup(bullet[1] ?? bullet[2] ?? bullet[3] ?? '');
    const subject = subjectOf(label, phases);
    if (subject.ids.length === 0) {
      if (/\bphase\b|user stor/i.test(label)) notices.push(`dependency bullet "${label}": it names no phase of this tasks.md, so it is not read`);
      continue;
    }
    const text = stripInlineMarkup(bullet[4] ?? '');
    const targets = targetsOf(text, phases);
    if (targets === undefined) {
      notices.push(`dependency bullet "${label}": "${text}" names no phase, so it is not read`);
      continue;
    }
    for (const id of subject.ids) {
      named.add(id);
      const into = subject.openEnded ? openEnded : explicit;
      const set = into.get(id) ?? new Set<string>();
      for (const target of targets) if (target !== id) set.add(target);
      into.set(id, set);
    }
  }
  const unnamed: string[] = [];
  for (const phase of phases) {
    const deps = explicit.get(phase.id) ?? openEnded.get(phase.id);
    if (deps === undefined) unnamed.push(phase.id);
    else byPhase.set(phase.id, [...deps]);
  }
  if (unnamed.length > 0) notices.push(`the dependency section names no dependencies for phase ${unnamed.join(', ')}: imported without any`);
  return { byPhase, notices };
}

/** The phases a label is about: `Setup (Phase 1)`, `User Stories (Phase 3+)`, `Polish (Final Phase)`, `User Story 2`. */
function subjectOf(label: string, phases: SpeckitPhaseRef[]): { ids: string[]; openEnded: boolean } {
  const ids = phases.map((phase) => phase.id);
  if (/\b(?:final|last)\s+phase\b/i.test(label)) return { ids: ids.slice(-1), openEnded: false };
  const from = /\bphases?\s+(\d+)\s*\+/i.exec(label)?.[1];
  if (from !== undefined) return { ids: ids.filter((id) => Number(id) >= Number(from)), openEnded: true };
  const numbered = phaseNumbers(label, ids);
  if (numbered.length > 0) return { ids: numbered, openEnded: false };
  return { ids: phasesNamed(label, phases), openEnded: /user stories/i.test(label) };
}

/** What a bullet's text says the phases wait for; [] for none; undefined when it names nothing. */
function targetsOf(text: string, phases: SpeckitPhaseRef[]): string[] | undefined {
  const clause = text.split(/\s[-–—]\s|;\s|\.\s/)[0] ?? '';
  const after = /\b(?:depends?|depend)\s+on\b|\bafter\b|\brequires?\b|\bblocked\s+by\b/i.exec(clause);
  const wanted = after === null ? clause : clause.slice(after.index + after[0].length);
  if (NONE.test(clause.trim()) || NONE.test(wanted.trim())) return [];
  const ids = phases.map((phase) => phase.id);
  const found = new Set<string>([...phaseNumbers(wanted, ids), ...phasesNamed(wanted, phases)]);
  for (const task of wanted.matchAll(/\bT\d{3,}\b/g)) {
    const owner = phases.find((phase) => phase.taskIds.includes(task[0]));
    if (owner !== undefined) found.add(owner.id);
  }
  if (/\ball\b.*\b(?:previous|prior|earlier|other)?\s*phases\b/i.test(wanted)) for (const id of ids) found.add(id);
  return found.size === 0 ? undefined : [...found];
}

/** `Phase 2`, `Phases 3-5`, `Phase 2, 3, 4`, `Phase 3 and Phase 4`: ids that exist. */
function phaseNumbers(text: string, ids: string[]): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/\bphases?\s+((?:\d+(?:\.\d+)?(?:\s*[-–]\s*\d+)?(?:\s*(?:,|and|&)\s*(?:phase\s+)?)?)+)/gi)) {
    for (const part of (match[1] ?? '').split(/\s*(?:,|and|&)\s*(?:phase\s+)?/i)) {
      const range = /^(\d+)\s*[-–]\s*(\d+)$/.exec(part.trim());
      if (range !== null) found.push(...ids.filter((id) => Number(id) >= Number(range[1]) && Number(id) <= Number(range[2])));
      else if (ids.includes(part.trim())) found.push(part.trim());
    }
  }
  return [...new Set(found)];
}

/**
 * Phases a text names by title: "User Story 2" or "US2" by number; "all (desired) user stories" or
 * "User Stories" every user-story phase; otherwise the first word of a title ("Setup", "Foundational").
 */
function phasesNamed(text: string, phases: SpeckitPhaseRef[]): string[] {
  const found = new Set<string>();
  const storyNumber = (title: string): string | undefined => /^user\s+story\s+(\d+)/i.exec(title)?.[1];
  for (const match of text.matchAll(/\b(?:user\s+story\s+|US\s?)(\d+)\b/gi)) {
    for (const phase of phases) if (storyNumber(phase.title) === match[1]) found.add(phase.id);
  }
  if (/\buser\s+stories\b/i.test(text)) for (const phase of phases) if (storyNumber(phase.title) !== undefined) found.add(phase.id);
  // "Foundation" names the "Foundational" phase, and the other way round.
  const words = [...text.matchAll(/\p{L}{4,}/gu)].map((match) => match[0].toLowerCase());
  for (const phase of phases) {
    if (storyNumber(phase.title) !== undefined) continue;
    const word = /^\p{L}+/u.exec(phase.title)?.[0]?.toLowerCase();
    if (word !== undefined && word.length >= 4 && words.some((candidate) => candidate.startsWith(word) || word.startsWith(candidate))) found.add(phase.id);
  }
  return [...found];
}
