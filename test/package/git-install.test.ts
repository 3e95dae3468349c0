/**
 * The README's install from git, as a user runs it: `npm install -g "$(npm pack <git url> | tail
 * -n 1)"`. npm clones the repository, installs its dependencies and runs `prepare` (the build),
 * packs the result, and the tarball installs a `debussy` that runs. The git URL is a bare clone of
 * this checkout's HEAD (`git+file://`: no network), so this checks what is committed.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { git, REPO_ROOT, runCommand } from '../cli/cli-harness.js';
import { npm } from './npm.js';

const PACK_AND_INSTALL_TIMEOUT_MS = 420_000;

let work: string | undefined;
afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe("the README's install from a git URL", () => {
  it('npm pack <git url> builds the package; the tarball installs a debussy that runs', async () => {
    work = mkdtempSync(path.join(tmpdir(), 'debussy-git-install-'));
    const bare = path.join(work, 'debussy.git');
    git(work, 'clone', '-q', '--bare', REPO_ROOT, bare);

    const packed = await npm(['pack', `git+file://${bare}`, '--prefer-offline', '--no-audit', '--no-fund'], work);
    expect(packed.code, `${packed.stdout}${packed.stderr}`).toBe(0);
    // The README takes the tarball's name from the last line npm prints.
    const name = packed.stdout.trim().split('\n').at(-1) ?? '';
    expect(readdirSync(work)).toContain(name);

    const prefix = path.join(work, 'prefix');
    const install = await npm(['install', '-g', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', path.join(work, name)], work);
    expect(install.code, `${install.stdout}${install.stderr}`).toBe(0);
    const installed = path.join(prefix, 'lib', 'node_modules', 'debussy');
    expect(existsSync(path.join(installed, 'dist', 'cli', 'main.js')), 'prepare built dist/ in the packed copy').toBe(true);

    const version = await runCommand(path.join(prefix, 'bin', 'debussy'), ['--version'], { cwd: work, env: process.env });
    expect(version.code, version.stderr).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    const help = await runCommand(path.join(prefix, 'bin', 'debussy'), ['run', '--help'], { cwd: work, env: process.env });
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toContain('Examples');
  }, PACK_AND_INSTALL_TIMEOUT_MS);
});
