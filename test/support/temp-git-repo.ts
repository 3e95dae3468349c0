import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A temp directory and the function that removes it (a property, so it can be passed around unbound). */
export type TempDir = { dir: string; cleanup: () => Promise<void> };

export async function git(cwd: string, ...args: string[]): Promise<string> {
  const { stdout } = await run('git', args, { cwd });
  return stdout;
}

/**
 * A fresh git repository in a temp dir with a local identity and one commit holding `files`
 * (default: a README.md). Hooks and signing from the machine's config are switched off.
 */
export async function tempGitRepo(files: Record<string, string> = { 'README.md': '# test repo\n' }): Promise<TempDir> {
  const dir = await mkdtemp(join(tmpdir(), 'debussy-repo-'));
  await git(dir, 'init', '--quiet', '--initial-branch=main');
  await git(dir, 'config', 'user.name', 'Debussy Test');
  await git(dir, 'config', 'user.email', 'test@debussy.invalid');
  await git(dir, 'config', 'commit.gpgsign', 'false');
  await git(dir, 'config', 'core.hooksPath', '.git/hooks');
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
  await git(dir, 'add', '-A');
  await git(dir, 'commit', '--quiet', '--allow-empty', '-m', 'initial commit');
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}
