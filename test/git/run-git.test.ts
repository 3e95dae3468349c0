import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GitError } from '../../src/errors/index.js';
import { runGit } from '../../src/git/run-git.js';
import { repo } from './git-fixture.js';

describe('runGit', () => {
  it('returns the exit code, stdout and stderr without throwing on a failure', async () => {
    const { root } = await repo();
    const ok = await runGit(root, ['rev-parse', '--is-inside-work-tree']);
    expect(ok).toMatchObject({ exitCode: 0, stdout: 'true\n', stderr: '' });
    const failed = await runGit(root, ['rev-parse', '--verify', 'no-such-branch']);
    expect(failed.exitCode).not.toBe(0);
    expect(failed.stderr).toMatch(/no-such-branch|Needed a single revision/);
  });

  it('interleaves stdout and stderr in `all`', async () => {
    const output = await runGit((await repo()).root, ['-c', 'alias.both=!echo to-out; echo to-err >&2', 'both']);
    expect(output.all).toContain('to-out');
    expect(output.all).toContain('to-err');
    expect(output.stdout).toBe('to-out\n');
    expect(output.stderr).toBe('to-err\n');
  });

  it('turns off optional locks and prompts for the git it runs', async () => {
    const output = await runGit((await repo()).root, ['-c', 'alias.env=!echo "$GIT_OPTIONAL_LOCKS $GIT_TERMINAL_PROMPT"', 'env']);
    expect(output.stdout).toBe('0 0\n');
  });

  it('throws a GitError naming the directory when git cannot run there', async () => {
    const missing = join((await repo()).outer, 'no-such-dir');
    const error = await runGit(missing, ['status']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GitError);
    expect((error as GitError).message).toContain(missing);
  });
});
