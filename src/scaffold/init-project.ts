/**
 * `debussy init`: the files a project needs before its first run. Everything is created only
 * where missing (or replaced with `force`), so running it again is safe and changes nothing.
 */
import { readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CONFIG_SEARCH_PLACES, configFileLinks, loadConfigFile, renderConfigFile } from '../config/index.js';
import { DebussyError, UsageError } from '../errors/index.js';
import { addGitignoreEntries } from './gitignore.js';
import { choosePermissions, permissionConfigChoices, type PermissionChoice } from './permission-choice.js';
import { readTemplate } from './templates-dir.js';
import { cannotWrite, readIfExists, writeScaffoldFile, type ScaffoldedFile } from './write-scaffold-file.js';

/** The Claude Code slash commands, by their file name in templates/claude-commands/. */
export const SLASH_COMMAND_FILES: readonly string[] = ['debussy-done.md', 'debussy-progress.md'];

export interface InitReport {
  /** Absolute path of the project folder. */
  dir: string;
  /** In the order they were handled: config, slash commands, .gitignore. */
  files: ScaffoldedFile[];
  /** The permissions written into the config file, when it was written. */
  permissions: PermissionChoice | undefined;
}

export async function initProject(dir: string, options: { force?: boolean } = {}): Promise<InitReport> {
  const root = path.resolve(dir);
  await requireFolder(root, dir);
  const force = options.force === true;
  const files: ScaffoldedFile[] = [];

  const permissions = choosePermissions(await readdir(root));
  const config = await writeConfig(root, force, permissions);
  files.push(config);
  for (const name of SLASH_COMMAND_FILES) {
    const text = await readTemplate(`claude-commands/${name}`);
    files.push(await writeScaffoldFile(path.join(root, '.claude', 'commands', name), text, force));
  }
  files.push(await ensureGitignore(path.join(root, '.gitignore')));
  const written = config.outcome === 'created' || config.outcome === 'overwritten';
  return { dir: root, files, permissions: written ? permissions : undefined };
}

/**
 * The commented config file, unless the project already keeps its config under another name
 * (`.debussyrc`, package.json...): `.debussy/config.yaml` is searched first, so adding it would
 * silently replace the settings the project uses.
 */
async function writeConfig(root: string, force: boolean, permissions: PermissionChoice): Promise<ScaffoldedFile> {
  const file = path.join(root, '.debussy', 'config.yaml');
  const other = await existingConfigFile(root);
  if (other !== undefined && other !== file) {
    return { path: file, outcome: 'skipped', detail: `the project's config is ${path.relative(root, other)}, and this file would take its place` };
  }
  return writeScaffoldFile(file, renderConfigFile(permissionConfigChoices(permissions), configFileLinks(root)), force);
}

async function existingConfigFile(root: string): Promise<string | undefined> {
  try {
    return (await loadConfigFile(root)).file;
  } catch (error) {
    if (!(error instanceof DebussyError)) throw error;
  }
  // A config file that does not parse is still the project's config: the first one that exists.
  for (const place of CONFIG_SEARCH_PLACES) {
    if (place === 'package.json') continue;
    if ((await readIfExists(path.join(root, place)).catch(() => '')) !== undefined) return path.join(root, place);
  }
  return undefined;
}

async function requireFolder(root: string, given: string): Promise<void> {
  let isFolder = false;
  try {
    isFolder = (await stat(root)).isDirectory();
  } catch {
    // Missing or unreadable: reported below.
  }
  if (!isFolder) throw new UsageError(`${given} is not an existing folder`, 'Create it first, or run `debussy init` inside the project.');
}

/** Appends the missing run-data entries; the user's own lines are never touched. */
async function ensureGitignore(file: string): Promise<ScaffoldedFile> {
  try {
    const existing = await readIfExists(file);
    const { text, added } = addGitignoreEntries(existing);
    if (added.length === 0) return { path: file, outcome: 'kept', detail: "already ignores debussy's run data" };
    await writeFile(file, text);
    return existing === undefined ? { path: file, outcome: 'created' } : { path: file, outcome: 'updated', detail: `added ${added.join(', ')}` };
  } catch (error) {
    throw cannotWrite(file, error);
  }
}
