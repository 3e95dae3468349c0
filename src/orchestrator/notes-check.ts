/**
 * Checks the notes a phase was told to write: a missing file is a problem the remediation session
 * must fix; a missing expected section (config `notes_sections`) is a warning.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Phase } from '../plan/types.js';

export interface NotesCheck {
  /** Problems for the remediation prompt. */
  missingFiles: string[];
  /** Warnings: "notes/x.md has no section "Summary"". */
  missingSections: string[];
}

function hasSection(text: string, section: string): boolean {
  const wanted = section.trim().toLowerCase();
  return text.split('\n').some((line) => /^#{1,6}\s/.test(line) && line.replace(/^#{1,6}\s+/, '').trim().toLowerCase().includes(wanted));
}

export async function checkNotes(root: string, phase: Phase, sections: readonly string[]): Promise<NotesCheck> {
  const result: NotesCheck = { missingFiles: [], missingSections: [] };
  for (const note of phase.file?.notesToWrite ?? []) {
    let text: string;
    try {
      text = await readFile(path.resolve(root, note), 'utf8');
    } catch {
      result.missingFiles.push(`the notes file ${note} that the phase must write does not exist`);
      continue;
    }
    for (const section of sections) {
      if (!hasSection(text, section)) result.missingSections.push(`${note} has no "${section}" section`);
    }
  }
  return result;
}
