/**
 * What `debussy plan import` wrote, so a re-import can tell its own files from the user's edits.
 * `.debussy-import.json` in the plan's folder holds a hash of each file it wrote, taken without
 * what a run writes into a plan (Status cells and lines, ticked boxes: plan/fingerprint.ts), so a
 * plan that has been run is not taken for an edited one. Deciding what to write is pure.
 */
import { normalizedMasterText, normalizedPhaseText, textHash } from '../plan/fingerprint.js';
import type { ForeignFormat } from '../plan/foreign-format.js';
import { isRecord } from './imported-plan.js';
import { MASTER_FILE, type RenderedFile } from './render-plan.js';

export const RECORD_FILE = '.debussy-import.json';

export interface ImportRecord {
  version: 1;
  format: ForeignFormat;
  /** The source, relative to the project root. */
  source: string;
  /** File name in the plan's folder -> hash of what was written. */
  files: Record<string, string>;
}

export function fileHash(name: string, text: string): string {
  return textHash(name === MASTER_FILE ? normalizedMasterText(text) : normalizedPhaseText(text));
}

export function renderRecord(record: ImportRecord): string {
  return `${JSON.stringify(record, null, 2)}\n`;
}

/** The record, or undefined when the text is not one (then the folder counts as the user's). */
export function parseRecord(text: string): ImportRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(value) || value.version !== 1 || typeof value.source !== 'string' || typeof value.format !== 'string' || !isRecord(value.files)) return undefined;
  const files: Record<string, string> = {};
  for (const [name, hash] of Object.entries(value.files)) {
    // A name is a file in the plan's folder: never a path that leads out of it.
    if (typeof hash !== 'string' || name.includes('/') || name.includes('\\') || name.startsWith('.')) return undefined;
    files[name] = hash;
  }
  return { version: 1, format: value.format as ForeignFormat, source: value.source, files };
}

export type WriteDecision =
  | { kind: 'write'; write: RenderedFile[]; remove: string[]; unchanged: string[] }
  /** Files the user changed since the import (`edited`, `deleted`) or wrote where the import would (`theirs`). */
  | { kind: 'refuse'; edited: string[]; deleted: string[]; theirs: string[]; noRecord: boolean };

/**
 * What to write, given the folder's current files (name -> text; absent: missing), the record of
 * the last import (undefined: none), and the files this import renders. Without `force`, a file the
 * user edited, deleted, or wrote themselves is never overwritten: the decision is a refusal naming
 * them. Files of the last import that this one no longer renders are removed if unedited.
 */
export function decideWrites(current: Map<string, string>, record: ImportRecord | undefined, rendered: RenderedFile[], force: boolean): WriteDecision {
  const recorded = record?.files ?? {};
  const edited: string[] = [];
  const deleted: string[] = [];
  for (const [name, hash] of Object.entries(recorded)) {
    const text = current.get(name);
    if (text === undefined) deleted.push(name);
    else if (fileHash(name, text) !== hash) edited.push(name);
  }
  const theirs = rendered.filter((file) => !(file.name in recorded) && current.has(file.name)).map((file) => file.name);
  const noRecord = record === undefined && current.size > 0;
  if (!force && (edited.length > 0 || deleted.length > 0 || theirs.length > 0 || noRecord)) {
    return { kind: 'refuse', edited, deleted, theirs, noRecord };
  }
  const names = new Set(rendered.map((file) => file.name));
  return {
    kind: 'write',
    write: rendered.filter((file) => current.get(file.name) !== file.content),
    unchanged: rendered.filter((file) => current.get(file.name) === file.content).map((file) => file.name),
    remove: Object.keys(recorded).filter((name) => !names.has(name) && current.has(name) && !edited.includes(name)),
  };
}
