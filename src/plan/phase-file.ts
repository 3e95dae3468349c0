import { parseGates } from './gates.js';
import { findSections, scanMarkdown, stripInlineMarkup, type MarkdownLine } from './markdown.js';
import { notesToRead, notesToWrite } from './notes.js';
import { isPhaseIdToken, parseDependencyList, phaseReferencesInLine, type LinkToPhaseId } from './phase-ids.js';
import { normaliseStatus } from './status.js';
import type { AuditFinding, DependencyRef, PhaseFile } from './types.js';

export interface PhaseFileContext {
  /** Maps a dependency link (resolved against the phase file) to a master-table phase id. */
  linkToId: LinkToPhaseId;
  gateCommands?: Record<string, string>;
}

// `**Status:** Pending`, `**Status**: Pending`, `- **Status:** Pending`.
const FIELD = /^\s*(?:[-*+]\s+)?\*\*([^*]+?)\s*:?\s*\*\*\s*:?\s*(.*)$/;
const TASK = /^\s*(?:[-*+]|\d+[.)])\s+\[([ xX])\]/;
// `debussy done --phase 6D`, `debussy done --phase=6D --status completed`, in prose, a code span or a block.
const COMPLETION_SIGNAL = /\bdebussy\s+done\b[^\n`]*?\s--phase(?:=|\s+)["']?([^\s"'`]+)/g;

/** Pure: what a phase file says about itself, plus findings about parts it could not read. */
export function parsePhaseFile(text: string, path: string, context: PhaseFileContext): { file: PhaseFile; findings: AuditFinding[] } {
  const lines = scanMarkdown(text);
  const findings: AuditFinding[] = [];
  const title = lines.find((line) => line.heading?.level === 1)?.heading?.text;

  const statusField = findField(lines, /^status$/i);
  const statusText = statusField === undefined ? undefined : stripInlineMarkup(statusField.value);
  const status = statusText === undefined || statusText === '' ? undefined : normaliseStatus(statusText);
  if (statusField !== undefined && statusText !== undefined && statusText !== '' && status === undefined) {
    findings.push({
      severity: 'warning',
      code: 'unknown-status',
      message: `unknown status "${statusText}"; use pending, in progress, completed, failed, blocked or skipped`,
      file: path,
      line: statusField.line,
    });
  }

  const dependencyRefs: DependencyRef[] = [];
  const dependsField = findField(lines, /^(?:depends on|depends|dependencies)$/i);
  if (dependsField !== undefined) {
    const parsed = parseDependencyList(dependsField.value, context.linkToId);
    dependencyRefs.push(...parsed.ids.map((id) => ({ id, file: path, line: dependsField.line })));
    if (parsed.unrecognised.length > 0) {
      findings.push({
        severity: 'warning',
        code: 'unclear-dependency',
        message: `"Depends On" names no phase in: ${parsed.unrecognised.map((part) => `"${part}"`).join(', ')}`,
        file: path,
        line: dependsField.line,
      });
    }
  }
  for (const section of findSections(lines, (heading) => /^(?:dependencies|depends on|prerequisites)\b/i.test(heading))) {
    for (const line of section.body) {
      if (line.inFence || line.heading !== undefined) continue;
      dependencyRefs.push(...phaseReferencesInLine(line.text, context.linkToId).map((id) => ({ id, file: path, line: line.number })));
    }
  }

  const file: PhaseFile = {
    path,
    title,
    statusText: statusText === '' ? undefined : statusText,
    status,
    dependencyRefs: firstRefs(dependencyRefs),
    gates: parseGates(lines, context.gateCommands),
    tasks: countTasks(lines),
    notesToWrite: notesToWrite(lines),
    notesToRead: notesToRead(lines),
    completionSignals: completionSignals(lines),
  };
  return { file, findings };
}

/** One ref per id and line: a line that names a phase twice is one mention. */
function firstRefs(refs: DependencyRef[]): DependencyRef[] {
  const seen = new Set<string>();
  return refs.filter((ref) => {
    const key = `${ref.id}\u0000${ref.line}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Every completion signal the file spells out. Placeholders (`--phase <id>`, `{{id}}`) are no ids. */
function completionSignals(lines: MarkdownLine[]): { id: string; line: number }[] {
  const found: { id: string; line: number }[] = [];
  for (const line of lines) {
    for (const match of line.text.matchAll(COMPLETION_SIGNAL)) {
      const id = (match[1] ?? '').replace(/[.,;:)]+$/, '');
      if (isPhaseIdToken(id)) found.push({ id, line: line.number });
    }
  }
  return found;
}

/** The first `**Name:** value` line outside code whose name matches. */
function findField(lines: MarkdownLine[], name: RegExp): { value: string; line: number } | undefined {
  for (const line of lines) {
    if (line.inFence) continue;
    const match = FIELD.exec(line.text);
    if (match !== null && name.test((match[1] ?? '').trim())) return { value: (match[2] ?? '').trim(), line: line.number };
  }
  return undefined;
}

function countTasks(lines: MarkdownLine[]): { total: number; done: number } {
  let total = 0;
  let done = 0;
  for (const line of lines) {
    const match = line.inFence ? null : TASK.exec(line.text);
    if (match === null) continue;
    total += 1;
    if (match[1] !== ' ') done += 1;
  }
  return { total, done };
}
