/**
 * The permission warning before a run names only what claude would really refuse, and the setting
 * that allows it. debussy's estimate (permissions/rule-check.ts, claude-defaults.ts) is checked
 * against the real claude CLI: each command runs as a Bash tool call in one session per setting, and
 * claude's `permission_denials` must match the estimate command for command. Then the warning a
 * dry run prints after `debussy init` in an npm project, through the built binary.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bashVerdict, type PermissionSettings } from '../../src/permissions/rule-check.js';
import { debussy, expectNoStack, git, initRepo, tempDir } from '../cli/cli-harness.js';
import { CLAUDE_BIN, claudeEnv, makeClaudeConfigDir } from '../support/claude.js';
import { startScriptedApi, type ScriptedTurn } from '../support/scripted-api.js';

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A project for the commands to run in: a file to read, an npm test script, a git repository. */
function commandProject(): string {
  const temp = tempDir('debussy-permission-estimate-');
  cleanups.push(() => temp.cleanup());
  const dir = realpathSync(temp.dir);
  initRepo(dir);
  writeFileSync(path.join(dir, 'f.txt'), 'hi\n');
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ scripts: { test: 'echo tested', build: 'echo built' } }));
  git(dir, 'add', '.');
  git(dir, 'commit', '-q', '-m', 'start');
  return dir;
}

/**
 * `npm` and `npx` that only say they ran, first on the session's PATH: what is checked is which
 * commands claude lets run, not what they do, and each real start of npm costs 0.2-0.5 s of CPU
 * (npx tsc would also look the package up).
 */
function stubbedTools(): string {
  const temp = tempDir('debussy-permission-stubs-');
  cleanups.push(() => temp.cleanup());
  for (const tool of ['npm', 'npx']) {
    writeFileSync(path.join(temp.dir, tool), `#!/bin/sh\necho "${tool} (stub) $*"\n`);
    chmodSync(path.join(temp.dir, tool), 0o755);
  }
  return temp.dir;
}

/** Runs every command as a Bash tool call in one real claude session; the commands claude refused. */
async function refusedByClaude(settings: PermissionSettings, commands: readonly string[]): Promise<string[]> {
  const dir = commandProject();
  const script: ScriptedTurn[] = [...commands.map((command): ScriptedTurn => ({ kind: 'tool_use', name: 'Bash', input: { command, description: 'check' } })), { kind: 'text', text: 'done' }];
  const api = await startScriptedApi({ script });
  cleanups.push(() => api.close());
  const config = await makeClaudeConfigDir();
  cleanups.push(() => config.cleanup());
  const args = [
    '-p', '--output-format', 'stream-json', '--verbose', '--model', 'claude-sonnet-4-5',
    ...(settings.mode === undefined ? [] : ['--permission-mode', settings.mode]),
    ...settings.allowedTools.flatMap((rule) => ['--allowedTools', rule]),
  ];
  const stubs = stubbedTools();
  const env = claudeEnv(api.url, config.dir);
  const child = spawn(CLAUDE_BIN, args, { cwd: dir, env: { ...env, PATH: `${stubs}${path.delimiter}${env.PATH ?? ''}` }, stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin.end('go');
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  await new Promise((resolve) => child.on('close', resolve));
  const commandOf = new Map<string, string>();
  const refused: string[] = [];
  for (const line of stdout.split('\n').filter((l) => l.startsWith('{'))) {
    const event = JSON.parse(line) as { type?: string; message?: { content?: { type?: string; id?: string; input?: { command?: string } }[] }; permission_denials?: { tool_use_id?: string }[] };
    for (const block of event.type === 'assistant' ? (event.message?.content ?? []) : []) {
      if (block.type === 'tool_use' && block.id !== undefined) commandOf.set(block.id, block.input?.command ?? '');
    }
    if (event.type === 'result') refused.push(...(event.permission_denials ?? []).map((denial) => commandOf.get(denial.tool_use_id ?? '') ?? '?'));
  }
  expect(stdout, 'the session ended with a result').toContain('"type":"result"');
  return refused;
}

const COMMANDS = [
  'true', 'echo ok', 'test -f f.txt', '[ -f f.txt ]', 'ls | wc -l', 'cat f.txt | grep hi', 'git status', 'git diff --stat && echo clean',
  'sed -n 1p f.txt', 'find . -name f.txt', 'npm test', 'npm test 2>&1 | tail -5', 'npm test >/dev/null 2>&1', 'npm run build && test -f f.txt',
  'npm test > test.log', 'make check', 'npx tsc --noEmit', 'node -e 1', 'exit 0', 'test -d . || exit 1', 'uniq f.txt', 'mkdir -p out',
  'touch out.txt', 'sed -i s/hi/ho/ f.txt', 'find . -name nothing -delete', 'echo hi > note.txt', 'test -z "$(git status --porcelain)"',
  'git branch -D nothing', 'FOO=1 npm test',
];

describe("debussy's estimate of claude's permissions, checked against claude", () => {
  it.each<[string, PermissionSettings]>([
    ['default mode, no rules', { mode: 'default', allowedTools: [], disallowedTools: [], skipsChecks: false }],
    ["acceptEdits with init's npm rules", { mode: 'acceptEdits', allowedTools: ['Bash(npm test:*)', 'Bash(npm run:*)', 'Bash(npx:*)'], disallowedTools: [], skipsChecks: false }],
  ])('%s: claude refuses exactly the commands debussy expects it to', async (_name, settings) => {
    const refused = await refusedByClaude(settings, COMMANDS);
    const expected = COMMANDS.filter((command) => bashVerdict(settings, command) === 'refused');
    expect(refused.sort()).toEqual(expected.sort());
  }, 120_000);
});

describe('the warning after `debussy init`', () => {
  it('names only the gate claude would refuse, with the rule that allows it', async () => {
    const temp = tempDir('debussy-init-permissions-');
    cleanups.push(() => temp.cleanup());
    const dir = realpathSync(temp.dir);
    initRepo(dir);
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ scripts: { test: 'echo tested' } }));
    expect((await debussy(['init'], { cwd: dir })).code).toBe(0);
    mkdirSync(path.join(dir, 'plans', 'p'), { recursive: true });
    writeFileSync(path.join(dir, 'plans/p/MASTER_PLAN.md'), '# P - Master Plan\n\n| Phase | Title | Status | Depends On |\n|---|---|---|---|\n| 1 | [One](phase-1.md) | Pending | - |\n');
    const gates = ['true', 'npm test 2>&1 | tail -20', 'test -f src/index.ts', 'git diff --stat', 'make check'];
    writeFileSync(path.join(dir, 'plans/p/phase-1.md'), ['# Phase 1: One', '', '**Status:** Pending', '', '## Tasks', '- [ ] 1.1: do it', '', '## Gates', ...gates.map((command, i) => `- g${i}: passes (command: \`${command}\`)`), ''].join('\n'));
    git(dir, 'add', '.');
    git(dir, 'commit', '-q', '-m', 'plan');
    const dry = await debussy(['run', 'plans/p/MASTER_PLAN.md', '--dry-run'], { cwd: dir });
    expectNoStack(dry);
    const output = dry.stdout + dry.stderr;
    expect(output).toContain("claude would refuse the agent's gate command `make check` (allowed_tools \"Bash(make check:*)\") (permission_mode acceptEdits");
    for (const gate of gates.slice(0, 4)) expect(output).not.toContain(`\`${gate}\``);
  });
});
