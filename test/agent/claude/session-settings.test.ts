import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  debussyHooks, mergeSessionSettings, readSettingsValue, splitSettingsArgs, userSettingsProblem, withSessionSettings,
} from '../../../src/agent/claude/session-settings.js';
import { hooksOffSources, hooksOffWarning, isTruthyVariable } from '../../../src/agent/claude/hooks-off.js';

const dir = mkdtempSync(path.join(tmpdir(), 'debussy-settings-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(path.join(dir, 'user.json'), JSON.stringify({ model: 'opus', hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'log-bash' }] }] } }));
writeFileSync(path.join(dir, 'broken.json'), '{ "model": ');
writeFileSync(path.join(dir, 'list.json'), '[1, 2]');

describe('splitSettingsArgs', () => {
  it.each<[string, string[], { rest: string[]; values: string[] }]>([
    ['no settings', ['--dangerously-skip-permissions'], { rest: ['--dangerously-skip-permissions'], values: [] }],
    ['a file', ['--settings', 'user.json', '--verbose'], { rest: ['--verbose'], values: ['user.json'] }],
    ['inline JSON with =', ['--settings={"model":"opus"}'], { rest: [], values: ['{"model":"opus"}'] }],
    ['twice, in order', ['--settings', 'a.json', '-x', '--settings', '{}'], { rest: ['-x'], values: ['a.json', '{}'] }],
    ['a trailing flag without value stays', ['--settings'], { rest: ['--settings'], values: [] }],
  ])('%s', (_name, args, expected) => {
    expect(splitSettingsArgs(args)).toEqual(expected);
  });
});

describe('readSettingsValue', () => {
  it.each<[string, string, Record<string, unknown> | RegExp]>([
    ['inline JSON', ' {"autoCompactWindow": 100000} ', { autoCompactWindow: 100000 }],
    ['a file relative to the project', 'user.json', { model: 'opus' }],
    ['a missing file', 'nope.json', /^the settings file .*nope\.json \(--settings in claude_args\) cannot be read \(ENOENT\)$/],
    ['a file that is not JSON', 'broken.json', /broken\.json .* is not valid JSON/],
    ['JSON that is not an object', 'list.json', /list\.json .* is not a JSON object$/],
    ['inline JSON that does not parse', '{"model": }', /^the inline JSON given to --settings in claude_args is not valid JSON/],
    ['hooks that are not an object', '{"hooks": []}', /has "hooks" that is not an object$/],
  ])('%s', (_name, value, expected) => {
    const read = readSettingsValue(value, dir);
    if (expected instanceof RegExp) expect('problem' in read ? read.problem : '').toMatch(expected);
    else expect('settings' in read ? read.settings : undefined).toMatchObject(expected);
  });

  it('the check before a run names the first unusable value', () => {
    expect(userSettingsProblem(['--settings', 'user.json'], dir)).toBeUndefined();
    expect(userSettingsProblem(['--settings', 'user.json', '--settings', 'gone.json'], dir)).toMatch(/gone\.json/);
  });
});

describe('mergeSessionSettings', () => {
  const hooks = debussyHooks('/tmp/stop-file');

  it('keeps every key and hook of the user and adds debussy hooks after them', () => {
    const merged = mergeSessionSettings(
      [{ model: 'opus', autoCompactWindow: 100000, hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'mine' }] }], Stop: [{ hooks: [{ type: 'command', command: 'stop' }] }] } }],
      hooks,
    );
    expect(merged).toMatchObject({ model: 'opus', autoCompactWindow: 100000 });
    const merged_hooks = merged.hooks as Record<string, { matcher?: string; hooks: { command: string }[] }[]>;
    expect(merged_hooks.Stop).toEqual([{ hooks: [{ type: 'command', command: 'stop' }] }]);
    expect(merged_hooks.PreToolUse?.map((m) => m.matcher)).toEqual(['Bash', '*']);
    expect(merged_hooks.PreToolUse?.[1]?.hooks[0]?.command).toContain("'/tmp/stop-file'");
    expect(merged_hooks.PreCompact?.[0]?.hooks[0]?.command).toMatch(/exit 2$/);
  });

  it('later settings win per key; hooks of every one are kept', () => {
    const merged = mergeSessionSettings([{ model: 'opus', hooks: { Stop: [{ hooks: [] }] } }, { model: 'sonnet', hooks: { Stop: [{ matcher: 'x', hooks: [] }] } }], {});
    expect(merged).toEqual({ model: 'sonnet', hooks: { Stop: [{ hooks: [] }, { matcher: 'x', hooks: [] }] } });
  });

  it('without user settings: debussy hooks alone', () => {
    expect(mergeSessionSettings([], hooks)).toEqual({ hooks });
  });
});

describe('withSessionSettings', () => {
  it('replaces the user flags by one merged --settings at the end', () => {
    const built = withSessionSettings(['-p', '--settings', 'user.json', '--verbose'], dir, debussyHooks('/tmp/s'));
    expect('args' in built && built.args.slice(0, 3)).toEqual(['-p', '--verbose', '--settings']);
    const settings = JSON.parse('args' in built ? (built.args[3] ?? '{}') : '{}') as { model?: string; hooks?: Record<string, unknown[]> };
    expect(settings.model).toBe('opus');
    expect(Object.keys(settings.hooks ?? {}).sort()).toEqual(['PreCompact', 'PreToolUse']);
    expect(settings.hooks?.PreToolUse).toHaveLength(2);
  });

  it('a value that cannot be read is a problem, not a silent drop', () => {
    expect(withSessionSettings(['--settings', 'gone.json'], dir, {})).toEqual({ problem: expect.stringMatching(/gone\.json.*cannot be read/) as unknown });
  });
});

describe('hooksOffWarning', () => {
  const configDir = path.join(dir, 'claude-config');
  const project = path.join(dir, 'project');
  mkdirSync(configDir, { recursive: true });
  mkdirSync(path.join(project, '.claude'), { recursive: true });
  const baseEnv = { CLAUDE_CONFIG_DIR: configDir };

  it.each<[string, { user?: unknown; local?: unknown; args?: string[]; env?: Record<string, string> }, RegExp | undefined]>([
    ['nothing turns hooks off', {}, undefined],
    ["the user's settings do", { user: { disableAllHooks: true } }, /claude-config\/settings\.json sets disableAllHooks: debussy's hooks are off in its sessions: no stop guard/],
    ['a later source turns them back on', { user: { disableAllHooks: true }, local: { disableAllHooks: false } }, undefined],
    ["claude_args' inline --settings do", { args: ['--settings', '{"disableAllHooks": true}'] }, /^--settings in claude_args sets disableAllHooks/],
    ['--bare in claude_args', { args: ['--max-turns', '9', '--bare'] }, /^--bare in claude_args \(Claude Code's bare mode\): debussy's hooks are off/],
    ['--bare after -- is no flag of claude', { args: ['--', '--bare'] }, undefined],
    ['CLAUDE_CODE_SIMPLE in the environment', { env: { CLAUDE_CODE_SIMPLE: 'true' } }, /^CLAUDE_CODE_SIMPLE=true in the environment \(Claude Code's bare mode\)/],
    ['CLAUDE_CODE_SIMPLE=0 is not bare mode', { env: { CLAUDE_CODE_SIMPLE: '0' } }, undefined],
    ['--safe-mode and CLAUDE_CODE_SAFE_MODE', { args: ['--safe-mode'], env: { CLAUDE_CODE_SAFE_MODE: '1' } }, /^--safe-mode in claude_args \(Claude Code's safe mode\); CLAUDE_CODE_SAFE_MODE=1 in the environment/],
    ["a settings file's env", { local: { env: { CLAUDE_CODE_SIMPLE: '1' } } }, /settings\.local\.json sets CLAUDE_CODE_SIMPLE in its env \(Claude Code's bare mode\)/],
    ['allowManagedHooksOnly', { user: { allowManagedHooksOnly: true } }, /settings\.json sets allowManagedHooksOnly/],
  ])('%s', (_name, setup, expected) => {
    rmSync(path.join(configDir, 'settings.json'), { force: true });
    rmSync(path.join(project, '.claude', 'settings.local.json'), { force: true });
    if (setup.user) writeFileSync(path.join(configDir, 'settings.json'), JSON.stringify(setup.user));
    if (setup.local) writeFileSync(path.join(project, '.claude', 'settings.local.json'), JSON.stringify(setup.local));
    const warning = hooksOffWarning(setup.args ?? [], project, { ...baseEnv, ...setup.env });
    if (expected === undefined) expect(warning).toBeUndefined();
    else expect(warning).toMatch(expected);
  });

  it('names every source, and reads the managed settings of the platform', () => {
    rmSync(path.join(configDir, 'settings.json'), { force: true });
    expect(hooksOffSources(['--bare'], project, { ...baseEnv, CLAUDE_CODE_SIMPLE: '1' }, 'win32')).toEqual([
      "--bare in claude_args (Claude Code's bare mode)", "CLAUDE_CODE_SIMPLE=1 in the environment (Claude Code's bare mode)",
    ]);
  });

  it.each([['1', true], ['TRUE', true], [' yes ', true], ['on', true], ['0', false], ['false', false], ['', false], [undefined, false]])('%j is %s for claude', (value, truthy) => {
    expect(isTruthyVariable(value)).toBe(truthy);
  });
});

describe('debussyHooks', () => {
  it('with an answer file, a SessionStart hook creates it', () => {
    expect(debussyHooks('/tmp/stop', '/tmp/answer it').SessionStart).toEqual([{ hooks: [{ type: 'command', command: ": > '/tmp/answer it'; exit 0" }] }]);
    expect(debussyHooks('/tmp/stop').SessionStart).toBeUndefined();
  });
});
