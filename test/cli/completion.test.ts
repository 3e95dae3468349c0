/**
 * `debussy completion bash|zsh|fish` from the built binary: each script parses in its shell
 * (bash -n, zsh -n, fish -n; zsh and fish only where installed), and bash and fish complete
 * commands, flags and a flag's choices as the program defines them.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { debussy, tempDir } from './cli-harness.js';

const has = (shell: string): boolean => spawnSync(shell, ['-c', 'exit 0']).status === 0;
const dir = tempDir('debussy-completion-');
const scripts: Record<string, string> = {};

beforeAll(async () => {
  for (const shell of ['bash', 'zsh', 'fish']) {
    const result = await debussy(['completion', shell], { cwd: dir.dir });
    expect(result.code, result.stderr).toBe(0);
    scripts[shell] = path.join(dir.dir, `debussy.${shell}`);
    writeFileSync(scripts[shell], result.stdout);
  }
});
afterAll(() => dir.cleanup());

function syntaxCheck(shell: string): void {
  const result = spawnSync(shell, ['-n', scripts[shell] ?? ''], { encoding: 'utf8' });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
}

describe('debussy completion', () => {
  it('bash: the script parses (bash -n)', () => syntaxCheck('bash'));
  it.skipIf(!has('zsh'))('zsh: the script parses (zsh -n)', () => syntaxCheck('zsh'));
  it.skipIf(!has('fish'))('fish: the script parses (fish -n)', () => syntaxCheck('fish'));

  it.each([
    [['debussy', 'r'], ['run', 'resume', 'replay']],
    [['debussy', 'd'], ['done', 'doctor']],
    [['debussy', 'run', '--dr'], ['--dry-run']],
    [['debussy', 'run', '--no-'], ['--no-auto-commit']],
    [['debussy', 'plan', 'n'], ['new']],
    [['debussy', 'plan', ''], ['new', 'import']],
    [['debussy', 'plan', 'import', 'x', '--t'], ['--tag']],
    [['debussy', 'plan', 'new', 'x', '--template', ''], ['generic', 'backend', 'frontend']],
    [['debussy', 'done', '--status', 'b'], ['blocked']],
    [['debussy', 'completion', ''], ['bash', 'zsh', 'fish']],
    [['debussy', '-'], ['-v', '--version', '-h', '--help']],
  ])('bash completes %j with %j', (words, expected) => {
    const probe = `source ${JSON.stringify(scripts.bash)}; COMP_WORDS=(${words.map((w) => JSON.stringify(w)).join(' ')}); COMP_CWORD=${words.length - 1}; _debussy; printf '%s\\n' "\${COMPREPLY[@]}"`;
    const result = spawnSync('bash', ['-c', probe], { encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.stdout.split('\n').filter(Boolean)).toEqual(expected);
  });

  it.skipIf(!has('fish'))('fish completes commands, flags and choices', () => {
    const complete = (line: string): string[] => {
      const result = spawnSync('fish', ['-c', `source ${scripts.fish}; complete -C ${JSON.stringify(line)}`], { encoding: 'utf8' });
      return result.stdout.split('\n').filter(Boolean).map((row) => row.split('\t')[0] ?? '');
    };
    expect(complete('debussy pl')).toEqual(['plan']);
    expect(complete('debussy plan ')).toEqual(['import', 'new']);
    expect(complete('debussy run --dr')).toEqual(['--dry-run']);
    expect(complete('debussy plan new x --template ')).toEqual(['backend', 'frontend', 'generic']);
  });

  it('refuses a shell it has no script for, with exit code 2', async () => {
    const result = await debussy(['completion', 'tcsh'], { cwd: dir.dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('bash, zsh, fish');
    expect(result.stdout).toBe('');
  });
});
