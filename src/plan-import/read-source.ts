/**
 * Finding and reading the plan to import: a file, or a folder holding one (a project,
 * `.taskmaster/`, `.planning/`, `specs/001-x/`). Its format is recognised from its text
 * (plan/foreign-format.ts), then the format's reader turns it into an ImportedPlan.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { detectFormat, foreignPlanFileIn, specKitTaskFiles, type ForeignFormat } from '../plan/foreign-format.js';
import { parseMasterPlan } from '../plan/master-plan.js';
import { errorCode } from '../errors/error-code.js';
import { errorMessage } from '../errors/error-message.js';
import { readGsd } from './gsd.js';
import { ImportError, type ImportedPlan } from './imported-plan.js';
import { readRalph } from './ralph.js';
import { readSpeckit } from './speckit.js';
import { readTaskmaster } from './taskmaster.js';

const FORMATS_HINT = 'debussy imports Taskmaster (.taskmaster/tasks/tasks.json), ralph (prd.json), GSD (.planning/ROADMAP.md) and spec-kit (specs/NNN-feature/tasks.md).';

export interface SourceOptions {
  tag?: string;
  /** The project's folder name: some formats do not name the project. */
  projectName: string;
  /** For messages: paths are shown relative to it. */
  cwd: string;
}

export interface ReadSource {
  /** Absolute path of the file read (ROADMAP.md for GSD). */
  file: string;
  format: ForeignFormat;
  plan: ImportedPlan;
}

export async function readSource(given: string, options: SourceOptions): Promise<ReadSource> {
  const shown = path.relative(options.cwd, given) || '.';
  let file = given;
  let isDirectory: boolean;
  try {
    isDirectory = (await stat(given)).isDirectory();
  } catch (error) {
    throw new ImportError(`${shown}: ${errorCode(error) === 'ENOENT' ? 'no such file or folder' : errorMessage(error)}`, 'Name the plan file (e.g. .taskmaster/tasks/tasks.json), or the folder that holds it.');
  }
  if (isDirectory) {
    const found = await foreignPlanFileIn(given);
    if (found === undefined) {
      const features = await specKitTaskFiles(given);
      if (features.length > 1) {
        const names = features.map((file) => path.relative(options.cwd, path.dirname(file)) || file);
        throw new ImportError(`${shown} holds ${features.length} spec-kit features (${names.join(', ')})`, 'Name the one to import, e.g. `debussy plan import ' + (names[0] ?? 'specs/001-x') + '`.');
      }
      throw new ImportError(`${shown} holds no plan debussy can import`, FORMATS_HINT);
    }
    file = found.path;
  }
  const text = await readText(file, options.cwd);
  const format = detectFormat(file, text);
  const shownFile = path.relative(options.cwd, file) || file;
  if (format === undefined) throw unknownFormat(file, shownFile, text);
  if (options.tag !== undefined && format !== 'taskmaster') throw new ImportError(`--tag is for Taskmaster's tasks.json, and ${shownFile} is not one`, 'Leave out --tag.');
  return { file, format, plan: await readFormat(format, file, text, options) };
}

async function readText(file: string, cwd: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new ImportError(`cannot read ${path.relative(cwd, file) || file}: ${errorCode(error) ?? errorMessage(error)}`, 'Check the path and that the file is readable.');
  }
}

function unknownFormat(file: string, shown: string, text: string): ImportError {
  const trimmed = text.trimStart();
  if (trimmed === '') return new ImportError(`${shown} is empty`, 'Let its tool write the plan first, then import again.');
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      JSON.parse(trimmed);
    } catch (error) {
      return new ImportError(`${shown} is not valid JSON: ${errorMessage(error)}`, 'Fix the file (or let its tool write it again), then import again.');
    }
    return new ImportError(`${shown} is JSON, but neither a Taskmaster tasks.json (a "tasks" list) nor a ralph prd.json (a "userStories" list)`, FORMATS_HINT);
  }
  if (parseMasterPlan(text, file).rows.length > 0) return new ImportError(`${shown} is already a debussy master plan: there is nothing to import`, `Check it with \`debussy audit ${shown}\`.`);
  return new ImportError(`${shown} is not a plan format debussy imports`, FORMATS_HINT);
}

async function readFormat(format: ForeignFormat, file: string, text: string, options: SourceOptions): Promise<ImportedPlan> {
  const { projectName } = options;
  switch (format) {
    case 'taskmaster':
      return readTaskmaster(JSON.parse(text), { projectName, ...(options.tag === undefined ? {} : { tag: options.tag }) });
    case 'ralph':
      return readRalph(JSON.parse(text), { projectName });
    case 'gsd':
      return readGsd({ roadmap: text, files: await planningFiles(path.dirname(file)) }, { projectName });
    case 'speckit':
      return readSpeckit(text, { featureName: path.basename(path.dirname(file)) });
  }
}

/** Files under `<planning>/phases/` (three levels at most), relative to `<planning>`; the texts of the plan files. */
async function planningFiles(planning: string): Promise<{ path: string; text?: string }[]> {
  const found: { path: string; text?: string }[] = [];
  const walk = async (relative: string, depth: number): Promise<void> => {
    let entries;
    try {
      entries = await readdir(path.join(planning, relative), { withFileTypes: true });
    } catch {
      return; // no phases folder yet: the roadmap alone is the plan
    }
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const child = `${relative}/${entry.name}`;
      if (entry.isDirectory() && depth < 3) await walk(child, depth + 1);
      else if (entry.isFile() && entry.name.toLowerCase().endsWith('.md')) {
        found.push(/PLAN/i.test(entry.name) ? { path: child, text: await readFile(path.join(planning, child), 'utf8') } : { path: child });
      }
    }
  };
  await walk('phases', 1);
  return found;
}
