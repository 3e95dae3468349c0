import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { configFileLinks } from '../../src/config/index.js';
import { docFile, packageFile, packageRoot, referenceFrom } from '../../src/install/package-files.js';
import { REPO_ROOT } from '../cli/cli-harness.js';

describe('package files', () => {
  it('are found from the module, whatever the current directory', () => {
    expect(path.resolve(packageRoot())).toBe(path.resolve(REPO_ROOT));
    expect(existsSync(packageFile('schema/config.schema.json'))).toBe(true);
    expect(existsSync(docFile('permissions.md'))).toBe(true);
  });
});

describe('referenceFrom', () => {
  it.each([
    // debussy installed in the project: relative, so every clone resolves it.
    ['/p/.debussy', '/p/node_modules/debussy/schema/config.schema.json', '/p', '../node_modules/debussy/schema/config.schema.json'],
    ['/p/.debussy', '/p/docs/x.md', '/p', '../docs/x.md'],
    // A global install (outside the project): absolute.
    ['/p/.debussy', '/usr/lib/node_modules/debussy/schema/config.schema.json', '/p', '/usr/lib/node_modules/debussy/schema/config.schema.json'],
    // A sibling folder whose name starts like the project's is outside it.
    ['/p/.debussy', '/p2/schema.json', '/p', '/p2/schema.json'],
    ['/p/.debussy', '/p', '/p', '/p'],
  ])('from %s to %s (project %s): %s', (from, target, root, expected) => {
    expect(referenceFrom(from, target, root)).toBe(expected);
  });

  it('links a config file in this checkout to its own schema and docs, relatively', () => {
    expect(configFileLinks(REPO_ROOT)).toEqual({ schema: '../schema/config.schema.json', reference: '../docs/configuration.md' });
  });
});
