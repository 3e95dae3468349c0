/** CLI conventions through the built binary: -v/--version (and the older -V), Examples in help. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { debussy, REPO_ROOT, tempDir } from './cli-harness.js';

const { version } = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
const dir = tempDir('debussy-help-');
afterAll(() => dir.cleanup());

describe('CLI conventions', () => {
  it.each(['-v', '--version', '-V'])('%s prints the version and exits 0', async (flag) => {
    const result = await debussy([flag], { cwd: dir.dir });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`${version}\n`);
  });

  it.each([['run'], ['done'], ['audit'], ['init'], ['completion']])('%s --help ends with Examples of itself', async (command) => {
    const result = await debussy([command, '--help'], { cwd: dir.dir });
    expect(result.code).toBe(0);
    const examples = result.stdout.split('\nExamples:\n')[1];
    expect(examples, result.stdout).toBeDefined();
    expect(examples).toMatch(new RegExp(`^ {2}\\$ debussy ${command} `, 'm'));
  });

  it('--no-auto-commit says it leaves the work uncommitted', async () => {
    const result = await debussy(['run', '--help'], { cwd: dir.dir });
    const text = result.stdout.replace(/\s+/g, ' ');
    expect(text).toContain("--no-auto-commit do not commit the agent's work: it stays uncommitted in the working tree");
  });
});
