/** Scaffolding: the files `debussy init` and `debussy plan new` generate from templates/. */
export { templatesDir, readTemplate } from './templates-dir.js';
export { fillTemplate } from './fill-template.js';
export { GITIGNORE_ENTRIES, addGitignoreEntries } from './gitignore.js';
export { type FileOutcome, type ScaffoldedFile } from './write-scaffold-file.js';
export { initProject, SLASH_COMMAND_FILES, type InitReport } from './init-project.js';
export { choosePermissions, permissionConfigChoices, type PermissionChoice } from './permission-choice.js';
export { PLAN_TEMPLATE_NAMES, DEFAULT_PLAN_TEMPLATE, type PlanTemplateName } from './plan-template-names.js';
export { loadPlanTemplate, isPlanTemplateName, type PlanTemplate } from './plan-template.js';
export {
  createPlan,
  renderPlanFiles,
  validatePlanName,
  validatePhaseCount,
  planTitle,
  MIN_PHASES,
  MAX_PHASES,
  DEFAULT_PHASES,
  type NewPlanRequest,
  type NewPlanReport,
  type PlanFile,
} from './new-plan.js';
