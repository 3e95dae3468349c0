import { mkdtemp, readFile, rm, stat, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configFileLinks, renderConfigFile } from '../../src/config/render-reference.js';
import { loadProjectConfig } from '../../src/config/index.js';
import { UsageError } from '../../src/errors/index.js';
import { choosePermissions, initProject, permissionConfigChoices, readTemplate } from '../../src/scaffold/index.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'debussy-init-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const relative = (files: { path: string; outcome: string }[]) => files.map((file) => [path.relative(root, file.path), file.outcome]);

describe('initProject', () => {
  it('creates the config, both slash commands and the .gitignore', async () => {
    const report = await initProject(root);
    expect(relative(report.files)).toEqual([
      ['.debussy/config.yaml', 'created'],
      ['.claude/commands/debussy-done.md', 'created'],
      ['.claude/commands/debussy-progress.md', 'created'],
      ['.gitignore', 'created'],
    ]);
    expect(await readFile(path.join(root, '.debussy/config.yaml'), 'utf8')).toBe(renderConfigFile(permissionConfigChoices(choosePermissions([])), configFileLinks(root)));
    expect(await readFile(path.join(root, '.claude/commands/debussy-done.md'), 'utf8')).toBe(await readTemplate('claude-commands/debussy-done.md'));
  });

  it('writes a config file debussy reads back as the defaults plus an explicit permission choice', async () => {
    await writeFile(path.join(root, 'package.json'), '{}\n');
    const report = await initProject(root);
    const loaded = await loadProjectConfig(root);
    expect(loaded.errors).toEqual([]);
    expect(loaded.config.context_threshold).toBe(80);
    expect(loaded.config.max_restarts).toBe(3);
    expect(loaded.config.permission_mode).toBe('acceptEdits');
    expect(loaded.config.allowed_tools).toContain('Bash(npm test:*)');
    expect(loaded.config.allowed_tools).toEqual(report.permissions?.allowed_tools);
    expect(loaded.sources.permission_mode).toBe('file');
    const text = await readFile(path.join(root, '.debussy/config.yaml'), 'utf8');
    expect(text).toContain('# RISK: the agent edits any file in the project');
    expect(text).toContain('throwaway checkout');
    expect(text).toMatch(/^# disallowed_tools: \[\]$/m);
  });

  it('keeps what exists and changes nothing on a second run', async () => {
    await initProject(root);
    await writeFile(path.join(root, '.claude/commands/debussy-done.md'), 'my own version\n');
    const before = await readFile(path.join(root, '.gitignore'), 'utf8');
    const report = await initProject(root);
    expect(report.files.map((file) => file.outcome)).toEqual(['kept', 'kept', 'kept', 'kept']);
    expect(await readFile(path.join(root, '.claude/commands/debussy-done.md'), 'utf8')).toBe('my own version\n');
    expect(await readFile(path.join(root, '.gitignore'), 'utf8')).toBe(before);
  });

  it('with force, overwrites what differs and reports the rest as unchanged', async () => {
    await initProject(root);
    await writeFile(path.join(root, '.debussy/config.yaml'), 'max_restarts: 9\n');
    const report = await initProject(root, { force: true });
    expect(report.files.map((file) => file.outcome)).toEqual(['overwritten', 'unchanged', 'unchanged', 'kept']);
    expect(await readFile(path.join(root, '.debussy/config.yaml'), 'utf8')).toBe(renderConfigFile(permissionConfigChoices(choosePermissions([])), configFileLinks(root)));
  });

  it("appends to the user's .gitignore without touching their lines", async () => {
    await writeFile(path.join(root, '.gitignore'), 'node_modules/\n.debussy/run.lock\n');
    const report = await initProject(root);
    expect(report.files.at(-1)).toMatchObject({ outcome: 'updated', detail: 'added .debussy/runs/, .debussy/project.ndjson' });
    const text = await readFile(path.join(root, '.gitignore'), 'utf8');
    expect(text.startsWith('node_modules/\n.debussy/run.lock\n\n')).toBe(true);
    expect(text.match(/\.debussy\/run\.lock/g)).toHaveLength(1);
  });

  it('refuses a folder that does not exist, creating nothing', async () => {
    const missing = path.join(root, 'nope');
    await expect(initProject(missing)).rejects.toThrow(UsageError);
    await expect(stat(missing)).rejects.toThrow();
  });

  it('refuses a file given as the folder', async () => {
    await writeFile(path.join(root, 'file'), '');
    await expect(initProject(path.join(root, 'file'))).rejects.toThrow(/not an existing folder/);
  });

  it('reports a path it cannot write as a user error, not a crash', async () => {
    // A folder where the config file should be.
    await mkdir(path.join(root, '.debussy/config.yaml'), { recursive: true });
    await expect(initProject(root, { force: true })).rejects.toMatchObject({ code: 'E_WRITE' });
  });
});

describe('a project that already has a config under another name', () => {
  it.each([
    { name: '.debussyrc.yaml', content: 'max_restarts: 5\n' },
    { name: 'package.json', content: '{"name":"x","debussy":{"max_restarts":5}}\n' },
    { name: '.debussyrc', content: 'max_restarts: [unclosed\n' },
  ])('$name: no .debussy/config.yaml that would shadow it', async ({ name, content }) => {
    await writeFile(path.join(root, name), content);
    const report = await initProject(root, { force: true });
    expect(report.files[0]).toMatchObject({ outcome: 'skipped', detail: expect.stringContaining(`the project's config is ${name}`) as string });
    await expect(stat(path.join(root, '.debussy/config.yaml'))).rejects.toThrow();
  });

  it('a package.json without a debussy key is not a config', async () => {
    await writeFile(path.join(root, 'package.json'), '{"name":"x"}\n');
    const report = await initProject(root);
    expect(report.files[0]?.outcome).toBe('created');
  });
});
