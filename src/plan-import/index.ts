/** Importing other tools' plans (Taskmaster, ralph, GSD, spec-kit) as debussy plans. */
export { importPlan, type ImportRequest, type ImportReport, type ImportedFileOutcome } from './import-plan.js';
export { ImportError } from './imported-plan.js';
