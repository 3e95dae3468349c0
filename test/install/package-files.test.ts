import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { configFileLinks } from '../../src/config/index.js';
import { docFile, packageFile, packageRoot, publicFileUrl, relativeInProject } from '../../src/install/package-files.js';
import { REPO_ROOT } from '../cli/cli-harness.js';

describe('package files', () => {
  it('are found from the module, whatever the current directory', () => {
    expect(path.resolve(packageRoot())).toBe(path.resolve(REPO_ROOT));
    expect(existsSync(packageFile('schema/config.schema.json'))).toBe(true);
    expect(existsSync(docFile('permissions.md'))).toBe(true);
  });
});

describe('relativeInProject', () => {
  it.each([
    // debussy installed in the project: relative, so every clone resolves it.
    ['/p/.debussy', '/p/node_modules/debussy/schema/config.schema.json', '/p', '../node_modules/debussy/schema/config.schema.json'],
    ['/p/.debussy', '/p/docs/x.md', '/p', '../docs/x.md'],
    // A global install (outside the project): no path of this machine.
    ['/p/.debussy', '/usr/lib/node_modules/debussy/schema/config.schema.json', '/p', undefined],
    // A sibling folder whose name starts like the project's is outside it.
    ['/p/.debussy', '/p2/schema.json', '/p', undefined],
    ['/p/.debussy', '/p', '/p', undefined],
  ])('from %s to %s (project %s): %s', (from, target, root, expected) => {
    expect(relativeInProject(from, target, root)).toBe(expected);
  });

  it('links a config file in this checkout to its own schema and docs, relatively', () => {
    expect(configFileLinks(REPO_ROOT)).toEqual({ schema: '../schema/config.schema.json', reference: '../docs/configuration.md' });
  });
});

describe('publicFileUrl', () => {
  it.each<[string, string, 'raw' | 'blob', string | undefined]>([
    ['git+https://github.com/debussy-cli/debussy.git', '0.1.0', 'raw', 'https://raw.githubusercontent.com/debussy-cli/debussy/v0.1.0/schema/config.schema.json'],
    ['https://github.com/debussy-cli/debussy', '1.2.3', 'blob', 'https://github.com/debussy-cli/debussy/blob/v1.2.3/schema/config.schema.json'],
    ['git@github.com:someone/fork.git', '0.2.0-beta.1', 'raw', 'https://raw.githubusercontent.com/someone/fork/v0.2.0-beta.1/schema/config.schema.json'],
    ['https://gitlab.com/a/b.git', '0.1.0', 'raw', undefined],
    ['git+https://github.com/debussy-cli/debussy.git', 'not-a-version', 'raw', undefined],
  ])('%s at %s (%s): %s', (repository, version, kind, expected) => {
    expect(publicFileUrl(repository, version, 'schema/config.schema.json', kind)).toBe(expected);
  });

  it('outside the project, a config names this version at the public address of package.json', () => {
    const version = (JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    expect(configFileLinks(path.join(REPO_ROOT, '..', 'elsewhere'))).toEqual({
      schema: `https://raw.githubusercontent.com/debussy-cli/debussy/v${version}/schema/config.schema.json`,
      reference: `https://github.com/debussy-cli/debussy/blob/v${version}/docs/configuration.md`,
    });
  });
});
