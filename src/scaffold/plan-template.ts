/** Reading a plan template from templates/plans/: the shared master plan and the template's phase file. */
import { DebussyError, UsageError } from '../errors/index.js';
import { PLAN_TEMPLATE_NAMES, type PlanTemplateName } from './plan-template-names.js';
import { readTemplate } from './templates-dir.js';

export interface PlanTemplate {
  name: PlanTemplateName;
  description: string;
  /** Suggested titles for the first phases; later phases are just "Phase N". */
  phaseTitles: string[];
  masterText: string;
  phaseText: string;
}

export function isPlanTemplateName(value: string): value is PlanTemplateName {
  return (PLAN_TEMPLATE_NAMES as readonly string[]).includes(value);
}

export async function loadPlanTemplate(name: string): Promise<PlanTemplate> {
  if (!isPlanTemplateName(name)) {
    throw new UsageError(`unknown template "${name}"`, `Templates: ${PLAN_TEMPLATE_NAMES.join(', ')}.`);
  }
  const meta = parseMeta(await readTemplate(`plans/${name}/template.json`), name);
  return {
    name,
    ...meta,
    masterText: await readTemplate('plans/MASTER_PLAN.md'),
    phaseText: await readTemplate(`plans/${name}/phase.md`),
  };
}

function parseMeta(text: string, name: string): { description: string; phaseTitles: string[] } {
  const broken = (why: string) =>
    new DebussyError('E_TEMPLATE', `templates/plans/${name}/template.json ${why}`, { hint: 'This is a bug in debussy or an edited template: reinstall debussy.' });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw broken('is not valid JSON');
  }
  if (typeof value !== 'object' || value === null) throw broken('is not a JSON object');
  const { description, phaseTitles } = value as Record<string, unknown>;
  if (typeof description !== 'string') throw broken('has no "description" string');
  if (!Array.isArray(phaseTitles) || !phaseTitles.every((title): title is string => typeof title === 'string' && title.trim() !== '')) {
    throw broken('has no "phaseTitles" list of strings');
  }
  return { description, phaseTitles };
}
