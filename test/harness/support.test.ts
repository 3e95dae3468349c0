import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CLAUDE_BIN, claudeEnv, git, makeClaudeConfigDir, startClaude, tempGitRepo } from '../support/claude.js';
import { descendantsOf, isAlive, killTree } from '../support/process-tree.js';
import { countRequestTokens, firstUserText, firstUserTextRaw } from '../support/scripted-api.js';
import type { RecordedRequest } from '../support/scripted-api.js';

const run = promisify(execFile);

function requestWith(body: unknown): RecordedRequest {
  return { index: 0, path: '/v1/messages', method: 'POST', headers: {}, body, receivedAt: 0, aborted: false, main: true };
}

describe('countRequestTokens', () => {
  it('counts nothing in something that is not a request', () => {
    expect(countRequestTokens(undefined)).toBe(0);
    expect(countRequestTokens('text')).toBe(0);
    expect(countRequestTokens({})).toBe(0);
  });

  it('counts system text the same whether given as a string or as blocks', () => {
    const words = 'You are a careful engineer who writes tests first.';
    const asString = countRequestTokens({ system: words });
    expect(asString).toBeGreaterThan(5);
    expect(countRequestTokens({ system: [{ type: 'text', text: words }] })).toBe(asString);
  });

  it('counts every kind of content the model sees, and tools', () => {
    const base = { messages: [{ role: 'user', content: 'hello world' }] };
    const n = countRequestTokens(base);
    expect(n).toBe(2); // cl100k_base: "hello", " world"
    const withTool = countRequestTokens({
      ...base,
      tools: [{ name: 'Bash', description: 'Run a shell command', input_schema: { type: 'object' } }],
    });
    expect(withTool).toBeGreaterThan(n);
    const conversation = {
      ...base,
      messages: [
        ...base.messages,
        { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'Bash', input: { command: 'ls -la /tmp' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: [{ type: 'text', text: 'file-a file-b' }] }] },
      ],
    };
    const grown = countRequestTokens(conversation);
    expect(grown).toBeGreaterThan(n + 5);
    const withResultAsString = structuredClone(conversation);
    (withResultAsString.messages[2]!.content as Array<{ content: unknown }>)[0]!.content = 'file-a file-b';
    expect(countRequestTokens(withResultAsString)).toBe(grown);
  });

  it('treats special-token markers in user text as ordinary text', () => {
    expect(countRequestTokens({ messages: [{ role: 'user', content: 'a <|endoftext|> b' }] })).toBeGreaterThan(3);
  });
});

describe('firstUserText', () => {
  it('reads string content', () => {
    expect(firstUserText(requestWith({ messages: [{ role: 'user', content: 'just text' }] }))).toBe('just text');
  });

  it('joins text blocks and leaves out the CLI-injected <system-reminder> blocks', () => {
    const body = {
      messages: [
        { role: 'system', content: 'not a user message' },
        {
          role: 'user',
          content: [
            { type: 'text', text: '<system-reminder>\ntoday is a day\n</system-reminder>\n\n' },
            { type: 'text', text: 'CHECKPOINT: resume here' },
            { type: 'image', source: {} },
            { type: 'text', text: 'then the phase prompt' },
          ],
        },
        { role: 'user', content: 'later message' },
      ],
    };
    expect(firstUserText(requestWith(body))).toBe('CHECKPOINT: resume here\nthen the phase prompt');
    expect(firstUserTextRaw(requestWith(body))).toMatch(/^<system-reminder>[\s\S]*CHECKPOINT/);
  });

  it('is empty when there is no user message', () => {
    expect(firstUserText(requestWith(undefined))).toBe('');
    expect(firstUserText(requestWith({ messages: [{ role: 'assistant', content: 'x' }] }))).toBe('');
  });
});

describe('claude helpers', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('points CLAUDE_BIN at the installed CLI', async () => {
    expect(existsSync(CLAUDE_BIN)).toBe(true);
    const { stdout } = await run(CLAUDE_BIN, ['--version']);
    expect(stdout).toMatch(/\(Claude Code\)/);
  });

  it('builds an isolated env: our api, key, config dir, no telemetry, low retries; the enclosing setup dropped', () => {
    vi.stubEnv('ANTHROPIC_MODEL', 'leaked-model');
    vi.stubEnv('CLAUDE_CODE_USE_BEDROCK', '1');
    vi.stubEnv('CLAUDECODE', '1');
    const env = claudeEnv('http://127.0.0.1:1234', '/tmp/config-x');
    expect(env).toMatchObject({
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:1234',
      ANTHROPIC_API_KEY: 'test-key',
      CLAUDE_CONFIG_DIR: '/tmp/config-x',
      DISABLE_TELEMETRY: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      IS_SANDBOX: '1',
      CLAUDE_CODE_MAX_RETRIES: '0',
    });
    expect(Number(env.API_TIMEOUT_MS)).toBeGreaterThan(0);
    expect(env.PATH).toBe(process.env.PATH);
    expect(env.HOME).toBe('/tmp/config-x'); // no developer's shell rc reaches claude's shell snapshot
    expect(env.ANTHROPIC_MODEL).toBeUndefined();
    expect(env.CLAUDE_CODE_USE_BEDROCK).toBeUndefined();
    expect(env.CLAUDECODE).toBeUndefined();
  });

  it('startClaude fails with a clear message when the CLI cannot be started', async () => {
    await expect(startClaude({ cwd: '/nonexistent/dir/for/claude', prompt: 'x', apiUrl: 'http://127.0.0.1:9' })).rejects.toThrow(
      /could not start .*claude in \/nonexistent/,
    );
  });

  it('makes and removes a temp config dir', async () => {
    const config = await makeClaudeConfigDir();
    expect(existsSync(config.dir)).toBe(true);
    await config.cleanup();
    expect(existsSync(config.dir)).toBe(false);
  });

  it('makes a temp git repo with an identity and one commit holding the given files', async () => {
    const repo = await tempGitRepo({ 'src/a.ts': 'export const a = 1;\n', 'README.md': 'hi\n' });
    try {
      expect(await readFile(join(repo.dir, 'src/a.ts'), 'utf8')).toBe('export const a = 1;\n');
      expect((await git(repo.dir, 'status', '--porcelain')).trim()).toBe('');
      expect((await git(repo.dir, 'rev-list', '--count', 'HEAD')).trim()).toBe('1');
      expect((await git(repo.dir, 'ls-files')).trim().split('\n').sort()).toEqual(['README.md', 'src/a.ts']);
      expect((await git(repo.dir, 'config', 'user.email')).trim()).toBe('test@debussy.invalid');
      expect((await git(repo.dir, 'branch', '--show-current')).trim()).toBe('main');
    } finally {
      await repo.cleanup();
    }
    expect(existsSync(repo.dir)).toBe(false);
  });
});

describe('process tree', () => {
  it('finds the descendants of a process, even ones in their own session, and kills them all', async () => {
    // The inner sleeps are started with setsid, as claude starts its tool shells.
    const parent = spawn('sh', ['-c', 'setsid sleep 31 & sh -c "sleep 32" & wait'], { stdio: 'ignore' });
    const pid = parent.pid!;
    const exited = new Promise((resolve) => parent.on('exit', resolve));
    try {
      let found: number[] = [];
      await expect.poll(async () => (found = await descendantsOf(pid)).length).toBeGreaterThanOrEqual(3);
      await killTree(pid, 'SIGKILL');
      await exited;
      for (const child of found) await expect.poll(() => isAlive(child)).toBe(false);
    } finally {
      await killTree(pid, 'SIGKILL');
    }
  });
});
