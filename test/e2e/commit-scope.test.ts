/**
 * Issue 12, "debussy commits files the agent never wrote", where only the built debussy and the
 * real claude CLI can show it: after kill -9 of debussy, the next run commits the dead session's
 * work and leaves out what the user staged meanwhile. The rest of the commit scope (the user's
 * changes from before the phase, a repository with no commit, credential files, files too large,
 * a resume after an interrupt) is shown in process: test/git/run-commit-scope.test.ts.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { E2EProject, eventsOf } from './e2e-project.js';
import { livePids, waitFor } from './processes.js';
import { bash, done, sessionKind, write } from './session-script.js';

let project: E2EProject | undefined;
afterEach(async () => {
  await project?.dispose();
  project = undefined;
});

/** Paths of every file in every commit since `base` (all commits when base is undefined). */
async function committedSince(p: E2EProject, base: string | undefined): Promise<string[]> {
  const range = base === undefined ? ['HEAD'] : [`${base}..HEAD`];
  const out = await p.git('log', '--name-only', '--format=', ...range);
  return [...new Set(out.split('\n').filter((line) => line !== ''))].sort();
}

async function head(p: E2EProject): Promise<string> {
  return (await p.git('rev-parse', 'HEAD')).trim();
}

describe('a resumed phase', () => {
  it("after kill -9: the dead session's work is committed, what the user staged meanwhile is not", async () => {
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Killed' }],
      script: (req) => {
        const turns = sessionKind(req) === 'checkpoint' ? [bash('debussy done --phase 1'), done()] : [write('wip.txt', 'agent wip\n'), bash('(sleep 27.31)'), done()];
        const body = req.body as { messages?: { role?: string }[] };
        return turns[(body.messages ?? []).filter((m) => m.role === 'assistant').length] ?? done();
      },
    });
    const base = await head(project);
    const first = project.start(['run', project.planArg]);
    await waitFor('the agent to run sleep 27.31', () => livePids(/^sleep 27\.31$/).length > 0);
    first.child.kill('SIGKILL');
    await first.done;
    expect(existsSync(path.join(project.dir, 'wip.txt'))).toBe(true);

    // While debussy is dead the user edits the README and stages it.
    project.write('README.md', 'the user\'s staged edit\n');
    await project.git('add', 'README.md');

    const resumed = await project.run(['run', project.planArg]);
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
    expect(eventsOf(await project.journal(), 'attempt_started')[0]?.kind).toBe('resume');

    expect(await committedSince(project, base)).toEqual(['wip.txt']);
    expect(await project.git('show', ':README.md')).toBe('the user\'s staged edit\n');
    expect(await project.git('diff', '--cached', '--name-only')).toBe('README.md\n');
    expect(resumed.stdout).toContain('README.md (changed while debussy was stopped)');
  });
});
