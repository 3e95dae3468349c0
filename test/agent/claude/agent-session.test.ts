/**
 * The runner against stand-in commands (small shell scripts that print stream-json and react to
 * signals): process handling, logs, outcomes and stopping, without the real CLI. The real CLI is
 * exercised in agent-session.claude.test.ts.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startAgentSession, type AgentEvent, type AgentSessionOptions } from '../../../src/agent/index.js';
import { AgentProcessError } from '../../../src/errors/index.js';
import { isProcessAlive } from '../../../src/process/identity.js';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'debussy-session-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const line = (value: unknown) => JSON.stringify(value);
const INIT = line({ type: 'system', subtype: 'init', session_id: 's1', model: 'claude-sonnet-4-5', cwd: '/w', tools: ['Bash'] });
const TOOL_USE = line({
  type: 'assistant',
  message: { id: 'm1', model: 'claude-sonnet-4-5', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'make' } }], usage: { input_tokens: 10 } },
});
const TOOL_RESULT = line({ type: 'user', message: { content: [{ type: 'tool_result', tool_use_id: 't1', content: 'built' }] } });
const RESULT_OK = line({ type: 'result', subtype: 'success', is_error: false, result: 'done', session_id: 's1', total_cost_usd: 0.01, usage: { input_tokens: 5, output_tokens: 2 }, terminal_reason: 'completed' });
const RESULT_ABORTED = line({ type: 'result', subtype: 'error_during_execution', is_error: true, terminal_reason: 'aborted_tools', usage: {} });

/** A stand-in for claude: a shell script; `$DIR` is the test's temp dir. */
function fakeClaude(body: string): string {
  const file = path.join(dir, `fake-${Math.random().toString(36).slice(2)}.sh`);
  writeFileSync(file, `#!/bin/sh\nDIR='${dir}'\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

/** A shell word that prints `text` as one line. */
const say = (text: string) => `printf '%s\\n' '${text.replace(/'/g, "'\\''")}'`;

function options(command: string, extra: Partial<AgentSessionOptions> = {}): AgentSessionOptions {
  return { command, args: [], cwd: dir, env: { PATH: process.env.PATH }, prompt: 'do the work', stopGuard: false, stopGraceMs: 1_000, ...extra };
}

async function collect(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const all: AgentEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

describe('startAgentSession with a stand-in command', () => {
  it('passes the prompt on stdin, parses the stream, logs it, and completes', async () => {
    const command = fakeClaude(`cat > "$DIR/prompt.txt"\n${say(INIT)}\n${say('not json at all')}\n${say(TOOL_USE)}\n${say(TOOL_RESULT)}\n${say(RESULT_OK)}`);
    const onEvent: AgentEvent[] = [];
    const session = startAgentSession(
      options(command, { rawLogPath: path.join(dir, 'logs', 'raw.ndjson'), readableLogPath: path.join(dir, 'logs', 'session.log'), onEvent: (e) => onEvent.push(e) }),
    );
    expect(session.pid).toBeGreaterThan(0);
    const events = await collect(session.events());
    const end = await session.ended;
    expect(readFileSync(path.join(dir, 'prompt.txt'), 'utf8')).toBe('do the work');
    expect(events.map((e) => e.type)).toEqual(['init', 'unparsed_line', 'usage', 'tool_start', 'tool_result', 'result']);
    expect(onEvent).toEqual(events);
    expect(end).toMatchObject({ outcome: 'completed', exitCode: 0, signal: null, sawResult: true, stopRequested: false, unparsedLines: 1, leftoverProcessesKilled: 0 });
    expect(end.result).toMatchObject({ text: 'done', costUsd: 0.01 });
    expect(readFileSync(path.join(dir, 'logs', 'raw.ndjson'), 'utf8')).toBe([INIT, 'not json at all', TOOL_USE, TOOL_RESULT, RESULT_OK, ''].join('\n'));
    const readable = readFileSync(path.join(dir, 'logs', 'session.log'), 'utf8');
    expect(readable).toContain('tool Bash: make (t1)');
    expect(readable).toContain('unparsed line 2 (not-json)');
    expect(readable).toContain('session ended: completed');
  });

  it('writes the raw log as received where redaction changes nothing, redacted where it does', async () => {
    const secretLine = line({ type: 'user', message: { content: [{ type: 'tool_result', tool_use_id: 't1', content: 'export API_TOKEN=abc123def456 ok' }] } });
    const accented = line({ type: 'system', subtype: 'status', note: 'héllo 😀' });
    // A long line reaches debussy in several pipe reads; a CRLF line is logged without its CR.
    const long = line({ type: 'system', subtype: 'status', note: 'x'.repeat(200_000) });
    writeFileSync(path.join(dir, 'stream.ndjson'), `${INIT}\n${secretLine}\n${accented}\r\n${long}\n${RESULT_OK}\n`);
    const rawLogPath = path.join(dir, 'logs', 'raw.ndjson');
    const redact = (text: string) => text.replace(/abc123def456/g, '[REDACTED]');
    const session = startAgentSession(options(fakeClaude('cat "$DIR/stream.ndjson"'), { rawLogPath, redact }));
    await collect(session.events());
    await session.ended;
    expect(readFileSync(rawLogPath, 'utf8')).toBe(`${[INIT, secretLine.replace('abc123def456', '[REDACTED]'), accented, long, RESULT_OK].join('\n')}\n`);
  });

  it('reads the stream to its end: a result is not the last line', async () => {
    const late = line({ type: 'system', subtype: 'task_notification', status: 'completed' });
    const command = fakeClaude(`${say(INIT)}\n${say(RESULT_OK)}\n${say(late)}\n${say('{"type":"surprise"}')}`);
    const session = startAgentSession(options(command));
    const events = await collect(session.events());
    expect(events.map((e) => e.type)).toEqual(['init', 'result', 'unparsed_line']);
    expect((await session.ended).outcome).toBe('completed');
  });

  it('exit code 0 without a result line is a crash', async () => {
    const session = startAgentSession(options(fakeClaude(`${say(INIT)}\nexit 0`)));
    expect(await session.ended).toMatchObject({ outcome: 'crashed', exitCode: 0, sawResult: false });
  });

  it('an API error result is api_error, whatever the exit code', async () => {
    const synthetic = line({ type: 'assistant', message: { id: 'x', model: '<synthetic>', content: [{ type: 'text', text: 'API Error: 529 overloaded' }] }, error: 'server_error' });
    const result = line({ type: 'result', subtype: 'success', is_error: true, api_error_status: 529, result: 'API Error: 529 overloaded' });
    const session = startAgentSession(options(fakeClaude(`${say(INIT)}\n${say(synthetic)}\n${say(result)}\nexit 1`)));
    expect(await session.ended).toMatchObject({ outcome: 'api_error', exitCode: 1, lastApiError: { type: 'api_error', errorType: 'server_error', text: 'API Error: 529 overloaded' } });
  });

  it('keeps the stderr tail', async () => {
    const session = startAgentSession(options(fakeClaude(`echo "Error: something broke" >&2\nexit 3`)));
    expect(await session.ended).toMatchObject({ outcome: 'crashed', exitCode: 3, stderrTail: 'Error: something broke\n' });
  });

  it('handles a line of several megabytes as it streams', async () => {
    const big = 'z'.repeat(3_000_000);
    writeFileSync(path.join(dir, 'big.ndjson'), `${INIT}\n${line({ type: 'user', message: { content: [{ type: 'tool_result', tool_use_id: 't', content: big }] } })}\n${RESULT_OK}\n`);
    const session = startAgentSession(options(fakeClaude('cat "$DIR/big.ndjson"')));
    const events = await collect(session.events());
    const result = events.find((e) => e.type === 'tool_result');
    expect(result?.type === 'tool_result' && result.text.length).toBe(3_000_000);
    expect((await session.ended).outcome).toBe('completed');
  });

  it('a missing command is a clear prerequisite error from ended and from events()', async () => {
    const session = startAgentSession(options('definitely-not-a-claude-binary'));
    expect(session.pid).toBe(0);
    const error = await session.ended.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AgentProcessError);
    expect(error).toMatchObject({ code: 'E_AGENT_NOT_FOUND', exitKind: 'prerequisites' });
    expect((error as AgentProcessError).message).toContain('definitely-not-a-claude-binary');
    await expect(collect(session.events())).rejects.toMatchObject({ code: 'E_AGENT_NOT_FOUND' });
  });

  it('a file that is not executable is reported as not found too; so is a missing cwd', async () => {
    const file = path.join(dir, 'not-executable');
    writeFileSync(file, 'echo hi');
    await expect(startAgentSession(options(file)).ended).rejects.toMatchObject({ code: 'E_AGENT_NOT_FOUND' });
    await expect(startAgentSession(options('sh', { cwd: path.join(dir, 'nope') })).ended).rejects.toMatchObject({ code: 'E_AGENT_CWD' });
  });

  it("adds debussy's hooks as --settings, merged into a --settings the args already carry", async () => {
    const command = fakeClaude(`for a in "$@"; do printf '%s\\n' "$a"; done > "$DIR/args.txt"\n${say(RESULT_OK)}`);
    const argsOf = async (args: string[]) => {
      await startAgentSession(options(command, { args, stopGuard: true })).ended;
      return readFileSync(path.join(dir, 'args.txt'), 'utf8').trim().split('\n');
    };
    const guarded = await argsOf(['-p']);
    expect(guarded.slice(0, 2)).toEqual(['-p', '--settings']);
    expect(JSON.parse(guarded[2] ?? '{}')).toMatchObject({ hooks: { PreToolUse: [{ matcher: '*', hooks: [{ type: 'command' }] }], PreCompact: [{ hooks: [{ type: 'command' }] }] } });
    const merged = await argsOf(['-p', '--settings', '{"model":"opus","hooks":{"Stop":[{"hooks":[]}]}}']);
    expect(merged.slice(0, 2)).toEqual(['-p', '--settings']);
    expect(merged).toHaveLength(3);
    expect(JSON.parse(merged[2] ?? '{}')).toMatchObject({ model: 'opus', hooks: { Stop: [{ hooks: [] }], PreToolUse: [{ matcher: '*' }], PreCompact: [{}] } });
  });
});

describe('the agent process', () => {
  it('runs in a process group of its own, with exactly the environment it is given', async () => {
    // A Ctrl-C on the terminal must reach debussy, which stops the session in order, not claude.
    const command = fakeClaude(`ps -o pgid= -p $$ | tr -d ' ' > "$DIR/pgid.txt"\nprintf '%s' "$DEBUSSY_OWNER|$HOME" > "$DIR/env.txt"\n${say(RESULT_OK)}`);
    const session = startAgentSession(options(command, { env: { PATH: process.env.PATH, DEBUSSY_OWNER: '4242-77' } }));
    await collect(session.events());
    await session.ended;
    expect(readFileSync(path.join(dir, 'pgid.txt'), 'utf8').trim()).toBe(String(session.pid));
    expect(session.pid).not.toBe(process.pid);
    expect(readFileSync(path.join(dir, 'env.txt'), 'utf8')).toBe('4242-77|');
  });
});

describe('stopping and killing', () => {
  // Traps run only between commands: `sleep & wait` keeps the script responsive to signals.
  const idle = 'while :; do sleep 1 & wait $!; done';

  it('requestStop with no tool running: SIGINT now, the aborted turn ends as stopped', async () => {
    const command = fakeClaude(`trap '${say(RESULT_ABORTED).replace(/'/g, "'\\''")}; exit 0' INT\n${say(INIT)}\n${idle}`);
    const session = startAgentSession(options(command));
    for await (const event of session.events()) if (event.type === 'init') session.requestStop('context at 81%');
    expect(await session.ended).toMatchObject({ outcome: 'stopped', stopRequested: true, stopReason: 'context at 81%', sawResult: true, exitCode: 0 });
  });

  it('requestStop while a tool runs: waits for its result, then stops before anything else', async () => {
    // The script reports which phase it was in when the SIGINT came.
    const command = fakeClaude(
      [
        `trap 'echo "$phase" > "$DIR/interrupted-in"; exit 0' INT`,
        'phase=before-tool',
        say(INIT),
        say(TOOL_USE),
        'phase=tool-running',
        'sleep 1 & wait $!',
        'phase=after-result',
        say(TOOL_RESULT),
        idle,
      ].join('\n'),
    );
    const session = startAgentSession(options(command));
    for await (const event of session.events()) if (event.type === 'tool_start') session.requestStop('limit');
    const end = await session.ended;
    expect(readFileSync(path.join(dir, 'interrupted-in'), 'utf8').trim()).toBe('after-result');
    expect(end).toMatchObject({ outcome: 'stopped', sawResult: false, stopRequested: true });
  });

  it('a stop decided on an event of an earlier turn does not wait for the tools of a later one', async () => {
    const requesting = line({ type: 'system', subtype: 'status', status: 'requesting' });
    const secondTool = TOOL_USE.replace(/"m1"/g, '"m2"').replace(/"t1"/g, '"t2"');
    const secondResult = TOOL_RESULT.replace(/"t1"/g, '"t2"');
    const command = fakeClaude(
      [
        `trap 'echo "$phase" > "$DIR/interrupted-in"; exit 0' INT`,
        'phase=first-turn',
        say(INIT),
        say(TOOL_USE),
        say(TOOL_RESULT),
        say(requesting),
        say(secondTool),
        'phase=second-tool-running',
        'sleep 2 & wait $!',
        'phase=second-tool-done',
        say(secondResult),
        idle,
      ].join('\n'),
    );
    const session = startAgentSession(options(command));
    let waited = false;
    for await (const event of session.events()) {
      if (!waited) {
        // A consumer that falls behind: the stream has reached the second turn meanwhile.
        await new Promise((resolve) => setTimeout(resolve, 500));
        waited = true;
      }
      if (event.type === 'usage' && event.messageId === 'm1') session.requestStop('limit seen late');
    }
    await session.ended;
    expect(readFileSync(path.join(dir, 'interrupted-in'), 'utf8').trim()).toBe('second-tool-running');
  });

  it('escalates to SIGTERM and SIGKILL when SIGINT is ignored', async () => {
    const command = fakeClaude(`trap '' INT TERM\n${say(INIT)}\n${idle}`);
    const session = startAgentSession(options(command, { stopGraceMs: 300 }));
    for await (const event of session.events()) if (event.type === 'init') session.requestStop('limit');
    expect(await session.ended).toMatchObject({ outcome: 'stopped', signal: 'SIGKILL' });
  });

  it('arms the stop guard when it stops, and removes its file afterwards', async () => {
    const stopFile = `${tmpdir()}/debussy-stop-$DEBUSSY_SESSION_MARKER`;
    const command = fakeClaude(
      `trap 'if test -e "${stopFile}"; then echo armed; else echo unarmed; fi > "$DIR/armed"; echo "${stopFile}" > "$DIR/stop-file"; exit 0' INT\n${say(INIT)}\n${idle}`,
    );
    const session = startAgentSession(options(command, { stopGuard: true }));
    for await (const event of session.events()) if (event.type === 'init') session.requestStop('limit');
    await session.ended;
    expect(readFileSync(path.join(dir, 'armed'), 'utf8').trim()).toBe('armed');
    expect(existsSync(readFileSync(path.join(dir, 'stop-file'), 'utf8').trim())).toBe(false);
  });

  it.each<[string, string, string]>([
    ['a Bash tool: its id alone is let through, before the tool is done', 'Bash', 't1\n'],
    ['a subagent (Task), whose own calls must run: not armed until the turn is done', 'Task', 'absent'],
  ])('a stop decided while the turn runs %s', async (_name, tool, during) => {
    const stopFile = `${tmpdir()}/debussy-stop-$DEBUSSY_SESSION_MARKER`;
    const command = fakeClaude(
      [
        `trap 'exit 0' INT`,
        say(INIT),
        say(TOOL_USE.replace('"Bash"', JSON.stringify(tool))),
        // The tool runs: what the guard would answer a call now.
        'sleep 1 & wait $!',
        `if test -e "${stopFile}"; then cat "${stopFile}"; else echo absent; fi > "$DIR/during"`,
        say(TOOL_RESULT),
        idle,
      ].join('\n'),
    );
    const session = startAgentSession(options(command, { stopGuard: true }));
    for await (const event of session.events()) if (event.type === 'tool_start') session.requestStop('limit');
    expect(await session.ended).toMatchObject({ outcome: 'stopped' });
    expect(readFileSync(path.join(dir, 'during'), 'utf8').replace(/^absent\n$/, 'absent')).toBe(during);
  });

  it('kill() ends claude at once and every process it left, even one in its own session', async () => {
    const command = fakeClaude(`setsid sleep 60 &\necho $! > "$DIR/orphan"\n${say(INIT)}\n${idle}`);
    const session = startAgentSession(options(command));
    for await (const event of session.events()) if (event.type === 'init') break;
    const orphan = Number(readFileSync(path.join(dir, 'orphan'), 'utf8'));
    expect(isProcessAlive(orphan)).toBe(true);
    await session.kill('test says so');
    const end = await session.ended;
    expect(end).toMatchObject({ outcome: 'killed', signal: 'SIGKILL' });
    expect(end.leftoverProcessesKilled).toBeGreaterThanOrEqual(1);
    expect(isProcessAlive(orphan)).toBe(false);
  });

  it('after a normal end, a background process the session left is terminated', async () => {
    const command = fakeClaude(`setsid sleep 60 &\necho $! > "$DIR/orphan"\n${say(INIT)}\n${say(RESULT_OK)}`);
    const session = startAgentSession(options(command));
    const end = await session.ended;
    const orphan = Number(readFileSync(path.join(dir, 'orphan'), 'utf8'));
    expect(end).toMatchObject({ outcome: 'completed', leftoverProcessesKilled: 1 });
    expect(isProcessAlive(orphan)).toBe(false);
  });

  it('requestStop after the end does nothing', async () => {
    const session = startAgentSession(options(fakeClaude(say(RESULT_OK))));
    const end = await session.ended;
    session.requestStop('late');
    await session.kill('late');
    expect(end).toMatchObject({ outcome: 'completed', stopRequested: false });
  });
});

describe('flow', () => {
  it('a slow consumer gets every event, in order (the reader waits for it)', async () => {
    const lines = Array.from({ length: 3_000 }, (_, i) => line({ type: 'system', subtype: 'api_retry', attempt: i, max_retries: 3_000, retry_delay_ms: 0, error_status: 529 }));
    writeFileSync(path.join(dir, 'many.ndjson'), `${lines.join('\n')}\n${RESULT_OK}\n`);
    const session = startAgentSession(options(fakeClaude('cat "$DIR/many.ndjson"')));
    const attempts: number[] = [];
    for await (const event of session.events()) {
      if (event.type === 'api_retry') attempts.push(event.attempt);
      if (attempts.length % 500 === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(attempts).toEqual(Array.from({ length: 3_000 }, (_, i) => i));
    expect((await session.ended).outcome).toBe('completed');
  });

  it('a consumer that stops pulling does not keep kill() from ending the session', async () => {
    const lines = Array.from({ length: 3_000 }, (_, i) => line({ type: 'system', subtype: 'status', status: 'requesting', n: i }));
    writeFileSync(path.join(dir, 'many.ndjson'), `${lines.join('\n')}\n`);
    const session = startAgentSession(options(fakeClaude(`cat "$DIR/many.ndjson"\nwhile :; do sleep 1 & wait $!; done`)));
    const events = session.events()[Symbol.asyncIterator]();
    await events.next(); // then never again
    await session.kill('the consumer is stuck');
    expect((await session.ended).outcome).toBe('killed');
  });
});
