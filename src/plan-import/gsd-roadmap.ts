/**
 * GSD's .planning/ROADMAP.md: a checklist of phases (`- [x] **Phase 1: Name**`), then a section per
 * phase (`### Phase 1: Name`) with `**Goal**:`, `**Depends on**:`, `**Success Criteria**` and its
 * `Plans:` checklist (`- [x] 01-02: ...` or `- [ ] 01-02-PLAN.md — ...`). Pure.
 */
import { scanMarkdown } from '../plan/markdown.js';

export interface RoadmapPlan {
  /** As written: `01-02`. */
  id: string;
  checked: boolean;
  description: string;
}

export interface RoadmapPhase {
  /** Leading zeros dropped: `1`, `2.1`. */
  id: string;
  /** As written in the heading: `01`, `2.1`. */
  writtenId: string;
  name: string;
  goal: string | undefined;
  dependsOn: string | undefined;
  requirements: string | undefined;
  successCriteria: string[];
  plans: RoadmapPlan[];
  /** Its line in the summary checklist is ticked. */
  checked: boolean;
}

export interface Roadmap {
  title: string | undefined;
  overview: string | undefined;
  phases: RoadmapPhase[];
}

const PHASE_HEADING = /^(?:[^\w\s]+\s*)?Phase\s+(?:[A-Z]+-)?(\d+[A-Za-z]?(?:\.\d+)*)\s*:\s*(.+)$/i;
const SUMMARY_ITEM = /^\s*[-*]\s+\[([ xX])\]\s+.*?\bPhase\s+(?:[A-Z]+-)?(\d+[A-Za-z]?(?:\.\d+)*)\s*[:\s*]/;
const FIELD = /^\s*\*\*([^*]+?)\*\*\s*:?\s*(?:\([^)]*\)\s*)?:?\s*(.*)$/;
const FIELD_INSIDE = /^\s*\*\*([^*:]+?):\*\*\s*(.*)$/;
const PLAN_ITEM = /^\s*[-*]\s+\[([ xX])\]\s+(?:\*\*)?(\d+(?:\.\d+)*-\d+)(?:-PLAN\.md)?(?:\*\*)?\s*(?:[:—–-]\s*)?(.*)$/i;
const NUMBERED = /^\s*\d+[.)]\s+(.*)$/;

/** `01` -> `1`, `02.1` -> `2.1`: how GSD's padded and unpadded ids are matched. */
export function normalizeGsdId(id: string): string {
  return id
    .split('.')
    .map((part) => part.replace(/^0+(?=\d)/, ''))
    .join('.');
}

function field(text: string): { name: string; value: string } | undefined {
  const match = FIELD_INSIDE.exec(text) ?? FIELD.exec(text);
  if (match === null) return undefined;
  return { name: (match[1] ?? '').trim().toLowerCase(), value: (match[2] ?? '').trim() };
}

export function parseRoadmap(text: string): Roadmap {
  const lines = scanMarkdown(text);
  const h1 = lines.find((line) => line.heading?.level === 1)?.heading?.text;
  const checked = new Set<string>();
  for (const line of lines) {
    const item = line.inFence ? null : SUMMARY_ITEM.exec(line.text);
    if (item !== null && item[1] !== ' ') checked.add(normalizeGsdId(item[2] ?? ''));
  }

  type Reading = RoadmapPhase & { level: number; listing: 'criteria' | 'plans' | undefined };
  const phases: Reading[] = [];
  let current: Reading | undefined;
  const overview: string[] = [];
  let inOverview = false;
  for (const line of lines) {
    if (line.inFence) continue;
    const heading = line.heading;
    if (heading !== undefined) {
      const phase = PHASE_HEADING.exec(heading.text);
      if (current !== undefined && (phase !== null || heading.level <= current.level)) {
        phases.push(current);
        current = undefined;
      }
      inOverview = heading.level === 2 && /^overview$/i.test(heading.text.trim());
      if (phase !== null) {
        const writtenId = phase[1] ?? '';
        current = {
          id: normalizeGsdId(writtenId), writtenId, name: cleanName(phase[2] ?? ''), goal: undefined, dependsOn: undefined, requirements: undefined,
          successCriteria: [], plans: [], checked: checked.has(normalizeGsdId(writtenId)), level: heading.level, listing: undefined,
        };
      }
      continue;
    }
    if (inOverview && line.text.trim() !== '') overview.push(line.text.trim());
    if (current === undefined) continue;
    readPhaseLine(current, line.text);
  }
  if (current !== undefined) phases.push(current);
  return {
    title: h1?.replace(/^roadmap\s*[:\-–—]?\s*|\s*[:\-–—]?\s*roadmap$/gi, '').trim() || undefined,
    overview: overview.length > 0 ? overview.join(' ') : undefined,
    phases: phases.map(({ level: _level, listing: _listing, ...phase }) => phase),
  };
}

function readPhaseLine(phase: RoadmapPhase & { listing: 'criteria' | 'plans' | undefined }, text: string): void {
  const plan = PLAN_ITEM.exec(text);
  if (plan !== null) {
    phase.plans.push({ id: plan[2] ?? '', checked: plan[1] !== ' ', description: (plan[3] ?? '').trim() });
    return;
  }
  const named = field(text);
  if (named !== undefined) {
    phase.listing = undefined;
    if (named.name === 'goal') phase.goal = named.value;
    else if (named.name === 'depends on' || named.name === 'depends') phase.dependsOn = named.value;
    else if (named.name === 'requirements') phase.requirements = named.value;
    else if (named.name.startsWith('success criteria')) phase.listing = 'criteria';
    return;
  }
  if (/^\s*plans\s*:/i.test(text)) {
    phase.listing = 'plans';
    return;
  }
  const numbered = NUMBERED.exec(text);
  if (numbered !== null && phase.listing === 'criteria') phase.successCriteria.push((numbered[1] ?? '').trim());
}

/** `Critical Fix (INSERTED)` -> `Critical Fix`; bold markers and a trailing emoji go too. */
function cleanName(text: string): string {
  return text
    .replace(/\*\*/g, '')
    .replace(/\(INSERTED\)/i, '')
    .replace(/[^\p{L}\p{N})\]]+$/u, '')
    .trim();
}

/**
 * A phase's `**Depends on**:` as ids, given the phases before it in the roadmap: `Phase 2`,
 * `Phase 1 + Phase 2`, `Phases 1-3`, `Phase 1 through Phase 5`, `All phases`; `Nothing (first
 * phase)` is none. Parenthesised remarks name nothing. `unclear` when the text names no phase.
 */
export function gsdDependencies(text: string | undefined, earlier: string[]): { ids: string[]; unclear: boolean } {
  if (text === undefined) return { ids: [], unclear: false };
  const plain = text.replace(/\([^)]*\)/g, ' ').replace(/\*\*/g, '').trim();
  if (plain === '' || /^(?:nothing|none|n\/?a|no dependenc\w*|-+|—|–)\b/i.test(plain)) return { ids: [], unclear: false };
  if (/^all\b/i.test(plain)) return { ids: [...earlier], unclear: false };
  const ids: string[] = [];
  const withoutRanges = plain.replace(/phases?\s+(\d[\d.]*)\s*(?:-|–|to|through|thru)\s*(?:phase\s+)?(\d[\d.]*)/gi, (_match, from: string, to: string) => {
    const start = earlier.indexOf(normalizeGsdId(from));
    const end = earlier.indexOf(normalizeGsdId(to));
    ids.push(...(start !== -1 && end >= start ? earlier.slice(start, end + 1) : [normalizeGsdId(from), normalizeGsdId(to)]));
    return ' ';
  });
  for (const match of withoutRanges.matchAll(/\b(\d+[A-Za-z]?(?:\.\d+)*)\b/g)) ids.push(normalizeGsdId(match[1] ?? ''));
  return { ids: [...new Set(ids)], unclear: ids.length === 0 };
}
