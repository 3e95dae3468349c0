/**
 * `debussy replay` of a Gemini CLI chat file, written by the real gemini 0.61.0 against the scripted
 * Gemini server: a row per recorded call with its reported context (the call's tokens.input), a
 * projection from the second call on, gemini's 1,048,576-token window; through the built binary.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { findChatFile } from '../../src/agent/gemini/chat-file.js';
import { DEBUSSY_BIN } from '../cli/cli-harness.js';
import { geminiEnv, runGemini, useGeminiHome, useScriptedGemini } from '../support/gemini.js';
import { shellCall } from '../support/scripted-gemini.js';

function debussy(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [DEBUSSY_BIN, ...args], { encoding: 'utf8', timeout: 30_000 }, (error, stdout, stderr) => {
      resolve({ status: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stdout, stderr });
    });
  });
}

describe('debussy replay of a gemini chat file', () => {
  it('a row per recorded call, its context as recorded, a projection from the second call on', async () => {
    const cwd = mkdtempSync(path.join(tmpdir(), 'debussy-gemini-cwd-'));
    onTestFinished(() => rmSync(cwd, { recursive: true, force: true }));
    const server = await useScriptedGemini({
      script: [
        { kind: 'calls', calls: [shellCall('seq 1 3000', 'c1')] },
        { kind: 'calls', calls: [shellCall('seq 1 6000', 'c2')] },
        { kind: 'text', text: 'Counted.' },
      ],
    });
    const home = useGeminiHome();
    const run = await runGemini({ cwd, env: geminiEnv(home, server), prompt: 'count', args: ['--session-id', '22222222-3333-4444-8555-666666666666'] });
    expect(run.exitCode).toBe(0);
    const file = findChatFile(path.join(home, '.gemini'), '22222222-3333-4444-8555-666666666666');
    expect(file).toBeDefined();
    const recorded = readFileSync(file!, 'utf8').split('\n').filter((line) => line.includes('"tokens"')).map((line) => JSON.parse(line) as { id: string; tokens: { input: number } });
    const inputs = [...new Map(recorded.map((r) => [r.id, r.tokens.input])).values()];
    expect(inputs).toHaveLength(3);

    const result = await debussy(['replay', file!, '--json']);
    expect(result.status, result.stderr).toBe(0);
    const rows = result.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    const calls = rows.filter((row) => row.summary === undefined);
    expect(calls.map((row) => row.reported)).toEqual(inputs);
    expect(calls[0]?.projected).toBeNull();
    expect(calls.slice(1).every((row) => typeof row.projected === 'number')).toBe(true);
    const summary = rows.at(-1)?.summary as { files: Array<{ contextWindow: number; badLines: number }> };
    expect(summary.files[0]).toMatchObject({ contextWindow: 1_048_576, badLines: 0 });

    const text = await debussy(['replay', file!]);
    expect(text.stdout).toContain('(a Gemini CLI chat file)');
  });
});
