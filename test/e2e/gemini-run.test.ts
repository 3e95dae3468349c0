/**
 * `debussy run --agent gemini` through the real binaries: debussy's bin, the real gemini (0.61.0)
 * against the scripted Gemini server, real git. One run: its first session records progress and
 * crosses the context threshold (measured from gemini's chat file), so it restarts from a checkpoint,
 * as with Claude Code; the second works, signals with the `debussy` on its PATH, debussy verifies the
 * gates and commits.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { describe, expect, it, onTestFinished } from 'vitest';
import { latestRun, readJournal } from '../../src/state/index.js';
import { CHECKPOINT_HEADING } from '../../src/prompt/restart-prompt.js';
import { DEBUSSY_BIN } from '../cli/cli-harness.js';
import { GEMINI_BIN, GEMINI_TEST_MODEL, geminiEnv, useGeminiHome, useScriptedGemini } from '../support/gemini.js';
import { planFiles } from '../support/plan-files.js';
import { shellCall, writeFileCall, type GeminiTurn, type RecordedGeminiRequest } from '../support/scripted-gemini.js';
import { git, tempGitRepo } from '../support/temp-git-repo.js';
import { waitFor } from './processes.js';

async function project(phases: Parameters<typeof planFiles>[1], config: Record<string, unknown> = {}) {
  const repo = await tempGitRepo({
    ...planFiles('Gemini Plan', phases),
    '.gitignore': '.debussy/runs/\n.debussy/run.lock\n.debussy/project.ndjson\n',
    '.debussy/config.yaml': YAML.stringify({ agent: 'gemini', gemini_command: GEMINI_BIN, model: GEMINI_TEST_MODEL, permission_mode: 'bypassPermissions', stop_grace: '3s', ...config }),
  });
  onTestFinished(repo.cleanup);
  return repo.dir;
}

/** The scripted server runs in this process: debussy must run beside it, never block it. */
function debussy(dir: string, args: string[], env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [DEBUSSY_BIN, ...args], { cwd: dir, env: { ...env, CI: 'true' }, encoding: 'utf8', timeout: 90_000 }, (error, stdout, stderr) => {
      resolve({ status: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stdout, stderr });
    });
  });
}

const write = (file: string, text: string, id: string) => shellCall(`mkdir -p ${path.dirname(file)} && printf '%s\\n' '${text}' > ${file}`, id);

/**
 * Recorded by the first session with `debussy progress`; the restart's checkpoint must carry it. Its
 * command spells it otherwise (the checkpoint also quotes the session's last command).
 */
const PROGRESS = 'recorded by GEMINI';

async function journal(dir: string) {
  const run = await latestRun(dir);
  return run === undefined ? [] : (await readJournal(path.join(run.dir, 'journal.ndjson'))).events;
}

describe('debussy run --agent gemini', () => {
  // One run shows both: its first session crosses the context threshold and is restarted from a
  // checkpoint; the second does the work, signals with the `debussy` on its PATH, the gates decide.
  it('runs a phase through the real gemini: a restart from a checkpoint once the context crosses the threshold (the crossing call\'s tools finish, nothing after them runs even with debussy starved), then the work is committed, the signal reaches the run, the gates decide', async () => {
    const sent = (req: RecordedGeminiRequest) => JSON.stringify(req.body);
    let nextRequested: (() => void) | undefined;
    const nextRequest = new Promise<void>((resolve) => (nextRequested = resolve));
    // Answered by what each request holds: a stop can leave a scripted reply unasked.
    const script = (req: RecordedGeminiRequest): GeminiTurn => {
      const body = sent(req);
      if (body.includes(CHECKPOINT_HEADING)) {
        if (body.includes('call_done')) return { kind: 'text', text: 'Phase 1 is done.' };
        if (body.includes('call_write')) return { kind: 'calls', calls: [shellCall('debussy done --phase 1', 'call_done')] };
        return { kind: 'calls', calls: [write('src/hello.txt', 'hello', 'call_write')], text: 'Writing the file.' };
      }
      // Asked once the crossing call's tools are done, and answered at once: its tool must not run.
      if (body.includes('call_b2')) {
        nextRequested?.();
        return { kind: 'calls', calls: [write('c.txt', 'third', 'call_c')] };
      }
      // Its context is above 40% of the 1,048,576-token window: the session stops after its two
      // tools (the first still sleeping when debussy is starved).
      if (body.includes('call_a')) {
        return { kind: 'calls', calls: [shellCall("sleep 2 && printf '%s\\n' second > b.txt", 'call_b'), writeFileCall('b2.txt', 'written by the crossing call', 'call_b2')], usage: { promptTokenCount: 500_000, cachedContentTokenCount: 400_000 } };
      }
      return { kind: 'calls', calls: [shellCall(`who=GEMINI && debussy progress --phase 1 --message "recorded by $who" && printf '%s\\n' first > a.txt`, 'call_a')] };
    };
    const server = await useScriptedGemini({ script });
    const home = useGeminiHome();
    const gate = { name: 'all', command: 'test -f a.txt && test -f b.txt && test -f b2.txt && test -f src/hello.txt' };
    const dir = await project([{ id: '1', title: 'Three files', gates: [gate] }], { context_threshold: 40, max_context_tokens: 0 });
    // debussy is SIGSTOPped once the stop is decided, while the crossing call's command sleeps: it
    // cannot read that the tools are done, and gemini asks again meanwhile, answered at once.
    const child = spawn(process.execPath, [DEBUSSY_BIN, 'run', 'plans/e2e/MASTER_PLAN.md', '--plain'], { cwd: dir, env: { ...geminiEnv(home, server), CI: 'true' }, stdio: ['ignore', 'pipe', 'pipe'] });
    onTestFinished(() => void child.kill('SIGCONT'));
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    // Bounded waits that say what was seen: a hang would tell nothing.
    const seen = async () => `debussy printed:\n${out}\nthe model was asked ${server.modelRequests().length} times; the journal: ${(await journal(dir)).map((e) => e.type).join(' ')}`;
    await waitFor('the stop to be decided', async () => (await journal(dir)).some((e) => e.type === 'stop_requested'), 30_000).catch(async (error: unknown) => {
      throw new Error(`${String(error)}\n${await seen()}`);
    });
    await new Promise((resolve) => setTimeout(resolve, 250));
    child.kill('SIGSTOP');
    const stoppedAt = Date.now();
    let resumedAt = 0;
    try {
      expect(existsSync(path.join(dir, 'b.txt')), "the crossing call's command had finished before debussy was stopped: the race was not run").toBe(false);
      const asked = await Promise.race([nextRequest.then(() => true), new Promise<false>((resolve) => setTimeout(() => resolve(false), 20_000))]);
      expect(asked, `gemini did not ask for the response after the crossing call's tools (were they refused?)\n${await seen()}`).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 2_000));
    } finally {
      resumedAt = Date.now();
      child.kill('SIGCONT');
    }
    const code = await closed;
    if (code !== 0) console.log(out);
    // The race was run: gemini asked for the next response while debussy was stopped.
    const next = server.modelRequests().find((req) => sent(req).includes('call_b2'));
    expect(next?.receivedAt).toBeGreaterThan(stoppedAt);
    expect(next?.receivedAt).toBeLessThan(resumedAt);
    expect(out).not.toMatch(/\n\s+at .*\.js:\d+/);
    expect(code).toBe(0);
    const events = await journal(dir);
    expect(events.filter((e) => e.type === 'context_crossed')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'restart')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'session_started')).toHaveLength(2);
    expect(events.filter((e) => e.type === 'signal')).toEqual([expect.objectContaining({ phaseId: '1', status: 'completed' })]);
    expect(events.filter((e) => e.type === 'gate_result')).toEqual([expect.objectContaining({ name: 'all', passed: true })]);
    const ended = events.filter((e) => e.type === 'session_ended');
    expect(ended).toMatchObject([{ outcome: 'stopped' }, { outcome: 'completed' }]);
    // gemini reports no cost: debussy prices its calls with Google's list prices.
    expect((ended[1] as { costUsd?: number } | undefined)?.costUsd ?? 0).toBeGreaterThan(0);
    // The second session began with the checkpoint, which names the first session's files and the progress it recorded.
    const resumed = server.modelRequests().find((req) => sent(req).includes(CHECKPOINT_HEADING));
    expect(sent(resumed!)).toContain('a.txt');
    expect(sent(resumed!)).toContain(PROGRESS);
    // The phase's commit holds the second session's work only.
    expect(await git(dir, 'log', '--format=%s', '-1')).toContain('phase 1');
    expect((await git(dir, 'show', '--name-only', '--format=', 'HEAD')).trim()).toBe('src/hello.txt');
    // The crossing call's own tools finished (b.txt, b2.txt); nothing after them ran (no c.txt), and all went into the checkpoint commit.
    expect(await git(dir, 'log', '--format=%s', '-1', 'HEAD~1')).toMatch(/^debussy: checkpoint phase 1 \(restart 1\/3, context \d+%\)/);
    expect((await git(dir, 'show', '--name-only', '--format=', 'HEAD~1')).trim().split('\n').sort()).toEqual(['a.txt', 'b.txt', 'b2.txt']);
    expect(existsSync(path.join(dir, 'c.txt'))).toBe(false);
    // The user's own gemini settings were read, never written.
    expect(YAML.parse(readFileSync(path.join(home, '.gemini', 'settings.json'), 'utf8'))).toEqual({ security: { auth: { selectedType: 'gemini-api-key' } } });
  });

  it('without gemini: one line naming the command and how to install it, exit 3, nothing started', async () => {
    const server = await useScriptedGemini({ script: [] });
    const dir = await project([{ id: '1', title: 'Hello', gates: [] }], { gemini_command: '/nonexistent/gemini' });
    const result = await debussy(dir, ['run', 'plans/e2e/MASTER_PLAN.md', '--plain'], geminiEnv(useGeminiHome(), server));
    expect(result.status).toBe(3);
    expect(result.stderr).toContain('the Gemini CLI command "/nonexistent/gemini" was not found');
    expect(result.stderr).toContain('npm install -g @google/gemini-cli');
    expect(result.stderr + result.stdout).not.toMatch(/\n\s+at .*\.js:\d+/);
    expect(server.requests).toHaveLength(0);
  });
});
