/** `debussy plan new NAME`: a plan to edit, generated from a template and checked by the audit. */
import path from 'node:path';
import { UsageError } from '../../errors/index.js';
import { auditPlan, formatFinding } from '../../plan/index.js';
import { createPlan } from '../../scaffold/index.js';
import { findProjectRoot } from '../../state/index.js';

interface PlanNewOptions {
  phases: string;
  template: string;
  dir?: string;
  force?: boolean;
  json?: boolean;
}

function parsePhaseCount(text: string): number {
  // Number('') is 0 and Number('2e1') is 20: only plain digits are a count.
  if (!/^\s*\d+\s*$/.test(text)) throw new UsageError(`--phases ${text} is not allowed: expected a whole number from 1 to 50`);
  return Number(text);
}

export default async function planNewCommand(name: string, options: PlanNewOptions): Promise<number> {
  const phases = parsePhaseCount(options.phases);
  const root = await findProjectRoot(process.cwd());
  // The default is the project's plans/ folder wherever the command runs; a folder given on the
  // command line is a path like any other, relative to the current directory.
  const plansDir = options.dir === undefined ? path.join(root, 'plans') : path.resolve(options.dir);
  const report = await createPlan({ name, phases, template: options.template, plansDir, projectRoot: root, force: options.force === true });

  if (options.json) {
    const audit = await auditPlan(report.masterPath);
    const { errors, warnings, findings } = audit;
    process.stdout.write(`${JSON.stringify({ name, phases, ...report, audit: { errors, warnings, findings } })}\n`);
    return errors > 0 ? 1 : 0;
  }
  const shown = (file: string): string => path.relative(process.cwd(), file) || file;
  process.stdout.write(`Plan "${name}" (${options.template} template, ${phases} phase${phases === 1 ? '' : 's'}) in ${shown(report.dir)}:\n`);
  for (const file of report.files) process.stdout.write(`  ${file.outcome.padEnd(11)}  ${shown(file.path)}\n`);

  // The generated plan is checked like any other, so a broken template cannot go unnoticed.
  const audit = await auditPlan(report.masterPath);
  for (const finding of audit.findings) process.stdout.write(`${formatFinding(finding, process.cwd())}\n`);
  if (audit.errors > 0) return 1;

  const master = shown(report.masterPath);
  process.stdout.write(
    [
      `Audit: ${audit.errors} errors, ${audit.warnings} warnings.`,
      'Next: write the goal, the tasks and the gate commands your project really uses into these files, then',
      `  debussy audit ${master}`,
      `  debussy run ${master} --dry-run`,
      `  debussy run ${master}`,
      '',
    ].join('\n'),
  );
  return 0;
}
