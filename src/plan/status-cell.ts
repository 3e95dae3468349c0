import { chmod, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { findPhaseTables } from './master-plan.js';
import { replaceLinks, scanMarkdown } from './markdown.js';
import { leadingPhaseId } from './phase-ids.js';
import { statusLabel } from './status.js';
import { PlanError } from '../errors/index.js';
import type { PhaseStatus } from './types.js';
import { errorMessage } from '../errors/error-message.js';

/**
 * Rewrites the Status cell of one phase's row in the master table and nothing else: every other
 * byte of the file, line endings included, stays as it was. False when the table has no Status
 * column or no row with that id.
 */
export async function updatePhaseStatusCell(masterPath: string, phaseId: string, status: PhaseStatus): Promise<boolean> {
  let text: string;
  try {
    text = await readFile(masterPath, 'utf8');
  } catch (error) {
    throw new PlanError('E_PLAN_UNREADABLE', `cannot read the master plan ${masterPath}: ${errorMessage(error)}`);
  }
  const updated = withStatusCell(text, phaseId, status);
  if (updated === undefined) return false;
  if (updated !== text) await replaceFile(masterPath, updated);
  return true;
}

/** Pure: the master plan text with that row's Status cell rewritten, or undefined. */
export function withStatusCell(text: string, phaseId: string, status: PhaseStatus): string | undefined {
  for (const { table, columns } of findPhaseTables(scanMarkdown(text))) {
    if (columns.status === undefined) continue;
    for (const row of table.rows) {
      const idCell = row.cells[columns.id];
      if (idCell === undefined || leadingPhaseId(replaceLinks(idCell.text))?.id !== phaseId) continue;
      const cell = row.cells[columns.status];
      if (cell === undefined) return undefined;
      return replaceLine(text, row.line, rewriteCell(row.raw, cell, status));
    }
  }
  return undefined;
}

function rewriteCell(line: string, cell: { text: string; start: number; end: number }, status: PhaseStatus): string {
  const raw = line.slice(cell.start, cell.end);
  const lead = /^\s*/.exec(raw)?.[0] ?? '';
  const bold = /^\*\*.*\*\*$/.test(cell.text);
  const word = bold ? `**${statusLabel(status)}**` : statusLabel(status);
  // Keep the column aligned when the new word fits in the old width.
  const minimum = `${lead === '' ? ' ' : lead}${word} `;
  const content = minimum.length <= raw.length ? minimum.padEnd(raw.length) : minimum;
  return line.slice(0, cell.start) + content + line.slice(cell.end);
}

function replaceLine(text: string, lineNumber: number, newLine: string): string {
  const pieces = text.split(/(\r?\n)/);
  // split() with a capture group alternates line, ending, line, ...; line N sits at index 2(N-1).
  const index = 2 * (lineNumber - 1);
  const original = pieces[index];
  if (original === undefined) return text;
  // The scanner dropped a byte-order mark from line 1; keep it.
  pieces[index] = original.startsWith('\uFEFF') ? `\uFEFF${newLine}` : newLine;
  return pieces.join('');
}

/** Write beside, then rename: a crash mid-write never leaves a truncated master plan. */
async function replaceFile(path: string, text: string): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  const { mode } = await stat(path);
  await writeFile(temporary, text, 'utf8');
  await chmod(temporary, mode);
  await rename(temporary, path);
}
