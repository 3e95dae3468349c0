/**
 * `debussy replay` over transcripts this project's own runs produce: the real claude CLI against
 * the scripted server (counting in a way debussy does not share) writes its transcript under
 * CLAUDE_CONFIG_DIR/projects/; the built debussy binary replays it.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { debussy, expectNoStack } from '../cli/cli-harness.js';
import { makeClaudeConfigDir, runClaudeOnce, tempGitRepo, type TempDir } from '../support/claude.js';
import { startScriptedApi, type ScriptedApi, type ScriptedTurn } from '../support/scripted-api.js';

interface Row {
  index: number;
  model: string;
  reported: number;
  projected: number | null;
  stopBefore?: boolean;
}

interface Summary {
  summary: { calls: number; compared: number; medianErrorPercent: number; p95ErrorPercent: number; worstErrorPercent: number; growth: { compared: number; medianErrorPercent: number }; files: { stopBefore: number | null }[] };
}

let repo: TempDir;
let config: TempDir;
let api: ScriptedApi;
let transcript: string;

function findTranscripts(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.jsonl')).map((f) => path.join(dir, f));
}

beforeAll(async () => {
  const root = path.resolve(import.meta.dirname, '..', '..');
  const es5 = readFileSync(path.join(root, 'node_modules/typescript/lib/lib.es5.d.ts'), 'utf8');
  const files: Record<string, string> = {};
  for (let i = 0; i < 5; i++) files[`lib/part${i}.d.ts`] = es5.slice(10_000 + i * 9_000, 19_000 + i * 9_000);
  repo = await tempGitRepo(files);
  config = await makeClaudeConfigDir();
  const turns: ScriptedTurn[] = [];
  for (let i = 0; i < 5; i++) {
    turns.push({ kind: 'tool_use', name: 'Bash', input: { command: `cat lib/part${i}.d.ts`, description: 'read' }, text: `Part ${i} next.` });
    turns.push({ kind: 'tool_use', name: 'Bash', input: { command: `seq 1 ${300 * (i + 1)}`, description: 'numbers' } });
  }
  turns.push({ kind: 'text', text: 'All read.' });
  api = await startScriptedApi({ script: turns, usage: 'foreign' });
  const run = await runClaudeOnce({ cwd: repo.dir, prompt: 'Read the declarations.', apiUrl: api.url, extraArgs: ['--model', 'claude-sonnet-4-5'], env: { CLAUDE_CONFIG_DIR: config.dir } });
  expect(run.exitCode, run.stderr).toBe(0);
  const found = findTranscripts(path.join(config.dir, 'projects'));
  expect(found).toHaveLength(1);
  transcript = found[0] as string;
}, 120_000);

afterAll(async () => {
  await api.close();
  await config.cleanup();
  await repo.cleanup();
});

describe('debussy replay over a transcript the real claude wrote', () => {
  it('one row per API call with what the server reported, and the projection made before it', async () => {
    const result = await debussy(['replay', transcript, '--json'], { cwd: repo.dir });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n').map((l) => JSON.parse(l) as Row | Summary);
    const rows = lines.filter((l): l is Row => 'index' in l);
    const summary = lines.at(-1) as Summary;
    const main = api.mainRequests();
    expect(rows.map((r) => r.index)).toEqual(main.map((_, i) => i + 1));
    expect(rows.map((r) => r.reported)).toEqual(main.map((r) => r.trueTokens));
    expect(rows.every((r) => r.model === 'claude-sonnet-4-5')).toBe(true);
    expect(rows[0]?.projected).toBeNull();
    expect(rows.slice(1).every((r) => typeof r.projected === 'number')).toBe(true);
    expect(summary.summary).toMatchObject({ calls: main.length, compared: main.length - 1 });
    // The same monitor as the live run, calibrating as it goes: close to a truth it does not share.
    expect(summary.summary.medianErrorPercent).toBeLessThan(1);
    expect(summary.summary.worstErrorPercent).toBeLessThan(10);
    expect(summary.summary.growth.compared).toBeGreaterThan(3);
    expect(summary.summary.files[0]?.stopBefore).toBeNull();
  });

  it('shows where a run at a lower limit would have stopped: before the first call over it, never after', async () => {
    const main = api.mainRequests();
    const cap = Math.round(((main[5]?.trueTokens ?? 0) + (main[6]?.trueTokens ?? 0)) / 2);
    const firstOver = main.findIndex((r) => (r.trueTokens ?? 0) >= cap) + 1;
    const json = await debussy(['replay', transcript, '--json', '--max-context-tokens', String(cap)], { cwd: repo.dir });
    const rows = json.stdout.trim().split('\n').map((l) => JSON.parse(l) as Row | Summary).filter((l): l is Row => 'index' in l);
    const stop = rows.find((r) => r.stopBefore === true)?.index;
    expect(stop).toBeDefined();
    expect(stop).toBeLessThanOrEqual(firstOver);
    expect(stop).toBeGreaterThanOrEqual(firstOver - 1);
    const text = await debussy(['replay', transcript, '--max-context-tokens', String(cap)], { cwd: repo.dir });
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`debussy would have stopped before call ${stop}`);
    expect(text.stdout).toContain(`limit: ${cap.toLocaleString('en-US')} tokens (max_context_tokens)`);
    expect(text.stdout).toMatch(/projection error \(% of the reported context\): median [\d.]+%/);
  });

  it("replays a subagent's own transcript (no main chain) as its chain", async () => {
    const lines = readFileSync(transcript, 'utf8').split('\n').filter(Boolean).map((line) => line.replace('"isSidechain":false', '"isSidechain":true'));
    const file = path.join(repo.dir, 'agent-sub.jsonl');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const result = await debussy(['replay', file], { cwd: repo.dir });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("(a subagent's conversation)");
    expect(result.stdout).toContain(`${api.mainRequests().length} API calls on the subagent's chain`);
  });

  it('bad input: one line naming the problem, exit 2, no stack', async () => {
    const missing = await debussy(['replay', path.join(repo.dir, 'nope.jsonl')], { cwd: repo.dir });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot read transcript .*nope\.jsonl/);
    expectNoStack(missing);
    const badFlag = await debussy(['replay', transcript, '--context-threshold', 'lots'], { cwd: repo.dir });
    expect(badFlag.code).toBe(2);
    expect(badFlag.stderr).toContain('--context-threshold must be a number from 1 to 100');
    expectNoStack(badFlag);
  });
});
