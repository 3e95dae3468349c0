/**
 * `debussy plan import PATH`: another tool's plan as a debussy plan, then what debussy understood
 * of it (each phase with its status, dependencies and gates) and what the user must still fill in
 * (the audit's findings). Exit 0 when the audit passes, 1 when it finds errors to fix first.
 */
import path from 'node:path';
import { loadProjectConfig } from '../../config/index.js';
import { auditPlan, describePlan, formatFinding, type PhaseView } from '../../plan/index.js';
import { FOREIGN_FORMAT_NAMES } from '../../plan/foreign-format.js';
import { importPlan, type ImportReport } from '../../plan-import/index.js';
import { redactSecrets } from '../../redact/index.js';
import { findProjectRoot } from '../../state/index.js';

interface PlanImportOptions {
  name?: string;
  tag?: string;
  dir?: string;
  force?: boolean;
  json?: boolean;
}

export default async function planImportCommand(source: string, options: PlanImportOptions): Promise<number> {
  const cwd = process.cwd();
  const root = await findProjectRoot(cwd);
  const plansDir = options.dir === undefined ? path.join(root, 'plans') : path.resolve(options.dir);
  const report = await importPlan({
    source: path.resolve(source), projectRoot: root, plansDir, force: options.force === true, cwd,
    ...(options.name === undefined ? {} : { name: options.name }),
    ...(options.tag === undefined ? {} : { tag: options.tag }),
  });
  const { config } = await loadProjectConfig(root, {});
  const audit = await auditPlan(report.masterPath, { gateCommands: config.gates });
  const view = audit.plan === undefined ? null : describePlan(audit.plan);

  if (options.json === true) {
    const { errors, warnings, findings } = audit;
    process.stdout.write(redactSecrets(`${JSON.stringify({ ...report, plan: view, audit: { errors, warnings, findings } })}\n`));
    return errors > 0 ? 1 : 0;
  }
  const shown = (file: string): string => path.relative(cwd, file) || file;
  const out: string[] = [heading(report, shown), ...fileLines(report, shown)];
  if (view !== null) {
    out.push('', 'What debussy understood:');
    for (const phase of view.phases) out.push(...phaseLines(phase));
  }
  if (report.leftOut.length > 0) out.push('', 'Left out:', ...report.leftOut.map((item) => `  ${item}`));
  if (report.notices.length > 0) out.push('', 'Decisions taken:', ...report.notices.map((notice) => `  - ${notice}`));
  if (audit.findings.length > 0) {
    out.push('', audit.errors > 0 ? 'To fill in before a run:' : 'Worth a look:', ...audit.findings.map((finding) => `  ${formatFinding(finding, cwd)}`));
  }
  const master = shown(report.masterPath);
  out.push('', `Audit: ${audit.errors} error(s), ${audit.warnings} warning(s).`);
  const missing = audit.findings.find((finding) => finding.code === 'gate-without-command');
  const gateName = missing === undefined ? undefined : /gate "([^"]*)"/.exec(missing.message)?.[1];
  out.push(
    ...(gateName === undefined ? [] : [`A gate without a command needs the one that checks it: write it in the gate's bullet, or map the gate's name once for every phase in .debussy/config.yaml (gates: {"${gateName}": "..."}).`]),
    audit.errors > 0 ? 'Next: fix what the audit names, then' : 'Next: read the phase files, then',
    `  debussy audit ${master}`,
    `  debussy run ${master} --dry-run`,
    `  debussy run ${master}`,
    '',
  );
  // Gate commands and titles come from someone else's file: a token in one is shown redacted, as in a dry run.
  process.stdout.write(redactSecrets(out.join('\n')));
  return audit.errors > 0 ? 1 : 0;
}

/** One line per file; for a long plan, one line per outcome. */
function fileLines(report: ImportReport, shown: (file: string) => string): string[] {
  if (report.files.length <= 12) return report.files.map((file) => `  ${file.outcome.padEnd(9)}  ${shown(file.path)}`);
  const outcomes = [...new Set(report.files.map((file) => file.outcome))];
  return outcomes.map((outcome) => {
    const names = report.files.filter((file) => file.outcome === outcome).map((file) => path.basename(file.path));
    const listed = names.length <= 4 ? names.join(', ') : `${names.slice(0, 2).join(', ')}, ..., ${names[names.length - 1] ?? ''}`;
    return `  ${outcome.padEnd(9)}  ${names.length} file${names.length === 1 ? '' : 's'} in ${shown(report.dir)}: ${listed}`;
  });
}

function heading(report: ImportReport, shown: (file: string) => string): string {
  const detail = report.sourceDetail === undefined ? '' : `, ${report.sourceDetail}`;
  const what = `${shown(report.sourceFile)} (${FOREIGN_FORMAT_NAMES[report.format]}${detail})`;
  return report.upToDate ? `${shown(report.dir)} is up to date with ${what}: nothing written.` : `Imported ${what} into ${shown(report.dir)}:`;
}

/** `  2  Parse the config  [Pending]  depends on 1; gates: tests (npm test), lint (no command)`. */
function phaseLines(phase: PhaseView): string[] {
  const deps = phase.dependsOn.length === 0 ? 'no dependencies' : `depends on ${phase.dependsOn.join(', ')}`;
  const gates = phase.gates.length === 0 ? 'no gates' : `gates: ${phase.gates.map((gate) => `${gate.name} (${gate.command ?? 'no command'})`).join(', ')}`;
  return [`  ${phase.id}  ${phase.title}  [${phase.statusText ?? 'no status'}]`, `     ${deps}; ${gates}; tasks: ${phase.tasks.done} of ${phase.tasks.total} checked`];
}
