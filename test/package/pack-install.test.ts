/**
 * The package as a user gets it: `npm pack` of this checkout, installed with `npm install -g` into
 * a temporary prefix (dependencies from the npm cache, else the registry), then the installed
 * `debussy` runs --version, init, plan new, audit and a scripted run with the real claude talking
 * to the scripted model server. The tarball is checked for what it must hold and must not.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listRuns, readJournal, type JournalEvent } from '../../src/state/index.js';
import { CLAUDE_BIN, claudeEnv, git, makeClaudeConfigDir } from '../support/claude.js';
import { firstUserText, startScriptedApi, type RecordedRequest, type ScriptedTurn } from '../support/scripted-api.js';
import { assistantTurns } from '../e2e/session-script.js';
import { REPO_ROOT, runCommand, type CliResult } from '../cli/cli-harness.js';
import { npm } from './npm.js';

const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
const INSTALL_TIMEOUT_MS = 180_000;

let work: string;
let tarball: string;
let installed: string;
let binDir: string;

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'debussy-pack-'));
  // dist/ is built by the suite's global setup; --ignore-scripts keeps `prepare` from building again.
  const packed = await npm(['pack', '--ignore-scripts', '--pack-destination', work, '--json'], REPO_ROOT);
  expect(packed.code, packed.stderr).toBe(0);
  const name = readdirSync(work).find((file) => file.endsWith('.tgz'));
  if (name === undefined) throw new Error(`npm pack wrote no tarball:\n${packed.stdout}${packed.stderr}`);
  tarball = path.join(work, name);
  const prefix = path.join(work, 'prefix');
  const install = await npm(['install', '-g', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', tarball], work);
  expect(install.code, `${install.stdout}${install.stderr}`).toBe(0);
  binDir = path.join(prefix, 'bin');
  installed = path.join(prefix, 'lib', 'node_modules', pkg.name);
}, INSTALL_TIMEOUT_MS);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the packed package', () => {
  it('holds the build, templates, docs, schema, LICENSE and CHANGELOG, and no source maps', () => {
    const files = listFiles(installed);
    expect(files).toContain('bin/debussy.js');
    expect(files).toContain('dist/cli/main.js');
    expect(files).toContain('LICENSE');
    expect(files).toContain('CHANGELOG.md');
    expect(files).toContain('README.md');
    expect(files).toContain('docs/configuration.md');
    expect(files).toContain('docs/permissions.md');
    expect(files).toContain('schema/config.schema.json');
    expect(files.filter((file) => file.endsWith('.map'))).toEqual([]);
    // The test setup's record of what dist/ was built from (scripts/build.js) is not the package's.
    expect(files).not.toContain('dist/.build-stamp');
    expect(files.filter((file) => file.startsWith('src/') || file.startsWith('test/'))).toEqual([]);
    expect(readFileSync(path.join(installed, 'LICENSE'), 'utf8')).toMatch(/^MIT License[\s\S]*the debussy authors/);
  });

  it('names in its hints only docs it ships', () => {
    // Every doc the built code names (docFile('NAME.md'), the installed path, or docs/NAME.md) is in the installed package.
    const named = new Set<string>();
    for (const file of listFiles(path.join(installed, 'dist')).filter((f) => f.endsWith('.js'))) {
      for (const match of readFileSync(path.join(installed, 'dist', file), 'utf8').matchAll(/docs\/([\w-]+\.md)|docFile\('([\w-]+\.md)'\)/g)) named.add(match[1] ?? match[2] ?? '');
    }
    expect(named.size).toBeGreaterThan(2);
    for (const doc of named) expect(existsSync(path.join(installed, 'docs', doc)), `docs/${doc}`).toBe(true);
  });

  it('without its build (a git install whose prepare npm skipped), says so in one line with the fix', async () => {
    const bare = path.join(work, 'no-build', 'bin');
    mkdirSync(bare, { recursive: true });
    copyFileSync(path.join(installed, 'bin', 'debussy.js'), path.join(bare, 'debussy.js'));
    copyFileSync(path.join(installed, 'package.json'), path.join(bare, '..', 'package.json'));
    const result = await runCommand(process.execPath, [path.join(bare, 'debussy.js'), '--version'], { cwd: work, env: process.env });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^debussy: this install has no build \(dist\/ is missing\), so it cannot run\.\n {2}Install a packed copy, which npm builds: npm install -g "\$\(npm pack <the git URL or folder you installed from> \| tail -n 1\)"/);
    // No web address the project has not confirmed: the hint works from what the user has.
    expect(result.stderr).not.toMatch(/https?:|github:/);
    expect(result.stderr).not.toContain('ERR_MODULE_NOT_FOUND');
  });

  it('runs --version, init, plan new, audit and a scripted run from the install', async () => {
    const project = path.join(work, 'project');
    mkdirSync(path.join(project, 'src'), { recursive: true });
    writeFileSync(path.join(project, 'package.json'), `${JSON.stringify({ name: 'project', version: '1.0.0', private: true, scripts: { test: 'node test.js' } }, null, 2)}\n`);
    writeFileSync(path.join(project, 'test.js'), "if (!require('node:fs').existsSync('src/billing.js')) process.exit(1);\n");
    writeFileSync(path.join(project, '.gitignore'), 'node_modules/\n');
    await git(project, 'init', '-q');
    await git(project, 'add', '.');
    await git(project, '-c', 'user.name=Pack', '-c', 'user.email=pack@example.com', 'commit', '-q', '-m', 'project');

    // The installed debussy and the real claude on PATH, nothing of this checkout's bin/.
    const tools = path.join(work, 'tools');
    mkdirSync(tools);
    symlinkSync(CLAUDE_BIN, path.join(tools, 'claude'));
    const api = await startScriptedApi({ script: agentScript(project) });
    const claudeConfig = await makeClaudeConfigDir();
    try {
      const env: Record<string, string | undefined> = {
        ...claudeEnv(api.url, claudeConfig.dir),
        IS_SANDBOX: undefined,
        PATH: `${binDir}${path.delimiter}${tools}${path.delimiter}${process.env.PATH ?? ''}`,
        CI: 'true',
        GIT_AUTHOR_NAME: 'Pack', GIT_AUTHOR_EMAIL: 'pack@example.com', GIT_COMMITTER_NAME: 'Pack', GIT_COMMITTER_EMAIL: 'pack@example.com',
      };
      for (const key of ['DEBUSSY_RUN_ID', 'DEBUSSY_ATTEMPT_ID', 'DEBUSSY_PROJECT_ROOT', 'DEBUSSY_PLAN', 'DEBUSSY_PHASE_ID']) env[key] = undefined;
      const sh = async (command: string): Promise<CliResult> => {
        const result = await runCommand('sh', ['-c', command], { cwd: project, env });
        expect(result.code, `$ ${command}\n${result.stdout}${result.stderr}`).toBe(0);
        return result;
      };

      expect((await sh('command -v debussy')).stdout.trim()).toBe(path.join(binDir, 'debussy'));
      expect((await sh('debussy --version')).stdout.trim()).toBe(pkg.version);
      expect((await sh('debussy -v')).stdout.trim()).toBe(pkg.version);
      await sh('debussy init');
      const config = readFileSync(path.join(project, '.debussy', 'config.yaml'), 'utf8');
      // The schema the config names is the installed one (editors resolve it; so can we).
      const schemaRef = /^# yaml-language-server: \$schema=(\S+)$/m.exec(config)?.[1];
      expect(schemaRef).toBeDefined();
      const schemaFile = path.resolve(project, '.debussy', schemaRef ?? '');
      expect(schemaFile).toBe(path.join(installed, 'schema', 'config.schema.json'));
      expect(existsSync(schemaFile)).toBe(true);
      // Every doc a hint names is a path that exists in this install (here, config's on a bad value).
      const reference = /^# Reference: (\S+) /m.exec(config)?.[1];
      expect(reference).toBe(path.join(installed, 'docs', 'configuration.md'));
      writeFileSync(path.join(project, '.debussy', 'config.yaml'), `${config}\ncontext_threshold: 150\n`);
      const bad = await runCommand('sh', ['-c', 'debussy config'], { cwd: project, env });
      expect(bad.code, bad.stderr).toBe(2);
      const hinted = /(\/\S+\/docs\/[\w-]+\.md)/.exec(bad.stderr)?.[1];
      expect(hinted, bad.stderr).toBe(path.join(installed, 'docs', 'configuration.md'));
      writeFileSync(path.join(project, '.debussy', 'config.yaml'), config);
      await sh('debussy plan new billing --phases 1');
      await sh('debussy audit plans/billing/MASTER_PLAN.md');
      await sh('git add -A && git commit -q -m "debussy set-up and plan"');
      await sh('debussy run plans/billing/MASTER_PLAN.md');

      const newest = (await listRuns(project))[0];
      const events: JournalEvent[] = newest ? (await readJournal(path.join(newest.dir, 'journal.ndjson'))).events : [];
      const ended = events.filter((e): e is Extract<JournalEvent, { type: 'phase_ended' }> => e.type === 'phase_ended');
      expect(ended.map((e) => [e.phaseId, e.status])).toEqual([['1', 'completed']]);
      expect(readFileSync(path.join(project, 'src', 'billing.js'), 'utf8')).toContain('billing');
    } finally {
      await api.close();
      await claudeConfig.cleanup();
    }
  }, 180_000);
});

function listFiles(dir: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const rel = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') out.push(...listFiles(path.join(dir, entry.name), rel));
    } else out.push(rel);
  }
  return out;
}

/** One response writes the module and signals the phase done; the next ends the session. */
function agentScript(project: string) {
  return (req: RecordedRequest): ScriptedTurn => {
    const phase = /debussy done --phase (\S+)/.exec(firstUserText(req))?.[1] ?? '?';
    if (assistantTurns(req) > 0) return { kind: 'text', text: `Phase ${phase} is done.` };
    return {
      kind: 'tool_use',
      uses: [
        { name: 'Write', input: { file_path: path.join(project, 'src', 'billing.js'), content: "module.exports = 'billing';\n" } },
        { name: 'Bash', input: { command: `debussy done --phase ${phase}`, description: 'Signal the phase done' } },
      ],
    };
  };
}
