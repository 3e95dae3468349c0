/**
 * Issue 12, "debussy commits files the agent never wrote", through the built debussy and the real
 * claude CLI against the scripted server: a phase's commits hold only what changed during its
 * sessions. The user's untracked and modified files, what they staged (before the run or while it
 * was stopped) and the files of a repository with no commit yet stay out; credential files the
 * agent wrote (by name, or by content for an .npmrc, a docker config, a kubeconfig) stay out unless
 * commit_secrets is on; a warning names each.
 */
import { existsSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { firstUserText } from '../support/scripted-api.js';
import { E2EProject, eventsOf } from './e2e-project.js';
import { livePids, waitFor } from './processes.js';
import { bash, done, scriptBySession, sessionKind, write } from './session-script.js';

const TOKEN = 'ghp_' + 'Z'.repeat(36);

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

function warnings(events: Awaited<ReturnType<E2EProject['journal']>>): string {
  return eventsOf(events, 'notice').filter((n) => n.level === 'warning').map((n) => n.message).join('\n');
}

describe("the user's changes from before the phase", () => {
  it('an untracked .env, a modified file (changed further by the agent) and a staged edit stay out of the commit and are named', async () => {
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Agent work' }],
      script: scriptBySession({
        fresh: [write('src/agent.txt', 'agent\n'), bash('echo "agent line" >> notes.md && echo agent > scratch/agent.txt'), bash('debussy done --phase 1'), done()],
      }),
    });
    project.write('notes.md', 'tracked notes\n');
    project.write('staged.md', 'tracked\n');
    await project.git('add', 'notes.md', 'staged.md');
    await project.git('commit', '-q', '-m', 'user files');
    const base = await head(project);
    project.write('.env', `API_TOKEN=${TOKEN}\n`);
    project.write('scratch/a.txt', 'the user\'s scratch\n');
    project.write('notes.md', 'tracked notes\nuser line\n');
    project.write('staged.md', 'staged by the user\n');
    await project.git('add', 'staged.md');

    const result = await project.run(['run', project.planArg, '--allow-dirty']);
    expect(result.code, result.stdout + result.stderr).toBe(0);

    expect(await committedSince(project, base)).toEqual(['src/agent.txt']);
    expect(await project.git('log', '-p', `${base}..HEAD`)).not.toContain(TOKEN);
    // Nothing of the user's was altered: the .env, the edit (with the agent's line after it), the staged version.
    expect(project.read('.env')).toBe(`API_TOKEN=${TOKEN}\n`);
    expect(project.read('notes.md')).toBe('tracked notes\nuser line\nagent line\n');
    expect(await project.git('show', 'HEAD:notes.md')).toBe('tracked notes\n');
    expect(await project.git('show', ':staged.md')).toBe('staged by the user\n');
    expect(await project.git('diff', '--cached', '--name-only')).toBe('staged.md\n');

    const named = warnings(await project.journal());
    expect(named).toContain('.env, scratch/ (untracked before the phase began)');
    expect(named).toContain('notes.md, staged.md (modified before the phase began)');
    // A directory that held only the user's untracked files stays theirs, whatever is added to it.
    expect(named).toContain('scratch/ (untracked before the phase began)');
    expect(project.read('scratch/agent.txt')).toBe('agent\n');
    expect(result.stdout).toContain('phase 1: not committed, left as they are in the working tree: .env, scratch/ (untracked before the phase began)');
  });

  it('in a repository with no commit yet, only the agent\'s files go into the first commit', async () => {
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'First commit' }],
      script: scriptBySession({ fresh: [write('agent.txt', 'agent\n'), bash('debussy done --phase 1'), done()] }),
    });
    rmSync(path.join(project.dir, '.git'), { recursive: true, force: true });
    await project.git('init', '-q', '--initial-branch=main');
    await project.git('config', 'user.name', 'Debussy Test');
    await project.git('config', 'user.email', 'test@debussy.invalid');
    await project.git('config', 'commit.gpgsign', 'false');
    project.write('mine.txt', 'the user\'s\n');

    const result = await project.run(['run', project.planArg]);
    expect(result.code, result.stdout + result.stderr).toBe(0);

    expect(await committedSince(project, undefined)).toEqual(['agent.txt']);
    const untracked = await project.git('ls-files', '--others', '--exclude-standard');
    expect(untracked).toContain('mine.txt');
    expect(untracked).toContain('plans/e2e/MASTER_PLAN.md');
    expect(warnings(await project.journal())).toMatch(/mine\.txt.*\(untracked before the phase began\)/);
  });
});

describe('credential-like files the agent writes', () => {
  const script = () =>
    scriptBySession({ fresh: [write('.env.local', `API_TOKEN=${TOKEN}\n`), write('app.txt', 'app\n'), bash('debussy done --phase 1'), done()] });

  it('are not committed; a warning names them', async () => {
    project = await E2EProject.create({ phases: [{ id: '1', title: 'Secrets' }], script: script() });
    const base = await head(project);

    const result = await project.run(['run', project.planArg]);
    expect(result.code, result.stdout + result.stderr).toBe(0);

    expect(await committedSince(project, base)).toEqual(['app.txt']);
    expect(project.read('.env.local')).toBe(`API_TOKEN=${TOKEN}\n`);
    expect(result.stdout).toContain('.env.local (look like credentials; set commit_secrets: true to commit such files)');
  });

  it('judged by content: an .npmrc, a docker config.json and a kubeconfig holding a credential stay out and are named; an .npmrc and a .yarnrc.yml without one are committed', async () => {
    const npmToken = '8f2b1c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
    const dockerAuth = Buffer.from('deploybot:WR63uXCN7NdbUMjKtDrF').toString('base64');
    const kubeToken = '4f9a2c7e1b8d3f6a0c5e9b2d7f1a4c8e';
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Registry access' }],
      script: scriptBySession({
        fresh: [
          write('.npmrc', `registry=https://registry.npmjs.org/\n//registry.npmjs.org/:_authToken=${npmToken}\n`),
          write('web/.npmrc', 'registry=https://registry.npmjs.org/\nsave-exact=true\n'),
          write('.yarnrc.yml', 'nodeLinker: node-modules\n'),
          write('.docker/config.json', `{"auths": {"registry.example.com": {"auth": "${dockerAuth}"}}}\n`),
          write('.kube/config', `users:\n- name: ci\n  user:\n    token: ${kubeToken}\n`),
          write('app.txt', 'app\n'),
          bash('debussy done --phase 1'),
          done(),
        ],
      }),
    });
    const base = await head(project);

    const result = await project.run(['run', project.planArg]);
    expect(result.code, result.stdout + result.stderr).toBe(0);

    expect(await committedSince(project, base)).toEqual(['.yarnrc.yml', 'app.txt', 'web/.npmrc']);
    const history = await project.git('log', '-p', `${base}..HEAD`);
    for (const secret of [npmToken, dockerAuth, kubeToken]) expect(history).not.toContain(secret);
    expect(project.read('.npmrc')).toContain(npmToken);
    expect(result.stdout).toContain('.docker/config.json, .kube/config, .npmrc (look like credentials; set commit_secrets: true to commit such files)');
    expect(warnings(await project.journal())).toContain('.docker/config.json, .kube/config, .npmrc (look like credentials');
  });

  it('are committed with commit_secrets: true', async () => {
    project = await E2EProject.create({ phases: [{ id: '1', title: 'Secrets' }], script: script(), config: { commit_secrets: true } });
    const base = await head(project);

    const result = await project.run(['run', project.planArg]);
    expect(result.code, result.stdout + result.stderr).toBe(0);

    expect(await committedSince(project, base)).toEqual(['.env.local', 'app.txt']);
    expect(result.stdout).not.toContain('look like credentials');
  });
});

describe('files too large to commit', () => {
  /** Sparse files: they cost no disk. */
  const script = (commands: string) => scriptBySession({ fresh: [write('app.txt', 'app\n'), bash(commands), bash('debussy done --phase 1'), done()] });

  it('a 2 GB and a 300 MB file stay out of the commit, untouched, and a warning names them; 5 MB goes in', async () => {
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Big files' }],
      script: script('truncate -s 2G big.bin && mkdir -p data && truncate -s 300M data/cache.db && truncate -s 5M data/limit.bin'),
    });
    const base = await head(project);

    const result = await project.run(['run', project.planArg]);
    expect(result.code, result.stdout + result.stderr).toBe(0);

    expect(await committedSince(project, base)).toEqual(['app.txt', 'data/limit.bin']);
    expect(statSync(path.join(project.dir, 'big.bin')).size).toBe(2 * 1024 ** 3);
    expect(statSync(path.join(project.dir, 'data/cache.db')).size).toBe(300 * 1024 ** 2);
    const named = 'big.bin (2 GB), data/cache.db (300 MB) (larger than max_commit_file_size, 5MB; raise it, or set it to 0, to commit such files)';
    expect(warnings(await project.journal())).toContain(named);
    expect(result.stdout).toContain(named);
  });

  it('max_commit_file_size: 0 commits them', async () => {
    project = await E2EProject.create({ phases: [{ id: '1', title: 'Big files' }], script: script('truncate -s 6M data.bin'), config: { max_commit_file_size: 0 } });
    const base = await head(project);
    const result = await project.run(['run', project.planArg]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(await committedSince(project, base)).toEqual(['app.txt', 'data.bin']);
    expect(result.stdout).not.toContain('max_commit_file_size');
  });

  it('--max-commit-file-size sets the limit for one run, over the config', async () => {
    project = await E2EProject.create({ phases: [{ id: '1', title: 'Big files' }], script: script('head -c 2560 /dev/zero > notes.bin'), config: { max_commit_file_size: 0 } });
    const base = await head(project);
    const result = await project.run(['run', project.planArg, '--max-commit-file-size', '2KB']);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(await committedSince(project, base)).toEqual(['app.txt']);
    expect(result.stdout).toContain('notes.bin (2.5 KB) (larger than max_commit_file_size, 2KB;');
  });
});

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

  it('after Ctrl-C: what the user changed while the run was stopped stays out, staged or not', async () => {
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Interrupted' }],
      script: scriptBySession({
        fresh: [write('wip.txt', 'agent wip\n'), bash('(sleep 26.17)'), done()],
        checkpoint: [write('more.txt', 'more\n'), bash('debussy done --phase 1'), done()],
      }),
    });
    project.write('user.md', 'tracked\n');
    await project.git('add', 'user.md');
    await project.git('commit', '-q', '-m', 'user file');
    const base = await head(project);
    const first = project.start(['run', project.planArg]);
    await waitFor('the agent to run sleep 26.17', () => livePids(/^sleep 26\.17$/).length > 0);
    first.child.kill('SIGINT');
    expect((await first.done).code).toBe(130);
    expect(await committedSince(project, base)).toEqual(['wip.txt']);

    project.write('user.md', 'edited while stopped\n');
    project.write('README.md', 'staged while stopped\n');
    await project.git('add', 'README.md');
    project.write('scratch.txt', 'new while stopped\n');

    const resumed = await project.run(['run', project.planArg]);
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
    const resumedPrompt = project.api.mainRequests().find((r) => sessionKind(r) === 'checkpoint');
    expect(resumedPrompt && firstUserText(resumedPrompt)).toContain('wip.txt');

    expect(await committedSince(project, base)).toEqual(['more.txt', 'wip.txt']);
    expect(project.read('user.md')).toBe('edited while stopped\n');
    expect(await project.git('show', ':README.md')).toBe('staged while stopped\n');
    expect(resumed.stdout).toContain('README.md, scratch.txt, user.md (changed while debussy was stopped)');
  });
});
