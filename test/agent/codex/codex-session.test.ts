/**
 * debussy's codex session runner driving the real codex (0.171.0, app-server) against the scripted
 * Responses server: a short session to its end, a graceful stop at a usage event, an immediate
 * stop during a tool, and a resume of the saved thread.
 */
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { AgentEvent } from '../../../src/agent/agent-events.js';
import type { AgentSession } from '../../../src/agent/agent-session.js';
import { startCodexSession, type CodexSessionOptions } from '../../../src/agent/codex/codex-session.js';
import { CODEX_BIN, CODEX_TEST_MODEL, codexEnv } from '../../support/codex.js';
import { useCodexHome, useScriptedResponses } from '../../support/codex-per-test.js';
import { useTempGitRepo } from '../../support/per-test.js';
import { findDescendants, isAlive } from '../../support/process-tree.js';
import { execCommand, inputItems, toolOutputs, userTexts, type ResponsesTurn } from '../../support/scripted-responses.js';

const ofType = <T extends AgentEvent['type']>(events: AgentEvent[], type: T) => events.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type);

/** A `debussy` on PATH, as the orchestrator's shim is, that says it was reached. */
async function shimDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'debussy-shim-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 'debussy'), '#!/bin/sh\necho "shim reached: $*"\n');
  await chmod(join(dir, 'debussy'), 0o755);
  return dir;
}

async function session(script: ResponsesTurn[], options: Partial<CodexSessionOptions> & { home?: string; onSession?: (s: AgentSession, event: AgentEvent) => void } = {}) {
  const server = await useScriptedResponses({ script });
  const home = options.home ?? (await useCodexHome({ baseUrl: server.baseUrl }));
  const cwd = await useTempGitRepo();
  const shim = await shimDir();
  const env = codexEnv(home);
  const events: AgentEvent[] = [];
  const holder: { agent?: AgentSession } = {};
  const agent = startCodexSession({
    launch: { command: CODEX_BIN, model: CODEX_TEST_MODEL, permissionMode: 'bypassPermissions' },
    cwd,
    env: { ...env, PATH: `${shim}:${env.PATH ?? ''}` },
    prompt: 'Do the task',
    stopGraceMs: 3_000,
    ...options,
    onEvent: (event) => {
      events.push(event);
      options.onEvent?.(event);
      if (holder.agent !== undefined) options.onSession?.(holder.agent, event);
    },
  });
  holder.agent = agent;
  const end = await agent.ended;
  return { server, home, cwd, agent, end, events };
}

describe('codex session through app-server', () => {
  it('runs a turn to its end: text, a tool (the debussy shim reached on PATH), usage per call with the window, a clean exit', async () => {
    const started = Date.now();
    const { server, end, events, home } = await session([
      {
        kind: 'calls',
        calls: [
          execCommand('debussy progress "step one"', 'call_plain'),
          // `login` left out, as models mostly do: codex's default is a login shell.
          { name: 'exec_command', arguments: { cmd: 'debussy done' }, callId: 'call_default' },
          execCommand('debussy status', 'call_login', { login: true }),
        ],
        text: 'Reporting progress.',
      },
      { kind: 'text', text: 'All done.' },
    ]);
    expect(end).toMatchObject({ outcome: 'completed', exitCode: 0, signal: null, sawResult: true, stopRequested: false, unparsedLines: 0, leftoverProcessesKilled: 0 });
    expect(end.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(events[0]).toMatchObject({ type: 'init', sessionId: end.sessionId, model: CODEX_TEST_MODEL, version: '0.171.0' });
    // One usage per API call, its context the request's input_tokens.
    const usage = ofType(events, 'usage');
    expect(usage).toHaveLength(2);
    expect(usage.map((u) => u.contextTokens)).toEqual(server.responseRequests().map((r) => r.trueTokens));
    expect(ofType(events, 'assistant_text').map((e) => e.text)).toEqual(['Reporting progress.', 'All done.']);
    // A login shell reads /etc/profile, which resets PATH and hides the shim: debussy turns login
    // shells off (allow_login_shell=false); codex then refuses an explicit login: true (no item).
    expect(ofType(events, 'tool_start').map((e) => e.summary).sort()).toEqual(['Bash: debussy done', 'Bash: debussy progress "step one"']);
    expect(ofType(events, 'tool_result').map((r) => r.text.trim()).sort()).toEqual(['shim reached: done', 'shim reached: progress step one']);
    expect(toolOutputs(server.responseRequests()[1]!).find((o) => o.callId === 'call_login')?.output).toBe('login shell is disabled by config; omit `login` or set it to false.');
    expect(end.result).toMatchObject({ subtype: 'success', isError: false, numTurns: 2, contextWindow: 258_400, text: 'All done.' });
    expect(end.streamTokens.input).toBe(end.result?.inputTokens);
    expect(home).toBeTruthy();
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it('stops gracefully at a usage event: the running tool finishes, no later tool runs, the turn is interrupted, codex exits 0', async () => {
    let stopped = false;
    const { server, end, events, cwd } = await session(
      [
        { kind: 'calls', calls: [execCommand('sleep 1.5; echo slept > slept.txt; echo slept', 'call_sleep')] },
        { kind: 'calls', calls: [execCommand('echo later > later.txt', 'call_later')] },
        { kind: 'text', text: 'never' },
      ],
      {
        onSession: (agent, event) => {
          if (!stopped && event.type === 'usage') {
            stopped = true;
            agent.requestStop('context threshold');
          }
        },
      },
    );
    expect(stopped).toBe(true);
    expect(existsSync(join(cwd, 'slept.txt'))).toBe(true);
    expect(existsSync(join(cwd, 'later.txt'))).toBe(false);
    expect(ofType(events, 'tool_result')).toEqual([{ type: 'tool_result', toolUseId: 'call_sleep', isError: false, text: 'slept\n' }]);
    expect(end).toMatchObject({ outcome: 'stopped', exitCode: 0, stopRequested: true, stopReason: 'context threshold', sawResult: true });
    expect(end.result).toMatchObject({ subtype: 'interrupted', isError: true });
    // At most the request after the tool went out; it ran nothing. The scripted model answers at
    // once, so under load its response can complete before the interrupt lands (1 CI run in 5,
    // 2026-11-27): then its usage is reported, and counted, too, and its tool is refused above.
    expect(server.responseRequests().length).toBeLessThanOrEqual(2);
    expect(ofType(events, 'usage').length).toBeLessThanOrEqual(server.responseRequests().length);
    expect(ofType(events, 'usage').length).toBeGreaterThanOrEqual(1);
  });

  it('stops at once during a tool when asked to (immediate): the turn is interrupted and the tool killed', async () => {
    let agentRef: AgentSession | undefined;
    let sleepPid: number | undefined;
    const { end, events } = await session([{ kind: 'calls', calls: [execCommand('sleep 30', 'call_long')] }, { kind: 'text', text: 'never' }], {
      onSession: (agent) => {
        agentRef = agent;
      },
      onEvent: (event) => {
        if (event.type !== 'tool_start' || agentRef === undefined) return;
        const agent = agentRef;
        void (async () => {
          const deadline = Date.now() + 10_000;
          while (sleepPid === undefined && Date.now() < deadline) {
            [sleepPid] = await findDescendants(agent.pid, /^sleep 30$/);
            if (sleepPid === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
          }
          agent.requestStop('interrupted by the user', { immediate: true });
        })();
      },
    });
    expect(sleepPid).toBeDefined();
    expect(await isAlive(sleepPid!)).toBe(false);
    expect(end).toMatchObject({ outcome: 'stopped', exitCode: 0 });
    expect(end.durationMs).toBeLessThan(20_000);
    expect(ofType(events, 'tool_result')).toEqual([]);
  });

  it('resumes the saved thread: the history is sent again, only the new call counts', async () => {
    const first = await session([{ kind: 'text', text: 'first answer' }]);
    const threadId = first.end.sessionId!;
    const second = await useScriptedResponses({ script: [{ kind: 'text', text: 'second answer' }] });
    // The same CODEX_HOME (where codex saved the thread), pointed at a new server.
    const { writeFile: write, readFile } = await import('node:fs/promises');
    const config = join(first.home, 'config.toml');
    await write(config, (await readFile(config, 'utf8')).replace(first.server.baseUrl, second.baseUrl));
    const events: AgentEvent[] = [];
    const env = codexEnv(first.home);
    const agent = startCodexSession({ launch: { command: CODEX_BIN, permissionMode: 'bypassPermissions' }, cwd: first.cwd, env, prompt: 'Continue', resumeThreadId: threadId, onEvent: (e) => events.push(e) });
    const end = await agent.ended;
    expect(end).toMatchObject({ outcome: 'completed', exitCode: 0, sessionId: threadId });
    expect(ofType(events, 'usage')).toHaveLength(1);
    const [request] = second.responseRequests();
    expect(userTexts(request!)).toContain('Continue');
    expect(JSON.stringify(inputItems(request!))).toContain('first answer');
    expect(end.result).toMatchObject({ subtype: 'success', text: 'second answer', contextWindow: 258_400 });
  });

  it('fails to start with one clear error when the codex command is missing', async () => {
    const cwd = await useTempGitRepo();
    const agent = startCodexSession({ launch: { command: 'codex-not-installed-here' }, cwd, env: { PATH: '/usr/bin:/bin' }, prompt: 'x' });
    await expect(agent.ended).rejects.toMatchObject({ code: 'E_AGENT_NOT_FOUND', message: 'The codex command "codex-not-installed-here" was not found or is not executable.' });
  });
});
