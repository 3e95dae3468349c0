/**
 * The README's "60-second tour", followed literally: its commands are read from README.md (so the
 * test follows the README, not a copy), and run one by one in a fresh, committed npm project with
 * the built `debussy` and the real `claude` on PATH, claude talking to the scripted model server.
 * Nothing is added to what `debussy init` writes: no --dangerously-skip-permissions, no IS_SANDBOX.
 * The project's own `npm test` is the gate the generic plan template names, so the plan `plan new`
 * writes is run as it is; the scripted agent writes a module and calls `debussy done`.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listRuns, readJournal, type JournalEvent } from '../../src/state/index.js';
import { CLAUDE_BIN, claudeEnv, git, makeClaudeConfigDir, type TempDir } from '../support/claude.js';
import { firstUserText, startScriptedApi, type RecordedRequest, type ScriptedApi, type ScriptedTurn } from '../support/scripted-api.js';
import { assistantTurns } from '../e2e/session-script.js';
import { DEBUSSY_BIN, REPO_ROOT, runCommand, type CliResult } from '../cli/cli-harness.js';

/** The tour's commands: the lines of the sh block under "## A 60-second tour", comments removed. */
export function tourCommands(readme: string): string[] {
  const section = readme.split(/^## A 60-second tour\s*$/m)[1];
  const block = section === undefined ? undefined : /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  if (block === undefined) throw new Error('README.md has no sh block under "## A 60-second tour"');
  return block
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').replace(/^#.*$/, '').trim())
    .filter((line) => line !== '');
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The phase a session works on, from its prompt's completion instruction. */
function phaseOf(req: RecordedRequest): string {
  return /debussy done --phase (\S+)/.exec(firstUserText(req))?.[1] ?? '?';
}

function agentScript(projectDir: () => string) {
  return (req: RecordedRequest): ScriptedTurn => {
    const phase = phaseOf(req);
    // The notes file the phase file asks this phase to write, as the prompt names it (the previous
    // phase's notes are named too, to be read).
    const notes = new RegExp(`notes/NOTES_[\\w-]+_phase_${phase}\\.md`).exec(firstUserText(req))?.[0];
    // One response with every call: a round trip fewer per phase.
    if (assistantTurns(req) > 0) return { kind: 'text', text: `Phase ${phase} is done.` };
    return {
      kind: 'tool_use',
      uses: [
        { name: 'Write', input: { file_path: path.join(projectDir(), 'src', `billing-${phase}.js`), content: `module.exports = 'phase ${phase}';\n` } },
        ...(notes === undefined ? [] : [{ name: 'Write', input: { file_path: path.join(projectDir(), notes), content: `# Phase ${phase} notes\n\nWrote src/billing-${phase}.js.\n` } }]),
        { name: 'Bash', input: { command: `debussy done --phase ${phase}`, description: 'Signal the phase done' } },
      ],
    };
  };
}

async function journalOfNewestRun(dir: string): Promise<JournalEvent[]> {
  const newest = (await listRuns(dir))[0];
  return newest ? (await readJournal(path.join(newest.dir, 'journal.ndjson'))).events : [];
}

describe('the README tour', () => {
  it('finds the tour in README.md', () => {
    const commands = tourCommands(readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8'));
    expect(commands[0]).toMatch(/^cd /);
    expect(commands).toContain('debussy init');
    expect(commands.some((c) => /^debussy run \S+$/.test(c))).toBe(true);
  });

  it('completes its phases with what `debussy init` wrote, through the real claude', async () => {
    const commands = tourCommands(readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8'));
    const parent = mkdtempSync(path.join(tmpdir(), 'debussy-tour-'));
    cleanups.push(() => rmSync(parent, { recursive: true, force: true }));

    // The user's project: an npm package whose test checks the billing module exists, committed.
    const projectName = /^cd (\S+)$/.exec(commands[0] ?? '')?.[1] ?? 'my-project';
    const project = path.join(parent, projectName);
    mkdirSync(path.join(project, 'src'), { recursive: true });
    writeFileSync(path.join(project, 'package.json'), `${JSON.stringify({ name: projectName, version: '1.0.0', private: true, scripts: { test: 'node test.js' } }, null, 2)}\n`);
    writeFileSync(
      path.join(project, 'test.js'),
      "const fs = require('node:fs');\nif (!fs.readdirSync('src').some((f) => f.startsWith('billing-'))) { console.error('no billing module yet'); process.exit(1); }\nconsole.log('ok');\n",
    );
    writeFileSync(path.join(project, 'src', 'index.js'), "module.exports = {};\n");
    writeFileSync(path.join(project, '.gitignore'), 'node_modules/\n');
    await git(project, 'init', '-q');
    await git(project, 'add', '.');
    await git(project, '-c', 'user.name=Tour', '-c', 'user.email=tour@example.com', 'commit', '-q', '-m', 'my project');

    // `debussy` and `claude` on PATH, as the README's set-up leaves them.
    const bin = path.join(parent, 'bin');
    mkdirSync(bin);
    writeFileSync(path.join(bin, 'debussy'), `#!/bin/sh\nexec "${process.execPath}" "${DEBUSSY_BIN}" "$@"\n`, { mode: 0o755 });
    symlinkSync(CLAUDE_BIN, path.join(bin, 'claude'));

    const api: ScriptedApi = await startScriptedApi({ script: agentScript(() => project) });
    cleanups.push(() => api.close());
    const claudeConfig: TempDir = await makeClaudeConfigDir();
    cleanups.push(() => claudeConfig.cleanup());
    const env: Record<string, string | undefined> = {
      ...claudeEnv(api.url, claudeConfig.dir),
      IS_SANDBOX: undefined,
      PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`,
      CI: 'true',
      GIT_AUTHOR_NAME: 'Tour', GIT_AUTHOR_EMAIL: 'tour@example.com', GIT_COMMITTER_NAME: 'Tour', GIT_COMMITTER_EMAIL: 'tour@example.com',
    };
    for (const key of ['DEBUSSY_RUN_ID', 'DEBUSSY_ATTEMPT_ID', 'DEBUSSY_PROJECT_ROOT', 'DEBUSSY_PLAN', 'DEBUSSY_PHASE_ID']) env[key] = undefined;

    let cwd = parent;
    const results = new Map<string, CliResult>();
    for (const command of commands) {
      const cd = /^cd (\S+)$/.exec(command);
      if (cd) {
        cwd = path.resolve(cwd, cd[1] ?? '.');
        continue;
      }
      const result = await runCommand('sh', ['-c', command], { cwd, env });
      results.set(command, result);
      const output = `$ ${command}\n${result.stdout}${result.stderr}`;
      if (command.startsWith('debussy resume')) {
        // After a run that completed there is nothing to resume: a clear line, not a failure.
        expect(result.code, output).toBe(0);
        continue;
      }
      expect(result.code, output).toBe(0);
    }

    const init = results.get('debussy init');
    expect(init?.stdout).toContain('Permissions: acceptEdits');
    const config = readFileSync(path.join(project, '.debussy', 'config.yaml'), 'utf8');
    expect(config).toMatch(/^permission_mode: "acceptEdits"$/m);
    const settings = config.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('#'));
    expect(settings.map((line) => line.split(':')[0])).toEqual(['permission_mode', 'allowed_tools']);
    expect(settings.join('\n')).not.toMatch(/dangerously|bypassPermissions/);

    const dryRun = [...results.entries()].find(([command]) => /^debussy run \S+ --dry-run$/.test(command))?.[1];
    expect(dryRun?.stdout).toContain('Dry run: nothing was started.');
    expect(dryRun?.stdout).not.toContain('claude would refuse');
    const run = [...results.entries()].find(([command]) => /^debussy run \S+$/.test(command))?.[1];
    expect(run?.stdout).not.toContain('claude would refuse');
    expect(run?.stdout).not.toMatch(/claude refused \d+ tool call/);

    const events = await journalOfNewestRun(project);
    const ended = events.filter((e): e is Extract<JournalEvent, { type: 'phase_ended' }> => e.type === 'phase_ended');
    expect(ended.map((e) => [e.phaseId, e.status])).toEqual([['1', 'completed'], ['2', 'completed'], ['3', 'completed']]);
    // One session per phase: nothing refused, nothing to remediate.
    expect(events.filter((e) => e.type === 'session_started'), run?.stdout).toHaveLength(3);
    expect(readFileSync(path.join(project, 'src', 'billing-1.js'), 'utf8')).toContain('phase 1');
    expect(await git(project, 'log', '--format=%s')).toContain('phase 1');
    // The whole tour: nine commands and three real claude sessions (33-45 s measured on a shared two-core machine).
  }, 150_000);
});
