/** `debussy init [DIR]`: config, slash commands and .gitignore entries, never overwriting without --force. */
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { initProject, type FileOutcome } from '../../scaffold/index.js';
import { docFile } from '../../install/package-files.js';
import { findProjectRoot } from '../../state/index.js';

interface InitOptions {
  force?: boolean;
  json?: boolean;
}

const LABELS: Record<FileOutcome, string> = {
  created: 'created',
  kept: 'exists, kept',
  overwritten: 'overwritten',
  unchanged: 'exists, same content',
  updated: 'updated',
  skipped: 'not written',
};

export default async function initCommand(dirArg: string | undefined, options: InitOptions): Promise<number> {
  const dir = dirArg === undefined ? await findProjectRoot(process.cwd()) : path.resolve(dirArg);
  const report = await initProject(dir, { force: options.force === true });
  if (options.json) {
    // The report as the scaffold made it (docs/output.md); the project root is where debussy reads the config.
    process.stdout.write(`${JSON.stringify({ ...report, permissions: report.permissions ?? null, projectRoot: await findProjectRoot(report.dir) })}\n`);
    return 0;
  }

  process.stdout.write(`debussy init: ${report.dir}\n`);
  const width = Math.max(...report.files.map((file) => LABELS[file.outcome].length));
  for (const file of report.files) {
    const detail = file.detail === undefined ? '' : ` (${file.detail})`;
    process.stdout.write(`  ${LABELS[file.outcome].padEnd(width)}  ${path.relative(report.dir, file.path)}${detail}\n`);
  }

  if (report.permissions !== undefined) {
    const { permission_mode: mode, allowed_tools: rules } = report.permissions;
    process.stdout.write(`Permissions: ${mode} and ${rules.length} allowed_tools rules, so unattended sessions can edit files and run your tools; read the risk in .debussy/config.yaml (${docFile('permissions.md')}).\n`);
  }
  const changed = report.files.filter((file) => file.outcome === 'created' || file.outcome === 'overwritten' || file.outcome === 'updated');
  if (changed.length === 0) {
    process.stdout.write(options.force ? 'Nothing changed: every file already had this content.\n' : 'Nothing changed: everything was already set up. Pass --force to overwrite the files with fresh copies.\n');
  } else {
    process.stdout.write('Next: `debussy plan new my-plan` writes a plan to start from; `debussy audit plans/my-plan/MASTER_PLAN.md` checks it.\n');
  }

  const top = await findProjectRoot(report.dir);
  if ((await realpath(top)) !== (await realpath(report.dir))) {
    process.stdout.write(`Note: ${report.dir} is inside the git repository ${top}; debussy reads its config from the repository's top level.\n`);
  }
  return 0;
}
