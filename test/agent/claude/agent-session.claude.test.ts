/**
 * The runner with the real claude CLI against the scripted Messages API: what it reports, how it
 * stops, and that it leaves no process behind.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildClaudeArgs, startAgentSession, type AgentEvent, type AgentSession, type AgentSessionOptions } from '../../../src/agent/index.js';
import { stopGuardSettings } from '../../../src/agent/claude/session-settings.js';
import { ContextMonitor, type ContextCrossing } from '../../../src/context/index.js';
import { isProcessAlive, processStartTime } from '../../../src/process/identity.js';
import { CLAUDE_BIN, claudeEnv, makeClaudeConfigDir } from '../../support/claude.js';
import { startScriptedApi, type ScriptedApi, type ScriptedTurn } from '../../support/scripted-api.js';
import { pidIn, until } from '../../e2e/processes.js';

let workDir: string;
let config: { dir: string; cleanup(): Promise<void> };
let api: ScriptedApi | undefined;
const sessions: AgentSession[] = [];

beforeEach(async () => {
  workDir = mkdtempSync(path.join(tmpdir(), 'debussy-agent-e2e-'));
  config = await makeClaudeConfigDir();
});

afterEach(async () => {
  for (const session of sessions.splice(0)) await session.kill('test cleanup');
  await api?.close();
  api = undefined;
  await config.cleanup();
  rmSync(workDir, { recursive: true, force: true });
});

async function start(script: ScriptedTurn[], extra: Partial<AgentSessionOptions> = {}): Promise<AgentSession> {
  api = await startScriptedApi({ script });
  const session = startAgentSession({
    command: CLAUDE_BIN,
    args: buildClaudeArgs({ model: 'claude-sonnet-4-5', extraArgs: ['--dangerously-skip-permissions'] }),
    cwd: workDir,
    env: claudeEnv(api.url, config.dir),
    prompt: 'Do the scripted work.',
    rawLogPath: path.join(workDir, '.logs', 'raw.ndjson'),
    readableLogPath: path.join(workDir, '.logs', 'session.log'),
    stopGraceMs: 3_000,
    ...extra,
  });
  sessions.push(session);
  return session;
}

const bash = (command: string, more: Partial<Extract<ScriptedTurn, { kind: 'tool_use' }>> = {}): ScriptedTurn => ({
  kind: 'tool_use',
  name: 'Bash',
  input: { command, description: 'scripted step' },
  ...more,
});


describe('an agent session with the real claude CLI', () => {
  it('runs a Bash tool and reports the events in order, to the end', async () => {
    const session = await start([bash('echo hello from the tool > out.txt && cat out.txt', { text: 'Writing the file.' }), { kind: 'text', text: 'All done.' }]);
    const events: AgentEvent[] = [];
    for await (const event of session.events()) events.push(event);
    const end = await session.ended;

    expect(end).toMatchObject({ outcome: 'completed', exitCode: 0, sawResult: true, unparsedLines: 0, leftoverProcessesKilled: 0 });
    expect(readFileSync(path.join(workDir, 'out.txt'), 'utf8')).toBe('hello from the tool\n');
    const order = events.map((e) => e.type);
    // output_usage: the response's final output_tokens (its message_delta), after its blocks.
    expect(order).toEqual(['init', 'request_started', 'usage', 'assistant_text', 'tool_start', 'output_usage', 'tool_result', 'request_started', 'usage', 'assistant_text', 'output_usage', 'result']);
    expect(events[0]).toMatchObject({ type: 'init', model: expect.stringMatching(/sonnet/) as string, cwd: workDir, version: expect.any(String) as string });
    expect(events.find((e) => e.type === 'tool_start')).toMatchObject({ name: 'Bash', summary: 'Bash: echo hello from the tool > out.txt && cat out.txt' });
    expect(events.find((e) => e.type === 'tool_result')).toMatchObject({ isError: false, text: 'hello from the tool' });
    // The usage the CLI reported is what the scripted server computed for each request.
    const reported = events.flatMap((e) => (e.type === 'usage' ? [e.contextTokens] : []));
    expect(reported).toEqual(api?.mainRequests().map((r) => r.trueTokens));
    expect(end.result).toMatchObject({ subtype: 'success', isError: false, terminalReason: 'completed', contextWindow: 200_000, numTurns: 2 });
    expect(readFileSync(path.join(workDir, '.logs', 'raw.ndjson'), 'utf8').split('\n').filter(Boolean).length).toBeGreaterThan(order.length);
    expect(readFileSync(path.join(workDir, '.logs', 'session.log'), 'utf8')).toContain('session ended: completed');
  });

  it('an immediate stop during a Bash `sleep 30` kills it: no sleep left, the session ends stopped', async () => {
    const pidFile = path.join(workDir, 'sleep.pid');
    const session = await start([bash(`sh -c 'echo $$ > ${pidFile}; exec sleep 30'`), { kind: 'text', text: 'never reached' }]);
    const consumed = (async () => {
      for await (const event of session.events()) void event;
    })();
    const sleeper = await until(() => pidIn(pidFile), 'the sleep to start');
    const startTime = processStartTime(sleeper);
    expect(isProcessAlive(sleeper, startTime)).toBe(true);
    session.requestStop('interrupted by the user', { immediate: true });
    const end = await session.ended;
    await consumed;
    expect(end).toMatchObject({ outcome: 'stopped', stopRequested: true, stopReason: 'interrupted by the user' });
    expect(isProcessAlive(sleeper, startTime)).toBe(false);
    expect(api?.mainRequests()).toHaveLength(1);
  });

  it('a graceful stop lets the running tool finish, then no further model response completes', async () => {
    const session = await start([bash('sleep 2; echo first > first.txt'), bash('echo second > second.txt', { latencyMs: 1_500 }), { kind: 'text', text: 'x' }]);
    const events: AgentEvent[] = [];
    for await (const event of session.events()) {
      events.push(event);
      if (event.type === 'tool_start') session.requestStop('context limit');
    }
    const end = await session.ended;
    expect(end.outcome).toBe('stopped');
    expect(readFileSync(path.join(workDir, 'first.txt'), 'utf8')).toBe('first\n');
    expect(events.find((e) => e.type === 'tool_result')).toMatchObject({ isError: false });
    expect(existsSync(path.join(workDir, 'second.txt'))).toBe(false);
    const later = api?.mainRequests().slice(1) ?? [];
    expect(later.every((r) => r.aborted)).toBe(true);
  });

  describe('a stop decided by the context monitor on a crossing mid-turn', () => {
    // Turn 1 reports 170,000 of sonnet's 200,000 tokens (85% > 80%) and asks for a tool: that tool
    // runs, and then the session must stop before the model's next turn.
    const crossingScript = (nextLatencyMs: number): ScriptedTurn[] => [
      bash('echo crossing-turn > crossing.txt', { usage: { input_tokens: 170_000 } }),
      bash('echo after-crossing > after.txt', { latencyMs: nextLatencyMs }),
      bash('echo later > later.txt'),
      { kind: 'text', text: 'done' },
    ];

    async function runWithMonitor(session: AgentSession): Promise<{ events: AgentEvent[]; crossings: ContextCrossing[] }> {
      const crossings: ContextCrossing[] = [];
      const monitor = new ContextMonitor({
        thresholdPercent: 80,
        toolCallThreshold: 100,
        onLimit: (crossing) => {
          crossings.push(crossing);
          session.requestStop(`context at ${crossing.percent.toFixed(1)}%`);
        },
      });
      const events: AgentEvent[] = [];
      for await (const event of session.events()) {
        events.push(event);
        monitor.observe(event);
      }
      return { events, crossings };
    }

    it.each([
      ['with API latency: the next request is aborted in flight', 1_500],
      ['with an instant API: the next response may arrive, but its tool is blocked', 0],
    ])('%s', async (_name, latencyMs) => {
      const session = await start(crossingScript(latencyMs));
      const { events, crossings } = await runWithMonitor(session);
      const end = await session.ended;

      expect(crossings).toHaveLength(1);
      expect(crossings[0]).toMatchObject({ trigger: 'context', reportedTokens: 170_000, contextWindow: 200_000 });
      expect(end).toMatchObject({ outcome: 'stopped', stopRequested: true });
      // The crossing turn's tool ran; nothing after it did.
      expect(readFileSync(path.join(workDir, 'crossing.txt'), 'utf8')).toBe('crossing-turn\n');
      expect(existsSync(path.join(workDir, 'after.txt'))).toBe(false);
      expect(existsSync(path.join(workDir, 'later.txt'))).toBe(false);
      const main = api?.mainRequests() ?? [];
      expect(main.length).toBeLessThanOrEqual(2);
      if (latencyMs > 0) expect(main.slice(1).every((r) => r.aborted)).toBe(true);
      const successfulResults = events.filter((e) => e.type === 'tool_result' && !e.isError);
      expect(successfulResults).toHaveLength(1);
    });
  });

  it('claude SIGKILLed mid-tool leaves no orphan once the session has ended', async () => {
    const pidFile = path.join(workDir, 'orphan.pid');
    const session = await start([bash(`sh -c 'echo $$ > ${pidFile}; exec sleep 30'`)]);
    const consumed = (async () => {
      for await (const event of session.events()) void event;
    })();
    const sleeper = await until(() => pidIn(pidFile), 'the tool to start');
    const startTime = processStartTime(sleeper);
    // As an OOM killer or a user would: claude dies at once, its tool shell is orphaned.
    process.kill(session.pid, 'SIGKILL');
    const end = await session.ended;
    await consumed;
    expect(end).toMatchObject({ outcome: 'crashed', signal: 'SIGKILL', sawResult: false });
    expect(end.leftoverProcessesKilled).toBeGreaterThanOrEqual(1);
    expect(isProcessAlive(sleeper, startTime)).toBe(false);
  });

  it('kill() mid-tool ends claude and its tool processes', async () => {
    const pidFile = path.join(workDir, 'tool.pid');
    const session = await start([bash(`sh -c 'echo $$ > ${pidFile}; exec sleep 30'`)]);
    const sleeper = await until(() => pidIn(pidFile), 'the tool to start');
    const startTime = processStartTime(sleeper);
    await session.kill('watchdog');
    const end = await session.ended;
    expect(end).toMatchObject({ outcome: 'killed', signal: 'SIGKILL' });
    expect(isProcessAlive(sleeper, startTime)).toBe(false);
  });

  it.each([
    ['armed: the tool is refused and the model is told why', true],
    ['not armed: the tool runs', false],
  ])('the stop guard hook, %s', async (_name, armed) => {
    const stopFile = path.join(workDir, 'stop-now');
    if (armed) writeFileSync(stopFile, '');
    const args = buildClaudeArgs({ model: 'claude-sonnet-4-5', extraArgs: ['--dangerously-skip-permissions', '--settings', stopGuardSettings(stopFile)] });
    const session = await start([bash('echo ran > ran.txt'), { kind: 'text', text: 'ok' }], { args });
    const events: AgentEvent[] = [];
    for await (const event of session.events()) events.push(event);
    expect((await session.ended).outcome).toBe('completed');
    expect(existsSync(path.join(workDir, 'ran.txt'))).toBe(!armed);
    const result = events.find((e) => e.type === 'tool_result');
    expect(result).toMatchObject({ isError: armed });
    if (armed) expect(result?.type === 'tool_result' && result.text).toContain('this session is stopping');
  });

  it('a missing claude command is a clear prerequisite error', async () => {
    const session = startAgentSession({ command: path.join(workDir, 'no-claude-here'), args: buildClaudeArgs({ extraArgs: [] }), cwd: workDir, env: {}, prompt: 'x' });
    await expect(session.ended).rejects.toMatchObject({ code: 'E_AGENT_NOT_FOUND', exitKind: 'prerequisites', hint: expect.stringContaining('claude') as string });
  });
});
