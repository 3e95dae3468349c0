/**
 * The README's install from git, as a user runs it: its lines are read from README.md (the sh block
 * under "or from git without a checkout") and pasted into sh. npm clones the repository, installs
 * its dependencies and runs `prepare` (the build), packs the result, and the tarball installs a
 * `debussy` that runs. The git URL is a bare clone of this checkout's HEAD (`git+file://`: no
 * network), so this checks what is committed. The install goes to a temporary prefix through
 * `npm_config_prefix`, as a user's npm settings would steer it.
 *
 * npm 11 exits before it has removed its clone of the repository from its cache's tmp folder, with
 * the dependencies `prepare` installed into it: about 1 GB left behind per install. Every run of
 * this test did that to the machine's npm cache until the disk was full. The README's lines remove
 * it, and this test checks that nothing new is left there.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { git, REPO_ROOT, runCommand } from '../cli/cli-harness.js';
import { npm, shell } from './npm.js';

const PACK_AND_INSTALL_TIMEOUT_MS = 420_000;
const URL_PLACEHOLDER = '<git url of this repository>';

/** The README's install from git: the sh block that follows "or from git without a checkout". */
export function gitInstallLines(readme: string): string {
  const section = readme.split(/^or from git without a checkout/m)[1];
  const block = section === undefined ? undefined : /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  if (block === undefined || !block.includes(URL_PLACEHOLDER)) throw new Error(`README.md has no sh block naming ${URL_PLACEHOLDER} after "or from git without a checkout"`);
  return block;
}

function entries(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir) : [];
}

let work: string | undefined;
/** What npm's cache tmp held before the install, and where it is: whatever the install adds there is removed even when the test fails. */
let cacheBefore: { dir: string; names: Set<string> } | undefined;
afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
  if (cacheBefore) for (const name of entries(cacheBefore.dir)) if (name.startsWith('git-clone') && !cacheBefore.names.has(name)) rmSync(path.join(cacheBefore.dir, name), { recursive: true, force: true });
});

describe("the README's install from a git URL", () => {
  it('builds the package, installs a debussy that runs, and leaves nothing in npm\'s cache', async () => {
    work = mkdtempSync(path.join(tmpdir(), 'debussy-git-install-'));
    const bare = path.join(work, 'debussy.git');
    git(work, 'clone', '-q', '--bare', REPO_ROOT, bare);
    const prefix = path.join(work, 'prefix');
    const cache = (await npm(['config', 'get', 'cache'], work)).stdout.trim();
    const cacheTmp = path.join(cache, '_cacache', 'tmp');
    const before = new Set(entries(cacheTmp));
    cacheBefore = { dir: cacheTmp, names: before };

    const lines = gitInstallLines(readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8')).replaceAll(URL_PLACEHOLDER, `git+file://${bare}`);
    const installed = await shell(`set -e\n${lines}`, work, {
      npm_config_prefix: prefix,
      npm_config_prefer_offline: 'true',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
    });
    expect(installed.code, `${installed.stdout}${installed.stderr}`).toBe(0);
    expect(existsSync(path.join(prefix, 'lib', 'node_modules', 'debussy', 'dist', 'cli', 'main.js')), 'prepare built dist/ in the packed copy').toBe(true);
    const leftInCache = entries(cacheTmp).filter((name) => !before.has(name));
    expect(leftInCache, `left in ${cacheTmp}`).toEqual([]);

    const version = await runCommand(path.join(prefix, 'bin', 'debussy'), ['--version'], { cwd: work, env: process.env });
    expect(version.code, version.stderr).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    const help = await runCommand(path.join(prefix, 'bin', 'debussy'), ['run', '--help'], { cwd: work, env: process.env });
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toContain('Examples');
  }, PACK_AND_INSTALL_TIMEOUT_MS);
});
