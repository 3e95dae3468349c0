/** debussy's config and plan files, written back as the run read them when something deletes them. */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RunInputs } from '../../src/orchestrator/run-inputs.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function project(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'debussy-inputs-'));
  dirs.push(root);
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), content);
  }
  return root;
}

const FILES = { '.debussy/config.yaml': 'model: sonnet\n', 'plans/p/MASTER_PLAN.md': '# Plan\n', 'plans/p/phase-1.md': '# Phase 1\n' };

describe('RunInputs', () => {
  it('keeps nothing to do while the files are there', () => {
    const root = project(FILES);
    const inputs = RunInputs.read(root, Object.keys(FILES).map((name) => path.join(root, name)));
    expect(inputs.paths()).toEqual(Object.keys(FILES));
    expect(inputs.keep()).toEqual({ restored: [], lost: [] });
  });

  it('writes back deleted files with the bytes read at the start, not later edits of others', () => {
    const root = project(FILES);
    const inputs = RunInputs.read(root, Object.keys(FILES).map((name) => path.join(root, name)));
    rmSync(path.join(root, '.debussy'), { recursive: true });
    rmSync(path.join(root, 'plans/p/phase-1.md'));
    writeFileSync(path.join(root, 'plans/p/MASTER_PLAN.md'), '# Edited by the agent\n');
    expect(inputs.keep()).toEqual({ restored: ['.debussy/config.yaml', 'plans/p/phase-1.md'], lost: [] });
    expect(readFileSync(path.join(root, '.debussy/config.yaml'), 'utf8')).toBe('model: sonnet\n');
    expect(readFileSync(path.join(root, 'plans/p/phase-1.md'), 'utf8')).toBe('# Phase 1\n');
    // An edit is the agent's business: only a deletion is undone.
    expect(readFileSync(path.join(root, 'plans/p/MASTER_PLAN.md'), 'utf8')).toBe('# Edited by the agent\n');
    expect(inputs.keep()).toEqual({ restored: [], lost: [] });
  });

  it('keeps no file outside the project, none missing at the start, and no undefined', () => {
    const root = project(FILES);
    const outside = project({ 'config.yaml': 'global\n' });
    const inputs = RunInputs.read(root, [undefined, path.join(outside, 'config.yaml'), path.join(root, 'plans/p/phase-2.md'), path.join(root, 'plans/p/phase-1.md')]);
    expect(inputs.paths()).toEqual(['plans/p/phase-1.md']);
  });

  it('says why a file cannot be written back (a file where its directory was)', () => {
    const root = project(FILES);
    const inputs = RunInputs.read(root, [path.join(root, '.debussy/config.yaml')]);
    rmSync(path.join(root, '.debussy'), { recursive: true });
    writeFileSync(path.join(root, '.debussy'), 'not a directory');
    expect(inputs.keep()).toEqual({ restored: [], lost: [{ path: '.debussy/config.yaml', why: expect.stringMatching(/ENOTDIR|EEXIST/) as unknown }] });
  });
});
