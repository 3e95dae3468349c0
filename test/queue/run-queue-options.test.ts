/**
 * `debussy run --queue`'s bad input decided in process: options that do not go together (run.ts)
 * and a repository with no remote for the workers (the submitter's resolveRemote), refused before
 * anything is queued or run. The command line's own line, exit code and hidden password for such
 * input stay in queue-cli.test.ts.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import runCommand from '../../src/cli/commands/run.js';
import { UsageError } from '../../src/errors/index.js';
import { resolveRemote } from '../../src/queue/submitter.js';
import { commandStdout } from '../support/loop-output.js';
import { planFiles } from '../support/plan-files.js';
import { tempGitRepo, type TempDir } from '../support/temp-git-repo.js';

const PLAN = 'plans/e2e/MASTER_PLAN.md';
// Port 1 refuses at once: a Redis that is not there (never reached: the options are refused first).
const NOWHERE = 'redis://127.0.0.1:1';

let repo: TempDir | undefined;
afterEach(async () => {
  await repo?.cleanup();
  repo = undefined;
});

describe('debussy run --queue: bad input, in process', () => {
  it.each([
    ['--remote without --queue', { remote: 'origin' }, /^--remote goes with --queue/],
    ['--queue with --only', { queue: NOWHERE, only: '1' }, /^--queue cannot go with --only/],
    ['--queue with --dry-run', { queue: NOWHERE, dryRun: true }, /^--queue cannot go with --dry-run/],
  ])('%s is refused before anything runs', async (_name, options, problem) => {
    repo = await tempGitRepo(planFiles('Queue Plan', [{ id: '1', title: 'Only' }]));
    const refused = await commandStdout(repo.dir, () => runCommand(PLAN, options), { withStderr: true }).then(() => undefined, (error: unknown) => error);
    expect(refused).toBeInstanceOf(UsageError);
    expect((refused as UsageError).message).toMatch(problem);
    expect(existsSync(path.join(repo.dir, '.debussy/runs')), 'a run was started').toBe(false);
  });

  it('a repository with no remote named origin is refused, naming --remote', async () => {
    repo = await tempGitRepo();
    const refused = await resolveRemote(repo.dir, 'origin').then(() => undefined, (error: unknown) => error);
    expect(refused).toBeInstanceOf(UsageError);
    expect((refused as UsageError).message).toMatch(/no remote named origin for the workers to fetch from/);
    expect((refused as UsageError).hint).toMatch(/--remote NAME\|URL/);
  });
});
