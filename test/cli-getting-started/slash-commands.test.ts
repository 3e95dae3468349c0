/**
 * The slash commands `debussy init` installs: their frontmatter, their worked examples (checked
 * against the rules they state, with a real shell doing the quoting) and what the real claude CLI
 * makes of them when a user types `/debussy-done 6D blocked "reason"`.
 */
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { readTemplate } from '../../src/scaffold/index.js';
import { runClaudeOnce } from '../support/claude.js';
import { useScriptedApi, useTempGitRepo } from '../support/per-test.js';
import { firstUserText } from '../support/scripted-api.js';
import { debussy } from '../cli/cli-harness.js';

function splitFrontmatter(text: string): { meta: Record<string, unknown>; body: string } {
  const match = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text);
  if (!match) throw new Error('no frontmatter');
  return { meta: YAML.parse(match[1] ?? '') as Record<string, unknown>, body: match[2] ?? '' };
}

/** Words as sh reads them: quotes group and disappear. */
function shellWords(text: string): string[] {
  const out = execFileSync('sh', ['-c', `printf '%s\\0' ${text}`], { encoding: 'utf8' });
  return out.split('\0').slice(0, -1);
}

/** The `- \`/cmd ARGS\` runs \`COMMAND\`` lines of a template. */
function examples(body: string): { args: string; command: string }[] {
  return [...body.matchAll(/^- `\/debussy-[a-z]+ ([^`]*)` runs `([^`]+)`$/gm)].map((m) => ({ args: m[1] ?? '', command: m[2] ?? '' }));
}

describe.each([
  { file: 'debussy-done.md', tool: 'Bash(debussy done:*)' },
  { file: 'debussy-progress.md', tool: 'Bash(debussy progress:*)' },
])('$file', ({ file, tool }) => {
  it('has the frontmatter Claude Code reads, allowing only its own debussy command', async () => {
    const { meta } = splitFrontmatter(await readTemplate(`claude-commands/${file}`));
    expect(meta['allowed-tools']).toBe(tool);
    expect(typeof meta.description).toBe('string');
    expect(meta['argument-hint']).toMatch(/^<phase-id> /);
  });

  it('takes its arguments from $ARGUMENTS only: positional $N means different things in different claude versions', async () => {
    const { body } = splitFrontmatter(await readTemplate(`claude-commands/${file}`));
    expect(body).toContain('$ARGUMENTS');
    expect(body).not.toMatch(/\$\d|\$ARGUMENTS\[/);
  });
});

describe('the worked examples follow the rules the commands state', () => {
  it('/debussy-done: phase id, optional status, the rest is the reason', async () => {
    const found = examples(splitFrontmatter(await readTemplate('claude-commands/debussy-done.md')).body);
    expect(found.map((e) => e.args)).toContain('6D blocked "the staging API key is missing"');
    expect(found.map((e) => e.args)).toContain('6D');
    for (const { args, command } of found) {
      const [phase = '', status, ...reason] = shellWords(args);
      const expected = ['debussy', 'done', '--phase', phase];
      if (status !== undefined) expected.push('--status', status);
      if (reason.length > 0) expected.push('--reason', reason.join(' '));
      expect(shellWords(command), `${args} -> ${command}`).toEqual(expected);
    }
    expect(shellWords(found.find((e) => e.args.startsWith('6D blocked'))?.command ?? '')).toEqual([
      'debussy', 'done', '--phase', '6D', '--status', 'blocked', '--reason', 'the staging API key is missing',
    ]);
  });

  it('/debussy-progress: phase id, then the message', async () => {
    const found = examples(splitFrontmatter(await readTemplate('claude-commands/debussy-progress.md')).body);
    expect(found.length).toBeGreaterThanOrEqual(2);
    for (const { args, command } of found) {
      const [phase = '', ...message] = shellWords(args);
      expect(shellWords(command), `${args} -> ${command}`).toEqual(['debussy', 'progress', '--phase', phase, '--message', message.join(' ')]);
    }
  });

  it('the quoting rule it states survives a single quote in the reason', () => {
    const reason = "it's blocked";
    const quoted = `'${reason.replace(/'/g, "'\\''")}'`;
    expect(shellWords(`debussy done --phase 6D --status blocked --reason ${quoted}`).at(-1)).toBe(reason);
  });
});

describe('what the real claude CLI sends the model for the installed commands', () => {
  async function promptFor(typed: string): Promise<string> {
    const api = await useScriptedApi({ script: [{ kind: 'text', text: 'ok' }] });
    const dir = await useTempGitRepo();
    expect((await debussy(['init'], { cwd: dir })).code).toBe(0);
    const run = await runClaudeOnce({ cwd: dir, prompt: typed, apiUrl: api.url });
    expect(run.exitCode).toBe(0);
    const [request] = api.mainRequests();
    if (!request) throw new Error('claude sent no request');
    return firstUserText(request);
  }

  it('/debussy-done 6D blocked "reason": the arguments arrive whole, quotes included, with the rules to read them', async () => {
    const text = await promptFor('/debussy-done 6D blocked "the staging API key is missing"');
    expect(text).toContain('<command-name>/debussy-done</command-name>');
    expect(text).toContain('The arguments, exactly as they were typed: 6D blocked "the staging API key is missing"\n');
    expect(text).toContain("--reason '<reason>'");
    expect(text).not.toContain('$ARGUMENTS');
  });

  it('/debussy-progress 6D "message"', async () => {
    const text = await promptFor('/debussy-progress 6D "restart loop done"');
    expect(text).toContain('The arguments, exactly as they were typed: 6D "restart loop done"\n');
    expect(text).toContain("debussy progress --phase <id> --message '<message>'");
  });
});

it('init installs the templates byte for byte', async () => {
  const dir = await useTempGitRepo();
  expect((await debussy(['init'], { cwd: dir })).code).toBe(0);
  for (const name of ['debussy-done.md', 'debussy-progress.md']) {
    expect(await readFile(path.join(dir, '.claude/commands', name), 'utf8')).toBe(await readTemplate(`claude-commands/${name}`));
  }
});
