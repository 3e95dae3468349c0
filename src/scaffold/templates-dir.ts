/**
 * Where the package's templates/ folder is. Found relative to this module, not the current
 * directory, so it works from src/ (tests), dist/ (the built CLI) and a global npm install alike:
 * src/scaffold/ and dist/scaffold/ both sit two levels below the package root.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PrerequisiteError } from '../errors/index.js';
import { errorMessage } from '../errors/error-message.js';

export function templatesDir(): string {
  return fileURLToPath(new URL('../../templates/', import.meta.url));
}

/** A template file's text, by its path inside templates/ (forward slashes). */
export async function readTemplate(relativePath: string): Promise<string> {
  const file = path.join(templatesDir(), ...relativePath.split('/'));
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const detail = errorMessage(error);
    throw new PrerequisiteError('E_TEMPLATE_MISSING', `debussy's template ${relativePath} cannot be read: ${detail}`, 'The installation looks incomplete: reinstall debussy.');
  }
}
