/**
 * What `debussy plan import` cannot import, through importPlan in process: one error naming the
 * problem (a usage error: exit 2 at the command line) with a hint saying what to do, and nothing
 * written. test/plan-import/plan-import-cli.test.ts shows one of them through the built binary
 * (the printed lines and the exit code).
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DebussyError } from '../../src/errors/index.js';
import { importPlan } from '../../src/plan-import/index.js';

const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

function tempDir(prefix = 'debussy-unit-'): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

const FIXTURES = path.join(REPO_ROOT, 'test/fixtures/plan-import');

/** A project folder of its own per test, so that the table's rows can run at once. */
function project(): { dir: string; cleanup(): void; read(relative: string): string; write(relative: string, text: string): void; useFixture(name: string): void; snapshot(): Record<string, string>; importArgs(args: string[]): Promise<unknown> } {
  const work = tempDir('debussy-import-');
  const read = (relative: string): string => readFileSync(path.join(work.dir, relative), 'utf8');
  const write = (relative: string, text: string): void => {
    mkdirSync(path.dirname(path.join(work.dir, relative)), { recursive: true });
    writeFileSync(path.join(work.dir, relative), text);
  };
  const snapshot = (): Record<string, string> => {
    const files: Record<string, string> = {};
    const walk = (folder: string): void => {
      for (const entry of readdirSync(folder)) {
        const full = path.join(folder, entry);
        if (statSync(full).isDirectory()) walk(full);
        else files[path.relative(work.dir, full)] = readFileSync(full, 'utf8');
      }
    };
    walk(work.dir);
    return files;
  };
  /** `debussy plan import ARGS` as the command passes them on (source, --name, --tag). */
  const importArgs = (args: string[]): Promise<unknown> => {
    const [source = '', ...rest] = args;
    const flag = (name: string): string | undefined => (rest.includes(name) ? rest[rest.indexOf(name) + 1] : undefined);
    const name = flag('--name');
    const tag = flag('--tag');
    return importPlan({
      source: path.resolve(work.dir, source), projectRoot: work.dir, plansDir: path.join(work.dir, 'plans'), force: false, cwd: work.dir,
      ...(name === undefined ? {} : { name }),
      ...(tag === undefined ? {} : { tag }),
    });
  };
  return { ...work, read, write, useFixture: (name) => cpSync(path.join(FIXTURES, name), work.dir, { recursive: true }), snapshot, importArgs };
}

type Project = ReturnType<typeof project>;

describe.concurrent('what cannot be imported: one error with a hint, a usage error, nothing written', () => {
  it.each<{ name: string; setup: (p: Project) => unknown; args: string[]; message: string | RegExp; keepsPlan?: boolean }>([
    { name: 'a path that does not exist', setup: () => undefined, args: ['nothere.json'], message: 'nothere.json: no such file or folder' },
    { name: 'broken JSON', setup: (p) => p.write('tasks.json', '{"tasks": ['), args: ['tasks.json'], message: /^tasks\.json is not valid JSON: / },
    { name: 'JSON of another kind', setup: (p) => p.write('package.json', '{"name": "x"}'), args: ['package.json'], message: 'package.json is JSON, but neither a Taskmaster tasks.json (a "tasks" list) nor a ralph prd.json (a "userStories" list)' },
    { name: 'markdown that is no plan', setup: (p) => p.write('README.md', '# Hello\n'), args: ['README.md'], message: 'README.md is not a plan format debussy imports' },
    { name: 'a folder without a plan', setup: (p) => p.write('src/a.ts', ''), args: ['src'], message: 'src holds no plan debussy can import' },
    { name: 'a debussy plan', setup: (p) => p.write('plans/x/MASTER_PLAN.md', '# X\n\n| Phase | Title |\n|---|---|\n| 1 | [A](phase-1.md) |\n'), args: ['plans/x/MASTER_PLAN.md'], message: 'plans/x/MASTER_PLAN.md is already a debussy master plan: there is nothing to import' },
    { name: '--tag for ralph', setup: (p) => p.useFixture('ralph'), args: ['prd.json', '--tag', 'master'], message: "--tag is for Taskmaster's tasks.json, and prd.json is not one" },
    { name: 'a tag that does not exist', setup: (p) => p.useFixture('taskmaster'), args: ['.taskmaster', '--tag', 'nope'], message: 'this tasks.json has no tag "nope" (its tags: master, ui-redesign)' },
    { name: 'an empty prd.json', setup: (p) => p.write('prd.json', '{"userStories": []}'), args: ['prd.json', '--name', 'empty'], message: 'prd.json has nothing to import: it lists no tasks or phases' },
    { name: 'a bad --name', setup: (p) => p.useFixture('ralph'), args: ['prd.json', '--name', 'Bad Name'], message: /^"Bad Name" is not a usable plan name/ },
    {
      name: 'a project with several spec-kit features',
      setup: (p) => { p.useFixture('speckit'); p.write('specs/005-other/tasks.md', p.read('specs/004-recipe-import/tasks.md')); },
      args: ['.'],
      message: '. holds 2 spec-kit features (specs/004-recipe-import, specs/005-other)',
    },
    { name: 'an empty file', setup: (p) => p.write('prd.json', ''), args: ['prd.json'], message: 'prd.json is empty' },
    {
      name: 'a plan imported from another source under the same name',
      setup: async (p) => { p.useFixture('taskmaster-flat'); p.useFixture('taskmaster'); await p.importArgs(['tasks.json']); },
      args: ['.taskmaster'],
      message: 'plans/taskmaster was imported from tasks.json, not from .taskmaster/tasks/tasks.json',
      keepsPlan: true,
    },
    { name: 'a plan folder the import did not write', setup: (p) => { p.useFixture('ralph'); p.write('plans/meal-planner/notes.md', 'mine'); }, args: ['prd.json'], message: 'plans/meal-planner already exists and was not written by `debussy plan import`' },
  ])('$name', async ({ setup, args, message, keepsPlan }) => {
    const p = project();
    try {
      await setup(p);
      const before = p.snapshot();
      const error = await p.importArgs(args).then(() => undefined, (caught: unknown) => caught);
      expect(error).toBeInstanceOf(DebussyError);
      const { exitKind, message: said, hint } = error as DebussyError;
      expect(exitKind).toBe('usage');
      if (typeof message === 'string') expect(said).toBe(message);
      else expect(said).toMatch(message);
      expect(hint).toMatch(/^\S/); // what to do
      expect(p.snapshot()).toEqual(before);
      expect(existsSync(path.join(p.dir, 'plans', 'taskmaster'))).toBe(keepsPlan === true);
    } finally {
      p.cleanup();
    }
  });
});
