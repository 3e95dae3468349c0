/** Writing a file debussy generates, never over the user's without being told to. */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DebussyError } from '../errors/index.js';
import { errorCode } from '../errors/error-code.js';
import { errorMessage } from '../errors/error-message.js';

/**
 * created: it did not exist. kept: it exists and was left alone. overwritten: --force replaced
 * different content. unchanged: --force, and the content was already the same. updated: lines were
 * added to an existing file (.gitignore). skipped: not written, for the reason in `detail`.
 */
export type FileOutcome = 'created' | 'kept' | 'overwritten' | 'unchanged' | 'updated' | 'skipped';

export interface ScaffoldedFile {
  /** Absolute path. */
  path: string;
  outcome: FileOutcome;
  /** A short remark for people, e.g. which lines were added. */
  detail?: string;
}

export async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
}

/** Creates `file` (and its folders); an existing file is kept unless `force`. */
export async function writeScaffoldFile(file: string, content: string, force: boolean): Promise<ScaffoldedFile> {
  try {
    await mkdir(path.dirname(file), { recursive: true });
    try {
      // 'wx' fails if the file exists: no window between checking and writing.
      await writeFile(file, content, { flag: 'wx' });
      return { path: file, outcome: 'created' };
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') throw error;
    }
    if (!force) return { path: file, outcome: 'kept' };
    if ((await readIfExists(file)) === content) return { path: file, outcome: 'unchanged' };
    await writeFile(file, content);
    return { path: file, outcome: 'overwritten' };
  } catch (error) {
    throw cannotWrite(file, error);
  }
}

/** A file system refusal (permissions, a folder where a file should be) is the user's to fix. */
export function cannotWrite(file: string, error: unknown): DebussyError {
  if (error instanceof DebussyError) return error;
  const detail = errorCode(error) ?? errorMessage(error);
  return new DebussyError('E_WRITE', `cannot write ${file}: ${detail}`, { hint: 'Check that the folder is writable and that no folder has the same name as the file.' });
}
