/**
 * `npm run test:unit` runs vitest's `unit` project, which builds nothing: a test that runs the
 * real binaries (bin/debussy.js and the dist/ it runs, the claude and codex CLIs, the demo, CI's script) must
 * be in vitest.config.ts's E2E_TESTS, whose project builds dist/ first. Read from the tests'
 * sources: what a test file or a test helper it imports (at any depth) names.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { E2E_TESTS, LONGEST_FIRST } from '../../vitest.config.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const RUNS_A_BINARY = /DEBUSSY_BIN|CLAUDE_BIN|CODEX_BIN|bin\/debussy\.js|node_modules\/\.bin\/|\.ci\/run|scripts\/demo|['"]dist['"]|['"`/]dist\/[\w-]+/;

/** A glob of E2E_TESTS as a regular expression: `**` any path, `*` any name. */
function globPattern(glob: string): RegExp {
  const escaped = glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*\*/g, '\0').replace(/\*/g, '[^/]*').replace(/\0/g, '.*');
  return new RegExp(`^${escaped}$`);
}

function testFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = `${dir}/${entry.name}`;
    return entry.isDirectory() ? testFiles(file) : file.endsWith('.test.ts') ? [file] : [];
  });
}

/** The file, and the files under test/ it imports, at any depth. */
function withLocalImports(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const match of readFileSync(path.join(ROOT, file), 'utf8').matchAll(/from '(\.[^']+)'|import\('(\.[^']+)'\)/g)) {
    const target = path.relative(ROOT, path.resolve(path.dirname(path.join(ROOT, file)), (match[1] ?? match[2] ?? '').replace(/\.js$/, '.ts')));
    if (target.startsWith('test/') && existsSync(path.join(ROOT, target))) withLocalImports(target, seen);
  }
  return seen;
}

describe('the unit project', () => {
  const e2e = E2E_TESTS.map(globPattern);
  const unit = testFiles('test').filter((file) => !e2e.some((pattern) => pattern.test(file)));

  it('holds most of the tests', () => {
    expect(unit.length).toBeGreaterThan(80);
  });

  it('holds no test that runs a binary', () => {
    const reaching = unit.flatMap((file) => {
      const source = [...withLocalImports(file)].find((f) => RUNS_A_BINARY.test(readFileSync(path.join(ROOT, f), 'utf8')));
      return source === undefined ? [] : [`${file} (through ${source})`];
    });
    expect(reaching).toEqual([]);
  });

  it('the check finds one: an e2e test that runs the binary through a helper', () => {
    expect([...withLocalImports('test/e2e/restart-loop.test.ts')].some((f) => RUNS_A_BINARY.test(readFileSync(path.join(ROOT, f), 'utf8')))).toBe(true);
    expect(e2e.some((pattern) => pattern.test('test/e2e/restart-loop.test.ts'))).toBe(true);
  });
});

describe('the files started first', () => {
  it('are test files that exist: a renamed one would drop to vitest\'s order unnoticed', () => {
    expect(LONGEST_FIRST.filter((file) => !file.endsWith('.test.ts') || !existsSync(path.join(ROOT, file)))).toEqual([]);
    expect(new Set(LONGEST_FIRST).size).toBe(LONGEST_FIRST.length);
  });
});
