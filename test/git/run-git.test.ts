import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GitError } from '../../src/errors/index.js';
import { runGit, stopRunningGit } from '../../src/git/run-git.js';
import { livePids, waitFor } from '../e2e/processes.js';
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

  it("passes the user's own git variables and debussy's owner marker on to what git runs", async () => {
    // simple-git strips GIT_* variables it inherits unless told otherwise: the user's must survive.
    const saved = { owner: process.env.DEBUSSY_OWNER, user: process.env.GIT_DEBUSSY_TEST_VALUE };
    process.env.DEBUSSY_OWNER = '4242-77';
    process.env.GIT_DEBUSSY_TEST_VALUE = 'kept';
    try {
      const output = await runGit((await repo()).root, ['-c', 'alias.env=!echo "$DEBUSSY_OWNER $GIT_DEBUSSY_TEST_VALUE"', 'env']);
      expect(output.stdout).toBe('4242-77 kept\n');
    } finally {
      for (const [key, value] of [['DEBUSSY_OWNER', saved.owner], ['GIT_DEBUSSY_TEST_VALUE', saved.user]] as const) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
  });

  it.runIf(process.platform === 'linux')('runs git in a process group of its own, so a Ctrl-C on the terminal reaches only debussy', async () => {
    const output = await runGit((await repo()).root, ['-c', 'alias.group=!ps -o pgid= -p $$', 'group']);
    const own = execFileSync('ps', ['-o', 'pgid=', '-p', String(process.pid)], { encoding: 'utf8' }).trim();
    expect(output.exitCode).toBe(0);
    expect(output.stdout.trim()).toMatch(/^\d+$/);
    expect(output.stdout.trim()).not.toBe(own);
  });

  it('throws a GitError naming the directory when git cannot run there', async () => {
    const missing = join((await repo()).outer, 'no-such-dir');
    const error = await runGit(missing, ['status']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GitError);
    expect((error as GitError).message).toContain(missing);
  });
});

describe('runGit with a hook that hangs', () => {
  it('ends git and the hook after the timeout with one clear line, and removes the index lock', async () => {
    const { root } = await repo();
    const { writeFileSync, chmodSync, existsSync } = await import('node:fs');
    const hook = join(root, '.git', 'hooks', 'pre-commit');
    writeFileSync(hook, '#!/bin/sh\nsleep 321\n');
    chmodSync(hook, 0o755);
    writeFileSync(join(root, 'new.txt'), 'x\n');
    await runGit(root, ['add', 'new.txt']);
    const output = await runGit(root, ['commit', '-m', 'hangs'], { timeoutMs: 1000 });
    expect(output.exitCode).toBe(124);
    expect(output.all).toContain('debussy: git commit did not finish within 1 s');
    expect(livePids(/^sleep 321$/)).toEqual([]);
    expect(existsSync(join(root, '.git', 'index.lock'))).toBe(false);
  });

  it("a second stop ends a hook that ignores SIGTERM, and git still removes its index lock", async () => {
    const { root } = await repo();
    const { writeFileSync, chmodSync, existsSync } = await import('node:fs');
    const hook = join(root, '.git', 'hooks', 'pre-commit');
    writeFileSync(hook, "#!/bin/sh\ntrap '' TERM\nsleep 323\n");
    chmodSync(hook, 0o755);
    writeFileSync(join(root, 'new.txt'), 'x\n');
    await runGit(root, ['add', 'new.txt']);
    const running = runGit(root, ['commit', '-m', 'hangs']);
    await waitFor('the hook to run sleep 323', () => livePids(/^sleep 323$/).length > 0);
    stopRunningGit('graceful');
    stopRunningGit('now');
    const output = await running;
    expect(output.exitCode).toBe(130);
    expect(output.all).toContain('debussy: git commit stopped by the user');
    expect(livePids(/^sleep 323$/)).toEqual([]);
    expect(existsSync(join(root, '.git', 'index.lock'))).toBe(false);
  });

  it('stopRunningGit ends a running command at once', async () => {
    const { root } = await repo();
    const running = runGit(root, ['-c', 'alias.hang=!sleep 322', 'hang']);
    await waitFor('the alias to run sleep 322', () => livePids(/^sleep 322$/).length > 0);
    expect(stopRunningGit('graceful')).toBe(1);
    const output = await running;
    expect(output.exitCode).toBe(130);
    expect(output.all).toContain('debussy: git hang stopped by the user');
    expect(livePids(/^sleep 322$/)).toEqual([]);
  });
});
