/**
 * `debussy audit PLAN`: what debussy understood of a plan (phases, dependencies, gates with their
 * commands, notes, completion signals) and every problem it sees, as text or JSON. The view is shown
 * for a failing plan too: a misread is easiest to spot in what was read.
 */
import path from 'node:path';
import { loadProjectConfig } from '../../config/index.js';
import { auditPlan, describePlan, formatFinding, renderPlanView } from '../../plan/index.js';
import { findProjectRoot } from '../../state/index.js';
import { inertJson, inertLine } from '../../text/inert-text.js';

interface AuditOptions {
  json?: boolean;
  strict?: boolean;
  config?: string;
}

export default async function auditCommand(planArg: string, options: AuditOptions): Promise<number> {
  const root = await findProjectRoot(process.cwd());
  const { config } = await loadProjectConfig(root, {}, options.config);
  const report = await auditPlan(path.resolve(planArg), { gateCommands: config.gates });
  const failed = report.errors > 0 || (options.strict === true && report.warnings > 0);
  const view = report.plan === undefined ? null : describePlan(report.plan);

  if (options.json) {
    const out = { plan: view, errors: report.errors, warnings: report.warnings, ok: !failed, findings: report.findings };
    process.stdout.write(`${inertJson(JSON.stringify(out, null, 2))}\n`);
    return failed ? 1 : 0;
  }

  if (view !== null) process.stdout.write(`${renderPlanView(view, process.cwd())}\n`);
  for (const finding of report.findings) process.stdout.write(`${formatFinding(finding, process.cwd())}\n`);
  const name = report.plan ? `${inertLine(report.plan.name)} (${report.plan.phases.length} phases)` : inertLine(planArg);
  const verdict = failed ? 'FAILED' : 'ok';
  process.stdout.write(`audit ${verdict}: ${name}: ${report.errors} error(s), ${report.warnings} warning(s)${options.strict && report.warnings > 0 ? ' (--strict: warnings count as errors)' : ''}\n`);
  return failed ? 1 : 0;
}
