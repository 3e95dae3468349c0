/**
 * A run's commits through a formatting pre-commit hook (lint-staged style: it rewrites a staged
 * file and stages it again), in process: the phase's commit holds the formatted file, the index
 * equals HEAD, the next phase does not take the hook's rewrite for the user's edit, and the user's
 * own staged edit stays staged and out of the commits. commit-hooks.test.ts shows the same of one
 * commitPaths; this is the whole run (runPlan, real git, a real hook) with the in-process agent.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../src/errors/index.js';
import { done, LoopProject, type SessionScript, success, touch, useLoopStateDir } from '../support/in-process-run.js';
import { installHook } from './git-fixture.js';

useLoopStateDir();

const FORMATTER = `git diff --cached --name-only --diff-filter=ACM -z | xargs -0 -r -n1 sh -c 'case "$0" in *.txt) sed -i "s/ugly/pretty/" "$0" && git add "$0";; esac'`;

describe('commits through a formatting hook', () => {
  it('a hook that rewrites and restages a file (lint-staged style) leaves the index equal to HEAD', async () => {
    const project = LoopProject.create([{ id: '1', title: 'Formatted' }, { id: '2', title: 'Next', dependsOn: ['1'] }], { git: true });
    try {
      project.write('mine.txt', 'tracked\n');
      project.git('add', 'mine.txt');
      project.git('commit', '-q', '-m', 'a file of the user');
      await installHook(project.dir, 'pre-commit', FORMATTER);
      const base = project.git('rev-parse', 'HEAD').trim();
      // The user's own staged edit must stay staged, untouched by the hook and by debussy.
      project.write('mine.txt', 'staged by the user\n');
      project.git('add', 'mine.txt');

      const sessions: SessionScript = (launch) => /phase 1\b/i.test(launch.prompt)
        ? [{ call: 20_000 }, touch('src/a.txt', 'ugly code\n'), done, success]
        : [{ call: 20_000 }, touch('src/b.txt', 'more\n'), done, success];
      const out = await project.run([sessions], { config: { allow_dirty: true } });
      expect(out.exitCode).toBe(EXIT_CODES.success.code);
      expect(out.agent.launches).toHaveLength(2);
      expect(project.git('show', 'HEAD:src/a.txt')).toBe('pretty code\n');
      expect(readFileSync(path.join(project.dir, 'src/a.txt'), 'utf8')).toBe('pretty code\n');
      expect(project.git('show', 'HEAD:src/b.txt')).toBe('more\n');
      expect(project.git('status', '--porcelain')).toBe('M  mine.txt\n');
      expect(project.git('show', ':mine.txt')).toBe('staged by the user\n');
      expect(project.git('log', '--name-only', '--format=', `${base}..HEAD`)).not.toContain('mine.txt');
      expect(out.printed).not.toContain('src/a.txt (modified before the phase began)');
    } finally {
      project.cleanup();
    }
  });
});
