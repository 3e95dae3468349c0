/**
 * `debussy run --agent codex` through the real binaries: debussy's bin, the real codex (0.171.0,
 * app-server) against the scripted Responses server, real git. The agent works, signals with the
 * `debussy` on its PATH (the run's shim, answered by the run's inbox), debussy verifies the gates
 * and commits (shown by the resume after a Ctrl-C); a phase crosses the context threshold and
 * restarts from a checkpoint, as with Claude Code; a 429 and a context overflow are classified and
 * recovered as Claude's are, and a usage limit is waited out.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { describe, expect, it } from 'vitest';
import { readJournal } from '../../src/state/index.js';
import { latestRun } from '../../src/state/index.js';
import { DEBUSSY_BIN } from '../cli/cli-harness.js';
import { livePids, waitFor } from './processes.js';
import { CODEX_BIN, CODEX_TEST_MODEL, codexEnv } from '../support/codex.js';
import { useCodexHome, useScriptedResponses } from '../support/codex-per-test.js';
import { planFiles } from '../support/plan-files.js';
import { git, tempGitRepo } from '../support/temp-git-repo.js';
import { applyPatch, contextOverflowError, execCommand, rateLimitError, toolOutputs, type RecordedResponsesRequest, type ResponsesTurn } from '../support/scripted-responses.js';
import { CHECKPOINT_HEADING } from '../../src/prompt/restart-prompt.js';
import { onTestFinished } from 'vitest';

async function project(phases: Parameters<typeof planFiles>[1], config: Record<string, unknown> = {}) {
  const repo = await tempGitRepo({
    ...planFiles('Codex Plan', phases),
    '.gitignore': '.debussy/runs/\n.debussy/run.lock\n.debussy/project.ndjson\n',
    '.debussy/config.yaml': YAML.stringify({ agent: 'codex', codex_command: CODEX_BIN, model: CODEX_TEST_MODEL, permission_mode: 'bypassPermissions', stop_grace: '3s', ...config }),
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

const write = (file: string, text: string, id: string, before = '') => execCommand(`${before}mkdir -p ${path.dirname(file)} && printf '%s\\n' '${text}' > ${file}`, id);

describe('debussy run --agent codex', () => {
  it("restarts a session that crosses the context threshold, from a checkpoint; that session meets a usage limit (codex's five-hour window used up): its work is committed, debussy waits for the reset, resumes from a checkpoint and finishes the phase", async () => {
    let resetSeconds = 0;
    // Answered by what each request holds: a stop can leave a scripted reply unasked.
    const script = (req: RecordedResponsesRequest): ResponsesTurn => {
      const body = JSON.stringify(req.body);
      if (body.includes(CHECKPOINT_HEADING)) {
        if (body.includes('call_done')) return { kind: 'text', text: 'Done.' };
        // The restart's session writes d.txt, then meets the usage limit.
        if (body.includes('call_d') && resetSeconds === 0) {
          resetSeconds = Math.ceil(Date.now() / 1000) + 4;
          const headers = { 'x-codex-primary-used-percent': '100', 'x-codex-primary-window-minutes': '300', 'x-codex-primary-reset-at': String(resetSeconds), 'x-codex-secondary-used-percent': '40', 'x-codex-secondary-window-minutes': '10080', 'x-codex-secondary-reset-at': String(resetSeconds + 86_400) };
          return { kind: 'http_error', status: 429, type: 'usage_limit_reached', message: 'The usage limit has been reached', errorFields: { plan_type: 'plus', resets_at: resetSeconds }, headers };
        }
        return resetSeconds === 0 ? { kind: 'calls', calls: [write('d.txt', 'before the limit', 'call_d')] } : { kind: 'calls', calls: [execCommand('debussy done --phase 1', 'call_done')] };
      }
      // Offered after the crossing, after a model's time to first token (as claude's restart tests
      // give it): a stopped session never runs it. The next test answers at once while debussy is
      // starved: the guard, armed at the decision, refuses it.
      if (body.includes('call_b')) return { kind: 'calls', calls: [write('c.txt', 'after the crossing', 'call_c')], latencyMs: 1500 };
      // Its context is above 40% of codex's window (the threshold here): the session stops after its tool.
      if (body.includes('call_a')) return { kind: 'calls', calls: [write('b.txt', 'second', 'call_b')], usage: { input_tokens: 120_000 } };
      return { kind: 'calls', calls: [execCommand('debussy progress --phase 1 --message "wrote a.txt" && echo first > a.txt', 'call_a')] };
    };
    const server = await useScriptedResponses({ script });
    const home = await useCodexHome({ baseUrl: server.baseUrl });
    const dir = await project([{ id: '1', title: 'Two files', gates: [{ name: 'both', command: 'test -f a.txt && test -f b.txt && test -f d.txt' }] }], { context_threshold: 40, max_context_tokens: 0 });
    const result = await debussy(dir, ['run', 'plans/e2e/MASTER_PLAN.md', '--plain'], codexEnv(home));
    expect(result.status, result.stdout + result.stderr).toBe(0);
    const run = await latestRun(dir);
    const events = (await readJournal(path.join(run?.dir ?? '', 'journal.ndjson'))).events;
    expect(events.filter((e) => e.type === 'context_crossed')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'restart')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'session_started')).toHaveLength(3);
    // The second session began with the checkpoint: the first session's recorded progress and files.
    const checkpointed = server.responseRequests().filter((req) => JSON.stringify(req.body).includes(CHECKPOINT_HEADING) && !/call_d|call_done/.test(JSON.stringify(req.body)));
    const restarted = checkpointed[0];
    expect(JSON.stringify(restarted?.body)).toContain('wrote a.txt');
    expect(JSON.stringify(restarted?.body)).toContain('b.txt');
    // No tool ran after the crossing call's own.
    expect(existsSync(path.join(dir, 'c.txt'))).toBe(false);
    expect(JSON.stringify(server.responseRequests().map((req) => req.body))).not.toContain('"call_id":"call_c"');
    // The stop let the crossing call's own tool finish (b.txt) and both files went into the restart's checkpoint commit.
    const checkpoints = events.filter((e) => e.type === 'commit' && (e as { purpose: string }).purpose === 'checkpoint') as { sha: string }[];
    expect(checkpoints).toHaveLength(2);
    expect(await git(dir, 'log', '--format=%s', '-1', checkpoints[0]?.sha ?? '-')).toMatch(/^debussy: checkpoint phase 1 \(restart 1\/3, context \d+%\)/);
    expect((await git(dir, 'show', '--name-only', '--format=', checkpoints[0]?.sha ?? '-')).trim().split('\n').sort()).toEqual(['a.txt', 'b.txt']);

    // The usage limit: one wait, read from codex's rate-limit headers.
    const limits = events.filter((e) => e.type === 'usage_limit') as { stage: string; kind: string; source: string; resetAt?: number }[];
    expect(limits.map((e) => e.stage)).toEqual(['started', 'ended']);
    expect(limits[0]).toMatchObject({ kind: 'five_hour', source: 'rate_limit_event', resetAt: resetSeconds * 1000 });
    // No retry spent (and no second restart); the work before the limit was committed before the wait.
    expect(events.filter((e) => e.type === 'recovery')).toEqual([]);
    expect(events.filter((e) => e.type === 'attempt_started').map((e) => (e as { kind: string }).kind)).toEqual(['initial', 'restart', 'resume']);
    expect((await git(dir, 'show', '--name-only', '--format=', checkpoints[1]?.sha ?? '-')).trim()).toBe('d.txt');
    const resumedAt = checkpointed[1]?.receivedAt ?? 0;
    expect(resumedAt).toBeGreaterThanOrEqual(resetSeconds * 1000);
    expect(events.filter((e) => e.type === 'phase_ended')).toMatchObject([{ status: 'completed' }]);
  });
  it('a next response answered at once while debussy is starved: no tool runs after the crossing, the crossing call\'s own tools all do', async () => {
    // The crossing response holds a slow command and an apply_patch (codex runs the patch after the
    // command: its hook comes seconds after the crossing was decided). debussy is SIGSTOPped once
    // the stop is decided, so it cannot read codex's report that those tools are done; codex asks
    // again meanwhile and the scripted model answers at once with one more tool (call_c).
    let nextRequested: (() => void) | undefined;
    const nextRequest = new Promise<void>((resolve) => (nextRequested = resolve));
    const patch = '*** Begin Patch\n*** Add File: b2.txt\n+patched by the crossing call\n*** End Patch\n';
    const script = (req: RecordedResponsesRequest): ResponsesTurn => {
      const body = JSON.stringify(req.body);
      if (body.includes(CHECKPOINT_HEADING)) return body.includes('call_done') ? { kind: 'text', text: 'Done.' } : { kind: 'calls', calls: [execCommand('debussy done --phase 1', 'call_done')] };
      // Once codex has heard back about call_c (refused or run): held, the interrupt ends it.
      if (body.includes('"call_id":"call_c"')) return { kind: 'text', text: 'never read', latencyMs: 10_000 };
      if (body.includes('call_b2')) {
        nextRequested?.();
        return { kind: 'calls', calls: [write('c.txt', 'after the crossing', 'call_c')] };
      }
      if (body.includes('call_a')) return { kind: 'calls', calls: [write('b.txt', 'second', 'call_b', 'sleep 3 && '), applyPatch(patch, 'call_b2')], usage: { input_tokens: 120_000 } };
      return { kind: 'calls', calls: [execCommand('debussy progress --phase 1 --message "wrote a.txt" && echo first > a.txt', 'call_a')] };
    };
    const server = await useScriptedResponses({ script });
    const home = await useCodexHome({ baseUrl: server.baseUrl });
    const dir = await project([{ id: '1', title: 'Three files', gates: [{ name: 'all', command: 'test -f a.txt && test -f b.txt && test -f b2.txt' }] }], { context_threshold: 40, max_context_tokens: 0 });
    const child = spawn(process.execPath, [DEBUSSY_BIN, 'run', 'plans/e2e/MASTER_PLAN.md', '--plain'], { cwd: dir, env: { ...codexEnv(home), CI: 'true' }, stdio: ['ignore', 'pipe', 'pipe'] });
    onTestFinished(() => void child.kill('SIGCONT'));
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    const journalEvents = async () => {
      const run = await latestRun(dir);
      return run === undefined ? [] : (await readJournal(path.join(run.dir, 'journal.ndjson'))).events;
    };
    await waitFor('the stop to be decided', async () => (await journalEvents()).some((e) => e.type === 'stop_requested'), 60_000);
    // The decision and whatever it does happen in one synchronous step; give it a moment anyway.
    await new Promise((resolve) => setTimeout(resolve, 250));
    child.kill('SIGSTOP');
    const stoppedAt = Date.now();
    // The crossing call's command is still sleeping: debussy has not seen its tools done.
    expect(existsSync(path.join(dir, 'b.txt')), 'the crossing call\'s command had finished before debussy was stopped: the race was not run').toBe(false);
    await nextRequest;
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const resumedAt = Date.now();
    child.kill('SIGCONT');
    const code = await closed;
    // The race was run: codex asked for the next response while debussy was stopped.
    const next = server.responseRequests().find((req) => JSON.stringify(req.body).includes('call_b2') && !JSON.stringify(req.body).includes('"call_id":"call_c"'));
    expect(next?.receivedAt).toBeGreaterThan(stoppedAt);
    expect(next?.receivedAt).toBeLessThan(resumedAt);
    // No tool ran after the crossing: call_c was refused by the guard...
    expect(existsSync(path.join(dir, 'c.txt'))).toBe(false);
    const told = server.responseRequests().find((req) => JSON.stringify(req.body).includes('"call_id":"call_c"'));
    expect(toolOutputs(told!).find((o) => o.callId === 'call_c')?.output).toMatch(/^Command blocked by PreToolUse hook: debussy: this session is stopping/);
    // ...and the crossing call's own tools both ran, the patch whose hook came after the decision too.
    expect(existsSync(path.join(dir, 'b.txt'))).toBe(true);
    expect(existsSync(path.join(dir, 'b2.txt'))).toBe(true);
    expect(code, out).toBe(0);
    const events = await journalEvents();
    expect(events.filter((e) => e.type === 'restart')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'phase_ended')).toMatchObject([{ status: 'completed' }]);
  });
  it('a 429 past codex\'s own retries, then a context overflow: classified as for Claude Code, recovered, the phase completes', async () => {
    let limited = false;
    const script = (req: RecordedResponsesRequest): ResponsesTurn => {
      const body = JSON.stringify(req.body);
      if (body.includes(CHECKPOINT_HEADING)) return body.includes('call_done') ? { kind: 'text', text: 'Done.' } : { kind: 'calls', calls: [execCommand('debussy done --phase 1', 'call_done')] };
      if (body.includes('call_b')) return contextOverflowError();
      if (body.includes('call_a')) {
        if (!limited) {
          limited = true;
          return rateLimitError(1);
        }
        return { kind: 'calls', calls: [execCommand('debussy progress --phase 1 --message "wrote a.txt" && echo second > b.txt', 'call_b')] };
      }
      return { kind: 'calls', calls: [write('a.txt', 'first', 'call_a')] };
    };
    const server = await useScriptedResponses({ script });
    // No retries of codex's own: the 429 reaches debussy as a failed turn (codexErrorInfo responseTooManyFailedAttempts 429).
    const home = await useCodexHome({ baseUrl: server.baseUrl });
    const dir = await project([{ id: '1', title: 'Recovering', gates: [{ name: 'both', command: 'test -f a.txt && test -f b.txt' }] }], { backoff_base: '1s', backoff_max: '2s' });
    const result = await debussy(dir, ['run', 'plans/e2e/MASTER_PLAN.md', '--plain'], codexEnv(home));
    expect(result.status, result.stdout + result.stderr).toBe(0);
    const run = await latestRun(dir);
    const events = (await readJournal(path.join(run?.dir ?? '', 'journal.ndjson'))).events;
    const recoveries = events.filter((e) => e.type === 'recovery').map((e) => [(e as { failureClass?: string }).failureClass, (e as { action?: string }).action]);
    expect(recoveries[0]).toEqual(['rate_limit', 'resume']);
    expect(recoveries.at(-1)).toEqual(['context_overflow', 'condensed_session']);
    expect(events.filter((e) => e.type === 'phase_ended')).toMatchObject([{ status: 'completed' }]);
    // codex passes no retry-after on once its own retries (which honour it) are spent: debussy backs
    // off by backoff_base and resumes the same thread, using no retry.
    const limit = events.find((e) => e.type === 'recovery') as { delayMs?: number } | undefined;
    expect(limit?.delayMs ?? 0).toBeGreaterThan(0);
    const requests = server.responseRequests();
    const afterLimit = requests.findIndex((req) => JSON.stringify(req.body).includes('call_a'));
    expect(requests[afterLimit + 1]!.receivedAt - requests[afterLimit]!.receivedAt).toBeGreaterThanOrEqual(limit?.delayMs ?? 0);
    const fresh = requests.find((req) => JSON.stringify(req.body).includes(CHECKPOINT_HEADING));
    expect(JSON.stringify(fresh?.body)).toContain('wrote a.txt');
  });
  it('Ctrl-C during a codex tool: the work is committed, exit 130, nothing left running; debussy run resumes from a checkpoint, whose work is committed, the signal reaching the run and the gates deciding', async () => {
    const script = (req: RecordedResponsesRequest): ResponsesTurn => {
      const body = JSON.stringify(req.body);
      if (body.includes(CHECKPOINT_HEADING)) {
        if (body.includes('call_done')) return { kind: 'text', text: 'Phase 1 is done.' };
        if (body.includes('call_write')) return { kind: 'calls', calls: [execCommand('debussy done --phase 1', 'call_done')] };
        return { kind: 'calls', calls: [write('src/hello.txt', 'hello', 'call_write')], text: 'Writing the file.' };
      }
      if (body.includes('call_a')) return { kind: 'calls', calls: [execCommand('sleep 41.7', 'call_sleep')] };
      return { kind: 'calls', calls: [execCommand('debussy progress --phase 1 --message "wrote a.txt" && echo first > a.txt', 'call_a')] };
    };
    const server = await useScriptedResponses({ script });
    const home = await useCodexHome({ baseUrl: server.baseUrl });
    const dir = await project([{ id: '1', title: 'Interrupted', gates: [{ name: 'a', command: 'test -f a.txt' }, { name: 'hello', command: 'test -f src/hello.txt' }] }]);
    const child = spawn(process.execPath, [DEBUSSY_BIN, 'run', 'plans/e2e/MASTER_PLAN.md', '--plain'], { cwd: dir, env: { ...codexEnv(home), CI: 'true' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    await waitFor('codex to run its sleep', () => livePids(/^sleep 41\.7$/).length > 0);
    child.kill('SIGINT');
    expect(await closed, out).toBe(130);
    expect(livePids(/^sleep 41\.7$/)).toEqual([]);
    expect(await git(dir, 'log', '--format=%s', '-1')).toMatch(/interrupted/);
    expect((await git(dir, 'show', '--name-only', '--format=', 'HEAD')).trim()).toBe('a.txt');

    const resumed = await debussy(dir, ['run', 'plans/e2e/MASTER_PLAN.md', '--plain'], codexEnv(home));
    expect(resumed.stderr + resumed.stdout).not.toMatch(/\n\s+at .*\.js:\d+/);
    expect(resumed.status, resumed.stdout + resumed.stderr).toBe(0);
    const fresh = server.responseRequests().find((req) => JSON.stringify(req.body).includes(CHECKPOINT_HEADING));
    expect(JSON.stringify(fresh?.body)).toContain('wrote a.txt');
    const run = await latestRun(dir);
    const events = (await readJournal(path.join(run?.dir ?? '', 'journal.ndjson'))).events;
    // The resumed session's `debussy done` (the run's shim, answered by its inbox) reached the run; the gates decided.
    expect(events.filter((e) => e.type === 'signal')).toEqual([expect.objectContaining({ phaseId: '1', status: 'completed' })]);
    expect(events.filter((e) => e.type === 'gate_result')).toEqual([expect.objectContaining({ name: 'a', passed: true }), expect.objectContaining({ name: 'hello', passed: true })]);
    expect(events.filter((e) => e.type === 'phase_ended')).toMatchObject([{ status: 'completed' }]);
    const ended = events.find((e) => e.type === 'session_ended');
    expect(ended).toMatchObject({ outcome: 'completed' });
    // codex reports no cost: debussy prices its calls with OpenAI's list prices.
    expect((ended as { costUsd?: number } | undefined)?.costUsd ?? 0).toBeGreaterThan(0);
    expect(await git(dir, 'log', '--format=%s', '-1')).toContain('phase 1');
    expect((await git(dir, 'show', '--name-only', '--format=', 'HEAD')).trim()).toBe('src/hello.txt');
  });
});
