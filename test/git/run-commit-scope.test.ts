/**
 * Issue 12, "debussy commits files the agent never wrote", through the whole orchestrator in
 * process (test/support/in-process-run.ts) in real temp git repositories: a phase's commits hold
 * only what changed during its sessions. The user's untracked and modified files, what they staged
 * (before the run or while it was stopped) and the files of a repository with no commit yet stay
 * out; credential files the agent wrote (by name, or by content for an .npmrc, a docker config, a
 * kubeconfig) stay out unless commit_secrets is on; files over max_commit_file_size stay out; a
 * warning names each. The resume after kill -9 (a real signal to the built debussy) stays in
 * test/e2e/commit-scope.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { configOverridesFrom } from '../../src/cli/config-flags.js';
import { loadProjectConfig, type DebussyConfig } from '../../src/config/index.js';
import { EXIT_CODES } from '../../src/errors/index.js';
import { done, LoopProject, type LoopOutcome, ofType, script, type ScriptStep, success, touch, useLoopStateDir } from '../support/in-process-run.js';
import { printedRun } from '../support/loop-output.js';

useLoopStateDir();

const TOKEN = 'ghp_' + 'Z'.repeat(36);
const ONE = [{ id: '1', title: 'Agent work' }];

/** A tool call that does `run` in the work tree (a shell command the agent ran). */
const shell = (run: (cwd: string) => void): ScriptStep => ({ tool: 'Bash', run });

/** Every file the commits since `base` touch (every commit without one), sorted, once each. */
function committedSince(project: LoopProject, base: string | undefined): string[] {
  const out = project.git('log', '--name-only', '--format=', ...(base === undefined ? ['HEAD'] : [`${base}..HEAD`]));
  return [...new Set(out.split('\n').filter((line) => line !== ''))].sort();
}

const head = (project: LoopProject): string => project.git('rev-parse', 'HEAD').trim();
const read = (project: LoopProject, file: string): string => readFileSync(path.join(project.dir, file), 'utf8');
const warnings = (out: LoopOutcome): string => ofType(out.events, 'notice').filter((n) => n.level === 'warning').map((n) => n.message).join('\n');

/** A project with git, run with `steps` as its one session, then `check`ed and removed. */
async function withRun(
  steps: ScriptStep[],
  check: (project: LoopProject, out: LoopOutcome, base: string) => void,
  options: { config?: Partial<DebussyConfig> } = {},
): Promise<void> {
  const project = LoopProject.create(ONE, { git: true });
  try {
    const base = head(project);
    const out = await project.run([script({ call: 20_000 }, ...steps, done, success)], options.config === undefined ? {} : { config: options.config });
    expect(out.exitCode, out.notices.join('\n')).toBe(EXIT_CODES.success.code);
    check(project, out, base);
  } finally {
    project.cleanup();
  }
}

describe.concurrent("the user's changes from before the phase", () => {
  it('an untracked .env, a modified file (changed further by the agent) and a staged edit stay out of the commit and are named', async () => {
    const project = LoopProject.create(ONE, { git: true, files: { 'notes.md': 'tracked notes\n', 'staged.md': 'tracked\n' } });
    try {
      const base = head(project);
      project.write('.env', `API_TOKEN=${TOKEN}\n`);
      project.write('scratch/a.txt', 'the user\'s scratch\n');
      project.write('notes.md', 'tracked notes\nuser line\n');
      project.write('staged.md', 'staged by the user\n');
      project.git('add', 'staged.md');
      const agentWork = shell((cwd) => {
        appendFileSync(path.join(cwd, 'notes.md'), 'agent line\n');
        writeFileSync(path.join(cwd, 'scratch/agent.txt'), 'agent\n');
      });

      const out = await project.run([script({ call: 20_000 }, touch('src/agent.txt', 'agent\n'), agentWork, done, success)], { config: { allow_dirty: true } });
      expect(out.exitCode, out.notices.join('\n')).toBe(EXIT_CODES.success.code);

      expect(committedSince(project, base)).toEqual(['src/agent.txt']);
      expect(project.git('log', '-p', `${base}..HEAD`)).not.toContain(TOKEN);
      // Nothing of the user's was altered: the .env, the edit (with the agent's line after it), the staged version.
      expect(read(project, '.env')).toBe(`API_TOKEN=${TOKEN}\n`);
      expect(read(project, 'notes.md')).toBe('tracked notes\nuser line\nagent line\n');
      expect(project.git('show', 'HEAD:notes.md')).toBe('tracked notes\n');
      expect(project.git('show', ':staged.md')).toBe('staged by the user\n');
      expect(project.git('diff', '--cached', '--name-only')).toBe('staged.md\n');

      const named = warnings(out);
      expect(named).toContain('.env, scratch/ (untracked before the phase began)');
      expect(named).toContain('notes.md, staged.md (modified before the phase began)');
      // A directory that held only the user's untracked files stays theirs, whatever is added to it.
      expect(read(project, 'scratch/agent.txt')).toBe('agent\n');
      expect(printedRun(out)).toContain('phase 1: not committed, left as they are in the working tree: .env, scratch/ (untracked before the phase began)');
    } finally {
      project.cleanup();
    }
  });

  it("in a repository with no commit yet, only the agent's files go into the first commit", async () => {
    const project = LoopProject.create(ONE, { files: { '.gitignore': '.debussy/\n', 'mine.txt': 'the user\'s\n' } });
    try {
      execFileSync('git', ['init', '-q', '--initial-branch=main'], { cwd: project.dir });
      for (const [key, value] of [['user.name', 'Debussy Test'], ['user.email', 'test@debussy.invalid'], ['commit.gpgsign', 'false'], ['core.hooksPath', '.git/hooks']]) project.git('config', key ?? '', value ?? '');

      const out = await project.run([script({ call: 20_000 }, touch('agent.txt', 'agent\n'), done, success)], { config: { auto_commit: true } });
      expect(out.exitCode, out.notices.join('\n')).toBe(EXIT_CODES.success.code);

      expect(committedSince(project, undefined)).toEqual(['agent.txt']);
      const untracked = project.git('ls-files', '--others', '--exclude-standard');
      expect(untracked).toContain('mine.txt');
      expect(untracked).toContain('plans/e2e/MASTER_PLAN.md');
      expect(warnings(out)).toMatch(/mine\.txt.*\(untracked before the phase began\)/);
    } finally {
      project.cleanup();
    }
  });
});

describe.concurrent('credential-like files the agent writes', () => {
  const secrets = [touch('.env.local', `API_TOKEN=${TOKEN}\n`), touch('app.txt', 'app\n')];

  it('are not committed; a warning names them', async () => {
    await withRun(secrets, (project, out, base) => {
      expect(committedSince(project, base)).toEqual(['app.txt']);
      expect(read(project, '.env.local')).toBe(`API_TOKEN=${TOKEN}\n`);
      expect(printedRun(out)).toContain('.env.local (look like credentials; set commit_secrets: true to commit such files)');
    });
  });

  it('judged by content: an .npmrc, a docker config.json and a kubeconfig holding a credential stay out and are named; an .npmrc and a .yarnrc.yml without one are committed', async () => {
    const npmToken = '8f2b1c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
    const dockerAuth = Buffer.from('deploybot:WR63uXCN7NdbUMjKtDrF').toString('base64');
    const kubeToken = '4f9a2c7e1b8d3f6a0c5e9b2d7f1a4c8e';
    await withRun([
      touch('.npmrc', `registry=https://registry.npmjs.org/\n//registry.npmjs.org/:_authToken=${npmToken}\n`),
      touch('web/.npmrc', 'registry=https://registry.npmjs.org/\nsave-exact=true\n'),
      touch('.yarnrc.yml', 'nodeLinker: node-modules\n'),
      touch('.docker/config.json', `{"auths": {"registry.example.com": {"auth": "${dockerAuth}"}}}\n`),
      touch('.kube/config', `users:\n- name: ci\n  user:\n    token: ${kubeToken}\n`),
      touch('app.txt', 'app\n'),
    ], (project, out, base) => {
      expect(committedSince(project, base)).toEqual(['.yarnrc.yml', 'app.txt', 'web/.npmrc']);
      const history = project.git('log', '-p', `${base}..HEAD`);
      for (const secret of [npmToken, dockerAuth, kubeToken]) expect(history).not.toContain(secret);
      expect(read(project, '.npmrc')).toContain(npmToken);
      expect(printedRun(out)).toContain('.docker/config.json, .kube/config, .npmrc (look like credentials; set commit_secrets: true to commit such files)');
      expect(warnings(out)).toContain('.docker/config.json, .kube/config, .npmrc (look like credentials');
    });
  });

  it('are committed with commit_secrets: true', async () => {
    await withRun(secrets, (project, out, base) => {
      expect(committedSince(project, base)).toEqual(['.env.local', 'app.txt']);
      expect(printedRun(out)).not.toContain('look like credentials');
    }, { config: { commit_secrets: true } });
  });
});

describe.concurrent('files too large to commit', () => {
  /** Sparse files of these sizes: they cost no disk. */
  const sparse = (files: Record<string, number>): ScriptStep => shell((cwd) => {
    for (const [file, size] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(cwd, file)), { recursive: true });
      writeFileSync(path.join(cwd, file), '');
      truncateSync(path.join(cwd, file), size);
    }
  });

  it('a 2 GB and a 300 MB file stay out of the commit, untouched, and a warning names them; 5 MB goes in', async () => {
    await withRun([touch('app.txt', 'app\n'), sparse({ 'big.bin': 2 * 1024 ** 3, 'data/cache.db': 300 * 1024 ** 2, 'data/limit.bin': 5 * 1024 ** 2 })], (project, out, base) => {
      expect(committedSince(project, base)).toEqual(['app.txt', 'data/limit.bin']);
      expect(statSync(path.join(project.dir, 'big.bin')).size).toBe(2 * 1024 ** 3);
      expect(statSync(path.join(project.dir, 'data/cache.db')).size).toBe(300 * 1024 ** 2);
      const named = 'big.bin (2 GB), data/cache.db (300 MB) (larger than max_commit_file_size, 5MB; raise it, or set it to 0, to commit such files)';
      expect(warnings(out)).toContain(named);
      expect(printedRun(out)).toContain(named);
    });
  });

  it('max_commit_file_size: 0 commits them', async () => {
    await withRun([touch('app.txt', 'app\n'), sparse({ 'data.bin': 6 * 1024 ** 2 })], (project, out, base) => {
      expect(committedSince(project, base)).toEqual(['app.txt', 'data.bin']);
      expect(printedRun(out)).not.toContain('max_commit_file_size');
    }, { config: { max_commit_file_size: 0 } });
  });

  it('--max-commit-file-size sets the limit for one run, over the config', async () => {
    const project = LoopProject.create(ONE, { git: true, files: { '.debussy/config.yaml': 'max_commit_file_size: 0\n' } });
    try {
      // The flag as commander hands it to the run command, over the project's config file.
      const { config } = await loadProjectConfig(project.dir, configOverridesFrom({ maxCommitFileSize: '2KB' }));
      const base = head(project);
      const out = await project.run([script({ call: 20_000 }, touch('app.txt', 'app\n'), shell((cwd) => writeFileSync(path.join(cwd, 'notes.bin'), Buffer.alloc(2560))), done, success)], {
        config: { max_commit_file_size: config.max_commit_file_size },
      });
      expect(out.exitCode, out.notices.join('\n')).toBe(EXIT_CODES.success.code);
      expect(committedSince(project, base)).toEqual(['app.txt']);
      expect(printedRun(out)).toContain('notes.bin (2.5 KB) (larger than max_commit_file_size, 2KB;');
    } finally {
      project.cleanup();
    }
  });
});

describe('a resumed phase', () => {
  // After kill -9 of the built debussy (the dead session's work committed, what the user staged meanwhile not): test/e2e/commit-scope.test.ts.
  it('after an interrupt: what the user changed while the run was stopped stays out, staged or not', async () => {
    const project = LoopProject.create([{ id: '1', title: 'Interrupted' }], { git: true, files: { 'user.md': 'tracked\n' } });
    try {
      const base = head(project);
      const interrupt = new AbortController();
      const ctrlC = shell(() => interrupt.abort());
      const first = await project.run([script({ call: 20_000 }, touch('wip.txt', 'agent wip\n'), ctrlC, { hang: true })], { interrupt });
      expect(first.exitCode).toBe(EXIT_CODES.interrupted.code);
      expect(committedSince(project, base)).toEqual(['wip.txt']);

      project.write('user.md', 'edited while stopped\n');
      project.write('README.md', 'staged while stopped\n');
      project.git('add', 'README.md');
      project.write('scratch.txt', 'new while stopped\n');

      const resumed = await project.run([script({ call: 20_000 }, touch('more.txt', 'more\n'), done, success)]);
      expect(resumed.exitCode, resumed.notices.join('\n')).toBe(EXIT_CODES.success.code);
      expect(ofType(resumed.events, 'attempt_started')[0]?.kind).toBe('resume');
      expect(resumed.agent.launches[0]?.prompt).toContain('wip.txt');

      expect(committedSince(project, base)).toEqual(['more.txt', 'wip.txt']);
      expect(read(project, 'user.md')).toBe('edited while stopped\n');
      expect(project.git('show', ':README.md')).toBe('staged while stopped\n');
      expect(printedRun(resumed)).toContain('README.md, scratch.txt, user.md (changed while debussy was stopped)');
    } finally {
      project.cleanup();
    }
  });
});
