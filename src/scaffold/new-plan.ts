/**
 * `debussy plan new`: a master plan and its phase files from a template, each phase depending on
 * the one before, ready to pass `debussy audit`.
 */
import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from '../errors/index.js';
import { fillTemplate } from './fill-template.js';
import { loadPlanTemplate, type PlanTemplate } from './plan-template.js';
import { cannotWrite, writeScaffoldFile, type ScaffoldedFile } from './write-scaffold-file.js';

export const MIN_PHASES = 1;
export const MAX_PHASES = 50;
export const DEFAULT_PHASES = 3;
const MASTER_FILE = 'MASTER_PLAN.md';

// Lower case words joined by - or _: safe as a folder name and in a notes file name on any system.
const PLAN_NAME = /^[a-z0-9]+(?:[-_][a-z0-9]+)*$/;
const MAX_NAME_LENGTH = 64;

export interface NewPlanRequest {
  name: string;
  phases: number;
  template: string;
  /** Absolute folder the plan's folder is created in, e.g. `<root>/plans`. */
  plansDir: string;
  /** Paths in the generated text (notes files, commands) are relative to it. */
  projectRoot: string;
  force?: boolean;
}

export interface NewPlanReport {
  /** Absolute path of the plan's folder. */
  dir: string;
  masterPath: string;
  template: PlanTemplate['name'];
  files: ScaffoldedFile[];
}

export interface PlanFile {
  /** File name inside the plan's folder. */
  name: string;
  content: string;
}

export function validatePlanName(name: string): void {
  if (!PLAN_NAME.test(name) || name.length > MAX_NAME_LENGTH) {
    throw new UsageError(
      `"${name}" is not a usable plan name: use lower-case letters and digits, words joined by - or _ (at most ${MAX_NAME_LENGTH} characters)`,
      'For example: debussy plan new billing-service',
    );
  }
}

export function validatePhaseCount(phases: number): void {
  if (!Number.isInteger(phases) || phases < MIN_PHASES || phases > MAX_PHASES) {
    throw new UsageError(`--phases ${phases} is not allowed: expected a whole number from ${MIN_PHASES} to ${MAX_PHASES}`);
  }
}

/** "billing-service" -> "Billing Service". */
export function planTitle(name: string): string {
  return name
    .split(/[-_]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}

function toPosix(relative: string): string {
  return relative.split(path.sep).join('/');
}

/**
 * Pure: the plan's files, master plan first. `masterPath` (relative to the project root, like the
 * notes files) is written into the text as it is.
 */
export function renderPlanFiles(template: PlanTemplate, input: { name: string; phases: number; masterPath: string }): PlanFile[] {
  const ids = Array.from({ length: input.phases }, (_unused, index) => String(index + 1));
  const titleOf = (index: number): string => template.phaseTitles[index] ?? `Phase ${index + 1}`;
  const fileOf = (id: string): string => `phase-${id}.md`;
  const notesOf = (id: string): string => `notes/NOTES_${input.name}_phase_${id}.md`;

  const rows = ids.map((id, index) => `| ${id} | [${titleOf(index)}](${fileOf(id)}) | Pending | ${index === 0 ? 'None' : ids[index - 1]} |`);
  const master = fillTemplate(template.masterText, { plan_title: planTitle(input.name), phase_rows: rows.join('\n'), master_path: input.masterPath }, 'templates/plans/MASTER_PLAN.md');

  const phases = ids.map((id, index): PlanFile => {
    const previous = index === 0 ? undefined : ids[index - 1];
    const values = {
      id,
      title: titleOf(index),
      depends_on: previous === undefined ? 'None' : `[Phase ${previous}](${fileOf(previous)})`,
      read_notes_step: previous === undefined ? '' : `- [ ] Read previous notes: \`${notesOf(previous)}\``,
      notes_file: notesOf(id),
      dependencies: previous === undefined ? '- None: this is the first phase' : `- Phase ${previous}: its code and its notes`,
    };
    return { name: fileOf(id), content: fillTemplate(template.phaseText, values, `templates/plans/${template.name}/phase.md`) };
  });
  return [{ name: MASTER_FILE, content: master }, ...phases];
}

export async function createPlan(request: NewPlanRequest): Promise<NewPlanReport> {
  validatePlanName(request.name);
  validatePhaseCount(request.phases);
  const template = await loadPlanTemplate(request.template);
  const dir = path.join(request.plansDir, request.name);
  const force = request.force === true;
  if (!force && (await exists(dir))) {
    throw new UsageError(`${toPosix(path.relative(process.cwd(), dir)) || dir} already exists`, 'Choose another name, or pass --force to overwrite the files this command generates there.');
  }
  const masterPath = path.join(dir, MASTER_FILE);
  const files = renderPlanFiles(template, { name: request.name, phases: request.phases, masterPath: toPosix(path.relative(request.projectRoot, masterPath)) });
  try {
    await mkdir(dir, { recursive: true });
  } catch (error) {
    throw cannotWrite(dir, error);
  }
  const written: ScaffoldedFile[] = [];
  for (const file of files) written.push(await writeScaffoldFile(path.join(dir, file.name), file.content, force));
  return { dir, masterPath, template: template.name, files: written };
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}
