import { dirname, resolve } from 'node:path';
import { cutText } from '../redact/redact-then-cut.js';
import { decodeLinkTarget, findLinks, isLocalFileLink, replaceLinks, scanMarkdown, stripInlineMarkup, type MarkdownLine } from './markdown.js';
import { leadingPhaseId, parseDependencyList, type LinkToPhaseId } from './phase-ids.js';
import { normaliseStatus } from './status.js';
import { findTables, type MarkdownTable, type TableCell, type TableRow } from './table.js';
import type { AuditFinding, Phase } from './types.js';

/** Which column of a phase table holds what; found by header name, never by position. */
export interface PhaseColumns {
  id: number;
  title: number | undefined;
  status: number | undefined;
  dependsOn: number | undefined;
}

const ID_HEADERS = /^phase(?:\s*(?:#|id|no\.?|number))?$/;
const TITLE_HEADERS = ['title', 'name', 'phase name', 'phase title', 'focus', 'summary', 'goal', 'objective', 'description'];
const STATUS_HEADERS = /^(?:status|state)$/;
const DEPENDS_HEADERS = /^(?:depends on|depends|dependencies|deps|depends on phases?|prerequisites?|requires)$/;

function headerKey(cell: TableCell): string {
  return stripInlineMarkup(cell.text).toLowerCase().replace(/\s+/g, ' ');
}

export function phaseColumns(header: TableCell[]): PhaseColumns | undefined {
  const keys = header.map(headerKey);
  const id = keys.findIndex((key) => ID_HEADERS.test(key));
  if (id === -1) return undefined;
  const titleRank = (key: string): number => TITLE_HEADERS.indexOf(key);
  const titles = keys.map((key, index) => ({ index, rank: titleRank(key) })).filter((entry) => entry.rank !== -1 && entry.index !== id);
  titles.sort((a, b) => a.rank - b.rank);
  const optional = (pattern: RegExp): number | undefined => {
    const index = keys.findIndex((key) => pattern.test(key));
    return index === -1 ? undefined : index;
  };
  return { id, title: titles[0]?.index, status: optional(STATUS_HEADERS), dependsOn: optional(DEPENDS_HEADERS) };
}

/**
 * The phase tables: the first table with a Phase column, plus any later one with a Phase column
 * that links files (plans split into stages). A later table without links (a progress log that
 * repeats the ids) is not a phase table.
 */
export function findPhaseTables(lines: MarkdownLine[]): { table: MarkdownTable; columns: PhaseColumns }[] {
  const found: { table: MarkdownTable; columns: PhaseColumns }[] = [];
  for (const table of findTables(lines)) {
    const columns = phaseColumns(table.header);
    if (columns === undefined) continue;
    const linksFiles = table.rows.some((row) => findLinks(row.raw).some(isLocalFileLink));
    if (found.length === 0 || linksFiles) found.push({ table, columns });
  }
  return found;
}

/** A table row read as a phase, before its phase file is read. */
export type PhaseRow = Omit<Phase, 'file'> & { titleFromTable: boolean };

export interface MasterPlanParse {
  name: string | undefined;
  hasPhaseTable: boolean;
  rows: PhaseRow[];
  findings: AuditFinding[];
}

/** Pure: the plan name and phase rows of a master plan, plus findings for rows it cannot read. */
export function parseMasterPlan(text: string, masterPath: string): MasterPlanParse {
  const lines = scanMarkdown(text);
  const h1 = lines.find((line) => line.heading?.level === 1)?.heading?.text;
  const name = h1 === undefined ? undefined : stripInlineMarkup(h1).replace(/\s*[-–—:]\s*master\s+plan\s*$/i, '').trim();
  const tables = findPhaseTables(lines);
  const findings: AuditFinding[] = [];
  const pending: { row: TableRow; columns: PhaseColumns; header: TableCell[]; phase: PhaseRow }[] = [];
  for (const { table, columns } of tables) {
    for (const row of table.rows) {
      if (row.cells.every((cell) => cell.text === '')) continue;
      const result = readRow(row, columns, table.header, masterPath);
      if (typeof result === 'string') {
        findings.push({ severity: 'error', code: 'unparseable-row', message: `${result}: ${abbreviate(row.raw)}`, file: masterPath, line: row.line });
      } else {
        pending.push({ row, columns, header: table.header, phase: result });
      }
    }
  }

  findings.push(...strayRows(lines, tables, masterPath));

  // Dependencies may link phase files; map those links once every row's file is known.
  const linkToId = linkResolver(pending.map((entry) => entry.phase), dirname(masterPath));
  for (const { row, columns, phase } of pending) {
    const cell = columns.dependsOn === undefined ? undefined : row.cells[columns.dependsOn];
    if (cell !== undefined) {
      const parsed = parseDependencyList(cell.text, linkToId);
      phase.dependsOn = parsed.ids;
      phase.dependencyRefs = parsed.ids.map((id) => ({ id, file: masterPath, line: row.line }));
      if (parsed.unrecognised.length > 0) {
        findings.push({
          severity: 'warning',
          code: 'unclear-dependency',
          message: `phase ${phase.id}: the dependency cell names no phase in: ${parsed.unrecognised.map((part) => `"${part}"`).join(', ')}`,
          file: masterPath,
          line: row.line,
          phaseId: phase.id,
        });
      }
    }
    const statusCell = columns.status === undefined ? undefined : row.cells[columns.status];
    const statusText = statusCell === undefined || statusCell.text === '' ? undefined : stripInlineMarkup(statusCell.text);
    phase.statusText = statusText;
    phase.status = statusText === undefined ? undefined : normaliseStatus(statusText);
    if (statusText !== undefined && phase.status === undefined) {
      findings.push({
        severity: 'warning',
        code: 'unknown-status',
        message: `phase ${phase.id}: unknown status "${statusText}"; use pending, in progress, completed, failed, blocked or skipped`,
        file: masterPath,
        line: row.line,
        phaseId: phase.id,
      });
    }
  }
  return { name, hasPhaseTable: tables.length > 0, rows: pending.map((entry) => entry.phase), findings };
}

/** A phase from one row, or why the row is not one. */
function readRow(row: TableRow, columns: PhaseColumns, header: TableCell[], masterPath: string): PhaseRow | string {
  const idCell = row.cells[columns.id]?.text ?? '';
  const parsedId = leadingPhaseId(replaceLinks(idCell));
  if (parsedId === undefined) return `phase table row has no phase id in its "${header[columns.id]?.text ?? 'Phase'}" column`;

  // The link is usually in the Phase or title cell, but any cell other than status/dependencies will do.
  const roles = new Set([columns.status, columns.dependsOn]);
  const order = [columns.id, columns.title, ...row.cells.map((_, index) => index)];
  const linkCell = order.find((index) => index !== undefined && !roles.has(index) && firstFileLink(row.cells[index]?.text ?? '') !== undefined);
  const link = linkCell === undefined ? undefined : firstFileLink(row.cells[linkCell]?.text ?? '');
  if (link === undefined) return `phase ${parsedId.id} has no link to its phase file (write it as [Title](phase-file.md))`;

  const titleCell = columns.title === undefined ? '' : stripInlineMarkup(replaceLinks(row.cells[columns.title]?.text ?? ''));
  const fromLink = leadingPhaseId(link.text)?.id === parsedId.id ? (leadingPhaseId(link.text)?.rest ?? '') : stripInlineMarkup(link.text);
  const fromIdCell = parsedId.rest;
  const title = titleCell !== '' ? titleCell : fromLink !== '' ? fromLink : fromIdCell;

  const extra: Record<string, string> = {};
  row.cells.forEach((cell, index) => {
    if (index === columns.id || index === columns.title || roles.has(index)) return;
    const key = header[index] === undefined ? `column ${index + 1}` : stripInlineMarkup(header[index].text);
    extra[key] = cell.text;
  });

  return {
    id: parsedId.id,
    title: title === '' ? `Phase ${parsedId.id}` : title,
    titleFromTable: title !== '',
    link: link.target,
    path: resolve(dirname(masterPath), decodeLinkTarget(link.target)),
    status: undefined,
    statusText: undefined,
    dependsOn: [],
    dependencyRefs: [],
    extra,
    line: row.line,
  };
}

/**
 * Rows that link a file but belong to no table: usually a phase table split by a blank line,
 * whose second half markdown reads as plain text. Reported so the phases are not lost silently.
 */
function strayRows(lines: MarkdownLine[], tables: { table: MarkdownTable }[], masterPath: string): AuditFinding[] {
  if (tables.length === 0) return [];
  const inTables = new Set(findTables(lines).flatMap((table) => [table.headerLine, table.headerLine + 1, ...table.rows.map((row) => row.line)]));
  return lines
    .filter((line) => !line.inFence && !inTables.has(line.number) && line.text.trimStart().startsWith('|') && firstFileLink(line.text) !== undefined)
    .map((line) => ({
      severity: 'error' as const,
      code: 'unparseable-row',
      message: `this row is not part of the phase table (is a blank line or text splitting the table?): ${abbreviate(line.text)}`,
      file: masterPath,
      line: line.number,
    }));
}

function firstFileLink(text: string): { text: string; target: string } | undefined {
  return findLinks(text).find(isLocalFileLink);
}

/** Maps a link, resolved against `baseDir`, to the id of the phase whose file it names. */
export function linkResolver(phases: { id: string; path: string }[], baseDir: string): LinkToPhaseId {
  const idByPath = new Map<string, string>();
  for (const phase of phases) if (!idByPath.has(phase.path)) idByPath.set(phase.path, phase.id);
  return (link) => (isLocalFileLink(link) ? idByPath.get(resolve(baseDir, decodeLinkTarget(link.target))) : undefined);
}

function abbreviate(text: string): string {
  return cutText(text.trim(), 100);
}
