import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findExecutable } from '../../src/process/find-executable.js';

const root = mkdtempSync(path.join(tmpdir(), 'debussy-find-exe-'));
const bin = path.join(root, 'bin');
const other = path.join(root, 'other');
mkdirSync(bin);
mkdirSync(other);
mkdirSync(path.join(bin, 'a-directory'));
const file = (dir: string, name: string, mode: number) => {
  writeFileSync(path.join(dir, name), '#!/bin/sh\n');
  chmodSync(path.join(dir, name), mode);
};
file(bin, 'tool', 0o755);
file(bin, 'plain', 0o644);
file(other, 'plain', 0o755);
file(root, 'local-tool', 0o755);
file(bin, 'win.CMD', 0o755);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('findExecutable', () => {
  it.each<[string, string, string | undefined, object, string | undefined]>([
    ['a name on PATH', 'tool', bin, {}, path.join(bin, 'tool')],
    ['skips a file that is not executable for the next entry', 'plain', [bin, other].join(path.delimiter), {}, path.join(other, 'plain')],
    ['skips a directory of that name', 'a-directory', bin, {}, undefined],
    ['a name nowhere', 'missing', bin, {}, undefined],
    ['no PATH at all', 'tool', undefined, {}, undefined],
    ['an empty PATH entry is the working directory', 'local-tool', ['', bin].join(path.delimiter), {}, path.join(root, 'local-tool')],
    ['a path relative to the working directory', './local-tool', bin, {}, path.join(root, 'local-tool')],
    ['an absolute path', path.join(bin, 'tool'), undefined, {}, path.join(bin, 'tool')],
    ['an empty command', '', bin, {}, undefined],
    ['Windows tries PATHEXT', 'win', bin, { platform: 'win32', pathExt: '.EXE;.CMD' }, path.join(bin, 'win.CMD')],
    ['elsewhere PATHEXT is not tried', 'win', bin, { platform: 'linux' }, undefined],
  ])('%s', (_name, command, searchPath, options, expected) => {
    expect(findExecutable(command, root, searchPath, options)).toBe(expected);
  });
});
