/**
 * Plans written for other tools: Taskmaster's tasks.json, ralph's prd.json, GSD's .planning/
 * roadmap and spec-kit's tasks.md. The audit names them (instead of asking for a phase table in a
 * JSON file) and `debussy plan import` converts them. Recognising one is pure: a file's name and
 * text, or a folder's entries.
 */
import { readdir, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { docFile } from '../install/package-files.js';

export type ForeignFormat = 'taskmaster' | 'ralph' | 'gsd' | 'speckit';

/** How each format is named to people: "this is a <name>". */
export const FOREIGN_FORMAT_NAMES: Record<ForeignFormat, string> = {
  taskmaster: 'Taskmaster tasks.json',
  ralph: 'ralph prd.json',
  gsd: 'GSD ROADMAP.md',
  speckit: 'spec-kit tasks.md',
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isTaskList(value: unknown): boolean {
  return Array.isArray(value) && value.every((task) => isRecord(task) && 'id' in task);
}

/** A JSON document's format: `userStories` is ralph's; `tasks`, at the top or under a tag, Taskmaster's. */
export function jsonFormat(value: unknown): ForeignFormat | undefined {
  if (!isRecord(value)) return undefined;
  if (Array.isArray(value.userStories)) return 'ralph';
  if (isTaskList(value.tasks)) return 'taskmaster';
  const tags = Object.values(value);
  if (tags.length > 0 && tags.every((tag) => isRecord(tag) && isTaskList(tag.tasks))) return 'taskmaster';
  return undefined;
}

const GSD_PHASE_HEADING = /^#{2,4}\s*Phase\s+[\w.-]+\s*:/im;
const SPECKIT_PHASE_HEADING = /^##\s+Phase\s+\S+?\s*:/im;
const SPECKIT_TASK = /^\s*[-*]\s+\[[ xX]\]\s+T\d{3,}\b/m;

/** Pure: the foreign format of a file, from its name and text; undefined for anything else. */
export function detectFormat(fileName: string, text: string): ForeignFormat | undefined {
  const trimmed = text.replace(/^\uFEFF/, '').trimStart();
  if (trimmed.startsWith('{')) {
    try {
      return jsonFormat(JSON.parse(trimmed));
    } catch {
      return undefined;
    }
  }
  const h1 = /^#\s+(.*)$/m.exec(trimmed)?.[1]?.trim() ?? '';
  if (SPECKIT_TASK.test(trimmed) && SPECKIT_PHASE_HEADING.test(trimmed) && (/^tasks\b/i.test(h1) || basename(fileName).toLowerCase() === 'tasks.md')) return 'speckit';
  // Field names may be translated (`**목표:**` for `**Goal**:`); the name and the phase headings are not.
  const looksLikeRoadmap = /\broadmap\b/i.test(h1) || basename(fileName).toUpperCase() === 'ROADMAP.MD';
  if (looksLikeRoadmap && GSD_PHASE_HEADING.test(trimmed)) return 'gsd';
  return undefined;
}

/** Where each format keeps its file, relative to a folder that holds it, most specific first. */
const FOLDER_CANDIDATES: { path: string; format: ForeignFormat }[] = [
  { path: '.taskmaster/tasks/tasks.json', format: 'taskmaster' },
  { path: 'tasks/tasks.json', format: 'taskmaster' },
  { path: 'tasks.json', format: 'taskmaster' },
  { path: 'prd.json', format: 'ralph' },
  { path: '.planning/ROADMAP.md', format: 'gsd' },
  { path: 'ROADMAP.md', format: 'gsd' },
  { path: 'tasks.md', format: 'speckit' },
];

/**
 * The foreign plan file a folder holds (the folder itself being `.taskmaster`, `.planning`, a
 * spec-kit feature folder, or a project holding one of them), or undefined. Only the name is
 * checked here; the caller reads the file and confirms its format.
 */
export async function foreignPlanFileIn(dir: string): Promise<{ path: string; format: ForeignFormat } | undefined> {
  for (const candidate of FOLDER_CANDIDATES) {
    const path = join(dir, candidate.path);
    if (await isFile(path)) return { path, format: candidate.format };
  }
  // A project with one spec-kit feature: specs/001-name/tasks.md.
  const features = await specKitTaskFiles(dir);
  const only = features[0];
  return features.length === 1 && only !== undefined ? { path: only, format: 'speckit' } : undefined;
}

/** `<dir>/specs/*\/tasks.md`, sorted: a project's spec-kit features that have tasks. */
export async function specKitTaskFiles(dir: string): Promise<string[]> {
  const specs = join(dir, 'specs');
  let features: string[];
  try {
    features = (await readdir(specs)).sort();
  } catch {
    return [];
  }
  const withTasks: string[] = [];
  for (const feature of features) if (await isFile(join(specs, feature, 'tasks.md'))) withTasks.push(join(specs, feature, 'tasks.md'));
  return withTasks;
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/** A path as `debussy plan import` takes it on a command line: quoted when it holds a space. */
export function commandLinePath(shownPath: string): string {
  return /\s/.test(shownPath) ? `'${shownPath}'` : shownPath;
}

/** The audit's message for a foreign plan given where a debussy master plan was expected. */
export function foreignFormatMessage(format: ForeignFormat, shownPath: string): string {
  return `this is a ${FOREIGN_FORMAT_NAMES[format]}, not a debussy master plan; \`debussy plan import ${commandLinePath(shownPath)}\` turns it into one (see ${docFile('plan-format.md')})`;
}

/**
 * What `debussy run` says when given one: the format, and the import as the next step (not
 * `debussy audit`, which would only say the same again). The import chooses the plan's name, so
 * the run command to follow is the one it prints.
 */
export function foreignPlanRefusal(format: ForeignFormat, shownPath: string): { message: string; hint: string } {
  return {
    message: `${shownPath} is a ${FOREIGN_FORMAT_NAMES[format]}, not a debussy master plan`,
    hint: `Run \`debussy plan import ${commandLinePath(shownPath)}\`: it writes a debussy plan from it under plans/ and prints the \`debussy run\` command for that plan (see ${docFile('plan-format.md')}).`,
  };
}
