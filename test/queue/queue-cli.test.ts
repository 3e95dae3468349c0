/**
 * The queue commands' bad input, through the built binary: one line naming the problem and the
 * fix, a documented exit code, no stack trace, no password shown; nothing is queued or run.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { debussy, expectNoStack, git, initRepo, tempDir } from '../cli/cli-harness.js';
import { planFiles } from '../support/plan-files.js';

let temp: { dir: string; cleanup(): void } | undefined;
afterEach(() => {
  temp?.cleanup();
  temp = undefined;
});

/** A repository holding a plan of one phase, committed on main. */
function project(): string {
  temp = tempDir('debussy-queue-cli-');
  const dir = path.join(temp.dir, 'repo');
  mkdirSync(dir);
  initRepo(dir);
  for (const [file, text] of Object.entries(planFiles('Queue Plan', [{ id: '1', title: 'Only' }]))) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'plan');
  return dir;
}

const PLAN = 'plans/e2e/MASTER_PLAN.md';
// Port 1 refuses at once: a Redis that is not there.
const NOWHERE = 'redis://127.0.0.1:1';
const QUICK = { DEBUSSY_QUEUE_CONNECT_MS: '500' };

describe('debussy run --queue and debussy worker: bad input', () => {
  // Options that do not go together, and no origin: decided in process (run-queue-options.test.ts).
  it('run: a URL that is not Redis', async () => {
    const dir = project();
    const result = await debussy(['run', PLAN, '--queue', 'http://queue:6379'], { cwd: dir, env: QUICK });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(/is not a Redis URL/);
    expectNoStack(result);
  });

  it('run: a remote with a password is refused without showing it', async () => {
    const dir = project();
    git(dir, 'remote', 'add', 'origin', 'https://me:hunter2@example.com/app.git');
    const result = await debussy(['run', PLAN, '--queue', NOWHERE], { cwd: dir, env: QUICK });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(/holds a password: credentials stay in the workers' environment/);
    expect(result.stdout + result.stderr).not.toContain('hunter2');
  });

  it('run and worker: a Redis that does not answer at the start is exit 11, its password hidden', async () => {
    const dir = project();
    git(dir, 'remote', 'add', 'origin', path.join(temp!.dir, 'nowhere.git'));
    const run = await debussy(['run', PLAN, '--queue', 'redis://:s3cret@127.0.0.1:1'], { cwd: dir, env: QUICK });
    expect(run.code, run.stderr).toBe(11);
    expect(run.stderr).toMatch(/the queue's Redis at redis:\/\/:\S+@127\.0\.0\.1:1 did not answer within 1 s/);
    expect(run.stdout + run.stderr).not.toContain('s3cret');
    expectNoStack(run);
    const worker = await debussy(['worker', '--queue', NOWHERE, '--dir', path.join(temp!.dir, 'w')], { cwd: temp!.dir, env: QUICK });
    expect(worker.code, worker.stderr).toBe(11);
    expectNoStack(worker);
    const bad = await debussy(['worker', '--queue', 'not a url'], { cwd: temp!.dir });
    expect(bad.code, bad.stderr).toBe(2);
    expect(bad.stderr).toMatch(/is not a URL/);
  });
});
