import type { MarkdownLine } from './markdown.js';

/** One cell: its trimmed text and where its raw content (between the pipes) sits in the line. */
export interface TableCell {
  text: string;
  start: number;
  end: number;
}

export interface TableRow {
  line: number;
  raw: string;
  cells: TableCell[];
}

export interface MarkdownTable {
  header: TableCell[];
  headerLine: number;
  rows: TableRow[];
}

/**
 * Splits a table line on unescaped pipes that are not inside a code span. Offsets are kept so a
 * single cell can be rewritten without touching the rest of the line.
 */
export function splitTableRow(line: string): TableCell[] {
  const boundaries: number[] = [];
  let inCode = false;
  for (let index = 0; index < line.length; index += 1) {
    const char = line[index];
    if (char === '\\') {
      index += 1;
    } else if (char === '`') {
      inCode = !inCode;
    } else if (char === '|' && !inCode) {
      boundaries.push(index);
    }
  }
  const contentStart = line.length - line.trimStart().length;
  const contentEnd = line.trimEnd().length;
  // Leading and trailing pipes are optional in GFM; when absent, the line's edges delimit instead.
  const leading = boundaries[0] === contentStart;
  const trailing = boundaries.length > (leading ? 1 : 0) && boundaries[boundaries.length - 1] === contentEnd - 1;
  const separators = [...(leading ? [] : [contentStart - 1]), ...boundaries, ...(trailing ? [] : [contentEnd])];
  const cells: TableCell[] = [];
  for (let index = 0; index + 1 < separators.length; index += 1) {
    const start = (separators[index] ?? 0) + 1;
    const end = separators[index + 1] ?? contentEnd;
    cells.push({ text: line.slice(start, end).trim(), start, end });
  }
  return cells;
}

function isDelimiterRow(line: string): boolean {
  if (!line.includes('-')) return false;
  const cells = splitTableRow(line);
  return cells.length > 0 && cells.every((cell) => /^:?-+:?$/.test(cell.text));
}

/** Every GFM table outside fenced code: a header line, a delimiter row, then rows with pipes. */
export function findTables(lines: MarkdownLine[]): MarkdownTable[] {
  const tables: MarkdownTable[] = [];
  let index = 0;
  while (index < lines.length) {
    const headerLine = lines[index];
    const delimiter = lines[index + 1];
    if (
      headerLine === undefined ||
      delimiter === undefined ||
      headerLine.inFence ||
      delimiter.inFence ||
      headerLine.heading !== undefined ||
      !headerLine.text.includes('|') ||
      !isDelimiterRow(delimiter.text)
    ) {
      index += 1;
      continue;
    }
    const table: MarkdownTable = { header: splitTableRow(headerLine.text), headerLine: headerLine.number, rows: [] };
    index += 2;
    for (let row = lines[index]; row !== undefined && isTableBodyLine(row); row = lines[index]) {
      table.rows.push({ line: row.number, raw: row.text, cells: splitTableRow(row.text) });
      index += 1;
    }
    tables.push(table);
  }
  return tables;
}

function isTableBodyLine(line: MarkdownLine): boolean {
  return !line.inFence && line.heading === undefined && line.text.trim() !== '' && line.text.includes('|');
}
