/** `debussy config` shows the effective context limit and where it comes from (issue 11, max_context_tokens). */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { debussy, initRepo, tempDir } from './cli-harness.js';

let dir: ReturnType<typeof tempDir> | undefined;
afterEach(() => {
  dir?.cleanup();
  dir = undefined;
});

function project(config: string): string {
  dir = tempDir();
  initRepo(dir.dir);
  mkdirSync(path.join(dir.dir, '.debussy'));
  writeFileSync(path.join(dir.dir, '.debussy/config.yaml'), config);
  return dir.dir;
}

describe('debussy config: the effective context limit', () => {
  it.each([
    ['', ['with a 200,000-token window: 160,000 tokens (80% of 200,000)', 'with a 1,000,000-token window: 160,000 tokens (max_context_tokens)']],
    ['max_context_tokens: 300000\ncontext_window: 1000000\n', ['1,000,000-token window (context_window): 300,000 tokens (max_context_tokens)']],
    ['max_context_tokens: 0\nmodel: sonnet\n', ['200,000-token window (model): 160,000 tokens (80% of 200,000)']],
    ['max_context_tokens: 0\ncontext_threshold: 100\ncontext_window: 500000\n', ['500,000-token window (context_window): none (context_threshold 100)']],
  ])('config %j', async (config, expected) => {
    const cwd = project(config);
    const result = await debussy(['config'], { cwd });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const section = result.stdout.slice(result.stdout.indexOf('effective context limit'));
    for (const line of expected) expect(section).toContain(line);
    if (config.includes('max_context_tokens: 300000')) expect(result.stdout).toMatch(/max_context_tokens\s+300000\s+\(file\)/);
  });

  it('--json lists the limits with their sources', async () => {
    const cwd = project('context_window: 1000000\n');
    const result = await debussy(['config', '--json'], { cwd });
    expect(JSON.parse(result.stdout)).toMatchObject({
      values: { max_context_tokens: { value: 160_000, source: 'default' } },
      contextLimits: [{ window: 1_000_000, windowSource: 'context_window', tokens: 160_000, source: 'max_context_tokens' }],
    });
  });

  it('a bad value is one line naming the key, exit 2', async () => {
    const cwd = project('max_context_tokens: lots\n');
    const result = await debussy(['config'], { cwd });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('max_context_tokens');
  });
});
