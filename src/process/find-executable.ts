/**
 * Resolves a command the way spawn will run it: a path (relative to cwd) or a name looked up on
 * PATH (an empty entry is the current directory), an executable regular file. On Windows each
 * PATHEXT extension is tried too. The one lookup for claude, setsid and the notifiers' tools.
 */
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

function isExecutableFile(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export interface ExecutableSearchOptions {
  platform?: NodeJS.Platform;
  /** Windows' PATHEXT (".EXE;.CMD;.BAT" when unset). */
  pathExt?: string;
}

export function findExecutable(command: string, cwd: string, searchPath: string | undefined, options: ExecutableSearchOptions = {}): string | undefined {
  if (command === '') return undefined;
  const extensions = (options.platform ?? process.platform) === 'win32' ? ['', ...(options.pathExt ?? '.EXE;.CMD;.BAT').split(';').filter((ext) => ext !== '')] : [''];
  const firstIn = (base: string): string | undefined => extensions.map((ext) => base + ext).find(isExecutableFile);
  if (command.includes('/')) return firstIn(path.resolve(cwd, command));
  for (const dir of (searchPath ?? '').split(path.delimiter)) {
    const found = firstIn(path.resolve(cwd, dir === '' ? '.' : dir, command));
    if (found !== undefined) return found;
  }
  return undefined;
}
