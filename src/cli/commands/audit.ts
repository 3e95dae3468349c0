/** `debussy audit PLAN`: every problem debussy sees in a plan, as lines or JSON. */
import path from 'node:path';
import { loadProjectConfig } from '../../config/index.js';
import { auditPlan, formatFinding } from '../../plan/index.js';
import { findProjectRoot } from '../../state/index.js';

interface AuditOptions {
  json?: boolean;
  strict?: boolean;
}

export default async function auditCommand(planArg: string, options: AuditOptions): Promise<number> {
  const root = await findProjectRoot(process.cwd());
  const { config } = await loadProjectConfig(root);
  const report = await auditPlan(path.resolve(planArg), { gateCommands: config.gates });
  const failed = report.errors > 0 || (options.strict === true && report.warnings > 0);

  if (options.json) {
    const out = {
      plan: report.plan ? { name: report.plan.name, path: report.plan.path, phases: report.plan.phases.map((p) => p.id) } : null,
      errors: report.errors,
      warnings: report.warnings,
      ok: !failed,
      findings: report.findings,
    };
    process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
    return failed ? 1 : 0;
  }

  for (const finding of report.findings) process.stdout.write(`${formatFinding(finding, process.cwd())}\n`);
  const name = report.plan ? `${report.plan.name} (${report.plan.phases.length} phases)` : planArg;
  const verdict = failed ? 'FAILED' : 'ok';
  process.stdout.write(`audit ${verdict}: ${name}: ${report.errors} error(s), ${report.warnings} warning(s)${options.strict && report.warnings > 0 ? ' (--strict: warnings count as errors)' : ''}\n`);
  return failed ? 1 : 0;
}
