import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { promisify } from 'node:util';
import { onTestFinished } from 'vitest';

const run = promisify(execFile);

/** Runs git for test setup and assertions (never through the module under test). */
export async function git(cwd: string, ...args: string[]): Promise<string> {
  const { stdout } = await run('git', args, { cwd, encoding: 'utf8' });
  return stdout;
}

export interface Fixture {
  /** The temp dir holding the repository; files here are outside it. */
  outer: string;
  /** The repository's working tree. */
  root: string;
  cleanup(): Promise<void>;
}

/**
 * A git repository at `<tmp>/repo` with a local identity; the machine's hooks and signing are
 * switched off so only the hooks a test installs run. `files` are committed unless `commit` is
 * false (then the repository has no commit at all and the files are left untracked).
 */
export async function makeRepo(options: { files?: Record<string, string>; commit?: boolean; identity?: boolean } = {}): Promise<Fixture> {
  const outer = await mkdtemp(join(tmpdir(), 'debussy-git-'));
  const root = join(outer, 'repo');
  await mkdir(root);
  await git(root, 'init', '--quiet', '--initial-branch=main');
  if (options.identity !== false) {
    await git(root, 'config', 'user.name', 'Fixture Person');
    await git(root, 'config', 'user.email', 'fixture@example.invalid');
  }
  await git(root, 'config', 'commit.gpgsign', 'false');
  await git(root, 'config', 'core.hooksPath', '.git/hooks');
  await writeFiles(root, options.files ?? { 'README.md': '# fixture\n' });
  if (options.commit !== false) {
    await git(root, 'add', '-A');
    await git(root, 'commit', '--quiet', '-m', 'base');
  }
  return { outer, root, cleanup: () => rm(outer, { recursive: true, force: true }) };
}

export async function writeFiles(root: string, files: Record<string, string | Buffer>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
}

export async function installHook(root: string, name: string, script: string): Promise<void> {
  const path = join(root, '.git', 'hooks', name);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `#!/bin/sh\n${script}\n`);
  await chmod(path, 0o755);
}

/** Every file under `dir` except .git, with its bytes: for byte-identical before/after checks. */
export async function snapshotFiles(dir: string): Promise<Map<string, string>> {
  const snapshot = new Map<string, string>();
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const path = relative(dir, join(entry.parentPath, entry.name));
    if (path === '.git' || path.startsWith(`.git/`) || path.startsWith(`repo/.git/`)) continue;
    snapshot.set(path, (await readFile(join(dir, path))).toString('base64'));
  }
  return snapshot;
}

/** The index as git sees it: mode, blob and stage of every entry. */
export async function indexEntries(root: string): Promise<string> {
  return git(root, 'ls-files', '--stage');
}

export async function stagedNames(root: string): Promise<string[]> {
  return (await git(root, 'diff', '--cached', '--name-only')).split('\n').filter((line) => line !== '');
}

export async function commitCount(root: string): Promise<number> {
  try {
    return Number((await git(root, 'rev-list', '--count', 'HEAD')).trim());
  } catch {
    return 0;
  }
}

/** A repository for one test, removed when the test finishes. */
export async function repo(options: Parameters<typeof makeRepo>[0] = {}): Promise<Fixture> {
  const fixture = await makeRepo(options);
  onTestFinished(() => fixture.cleanup());
  return fixture;
}
