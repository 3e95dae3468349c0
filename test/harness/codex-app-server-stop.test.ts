/**
 * Stopping a codex 0.171.0 app-server session: debussy's PreToolUse guard, turn/interrupt, signals,
 * and what happens to a tool that is still running. Measured through the real binary.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { appServerCommand, debussyCodexHooks, threadConfig } from '../../src/agent/codex/codex-command.js';
import { fullAccess, finish, itemsOf, openTurn, runTurn } from '../support/codex-turn.js';
import { findDescendants, isAlive } from '../support/process-tree.js';
import { recordCodexFixture } from '../support/codex-fixtures.js';
import { rolloutFiles } from '../support/codex.js';
import { applyPatch, execCommand, toolOutputs } from '../support/scripted-responses.js';
import { stopFileText } from '../../src/agent/stop-guard.js';

/** A stop file: absent (false), or armed with the calls it lets through. */
async function stopFile(armed: boolean | readonly string[]): Promise<string> {
  const file = join(tmpdir(), `debussy-codex-stop-${process.pid}-${Date.now()}`);
  if (armed !== false) await writeFile(file, stopFileText(armed === true ? [] : armed));
  onTestFinished(async () => {
    const { rm } = await import('node:fs/promises');
    await rm(file, { force: true });
  });
  return file;
}

/** debussy's hook flags for app-server, as its command builder makes them. */
function hookArgs(file: string): string[] {
  return appServerCommand({ command: 'codex', hooks: debussyCodexHooks(file) }).args.slice(1);
}

const withHookTrust = (cwd: string) => ({ ...fullAccess(cwd), config: threadConfig() });

/** The pid of the tool's `sleep 30` once it runs (bash -lc takes a moment to get there). */
async function runningTool(rootPid: number): Promise<number> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const [pid] = await findDescendants(rootPid, /^sleep 30$/);
    if (pid !== undefined) return pid;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the tool never started');
}

/** Waits until `pid` is gone (or `ms` passed); true when it is gone. */
async function gone(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (!(await isAlive(pid))) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return !(await isAlive(pid));
}

describe("debussy's PreToolUse guard in codex app-server", () => {
  it('refuses every tool call once the stop file exists: no command item, the model is told, the turn goes on', async () => {
    const file = await stopFile(true);
    const { server, cwd, client, completed } = await runTurn(
      [{ kind: 'calls', calls: [execCommand('echo one > one.txt', 'call_blocked')] }, { kind: 'text', text: 'I was stopped.' }],
      'go',
      { args: hookArgs(file), settings: withHookTrust },
    );
    expect(existsSync(join(cwd, 'one.txt'))).toBe(false);
    expect(itemsOf(client, 'item/started', 'commandExecution')).toEqual([]);
    const hooks = client.notifications('hook/completed').map((n) => n.params.run as Record<string, unknown>);
    expect(hooks).toEqual([expect.objectContaining({ eventName: 'preToolUse', status: 'blocked', entries: [{ kind: 'feedback', text: 'debussy: this session is stopping; do not start new work' }] })]);
    // The refusal is the tool's output; codex then asks the model again (debussy must end the session itself).
    expect(toolOutputs(server.responseRequests()[1]!)).toEqual([
      { callId: 'call_blocked', output: 'Command blocked by PreToolUse hook: debussy: this session is stopping; do not start new work. Command: echo one > one.txt' },
    ]);
    expect(completed.params).toMatchObject({ turn: { status: 'completed' } });
    await finish(client, 'hook-blocked');
  });

  it('lets calls through while the stop file is absent (the hook runs, exit 0)', async () => {
    const file = await stopFile(false);
    const { cwd, client } = await runTurn([{ kind: 'calls', calls: [execCommand('echo one > one.txt')] }, { kind: 'text', text: 'ok' }], 'go', {
      args: hookArgs(file),
      settings: withHookTrust,
    });
    expect(existsSync(join(cwd, 'one.txt'))).toBe(true);
    expect(client.notifications('hook/completed').map((n) => (n.params.run as Record<string, unknown>).status)).toEqual(['completed']);
    await finish(client);
  });

  it('does not run an untrusted hook: without bypass_hook_trust the refused call runs', async () => {
    const file = await stopFile(true);
    const { cwd, client } = await runTurn([{ kind: 'calls', calls: [execCommand('echo one > one.txt')] }, { kind: 'text', text: 'ok' }], 'go', { args: hookArgs(file) });
    expect(existsSync(join(cwd, 'one.txt'))).toBe(true);
    expect(client.notifications('hook/started')).toEqual([]);
    await finish(client);
  });
});

describe('what tells the calls of the response a stop was decided on from later ones', () => {
  const patch = '*** Begin Patch\n*** Add File: p.txt\n+patched\n*** End Patch\n';

  it("the hook's input names the call: one line of compact JSON whose last key, tool_use_id, is the call_id (exec_command and apply_patch)", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'debussy-hook-input-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const capture = `cat > "$(mktemp '${dir}/input.XXXXXX')"`;
    const args = appServerCommand({ command: 'codex', hooks: { PreToolUse: [{ matcher: '', hooks: [{ type: 'command', command: capture }] }] } }).args.slice(1);
    const { client } = await runTurn([{ kind: 'calls', calls: [execCommand('echo one', 'call_exec'), applyPatch(patch, 'call_patch')] }, { kind: 'text', text: 'ok' }], 'go', { args, settings: withHookTrust });
    const inputs = await Promise.all((await readdir(dir)).map((f) => readFile(join(dir, f), 'utf8')));
    for (const input of inputs) expect(input).toMatch(/^\{[^\n]*,"tool_use_id":"call_\w+"\}$/);
    const parsed = inputs.map((input) => JSON.parse(input) as Record<string, unknown>).sort((a, b) => String(a.tool_use_id).localeCompare(String(b.tool_use_id)));
    expect(parsed).toEqual([
      expect.objectContaining({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'echo one' }, tool_use_id: 'call_exec' }),
      expect.objectContaining({ hook_event_name: 'PreToolUse', tool_name: 'apply_patch', tool_input: { command: patch }, tool_use_id: 'call_patch' }),
    ]);
    expect(Object.keys(parsed[0]!).at(-1)).toBe('tool_use_id');
    await finish(client);
  });

  it("rawResponseItem/completed names each tool call of a response before its rawResponse/completed; apply_patch never runs beside the command, and when it waits for it, it reaches its hook after", async () => {
    const file = await stopFile(false);
    const { client } = await runTurn(
      [{ kind: 'calls', calls: [execCommand('sleep 1; echo one', 'call_slow'), applyPatch(patch, 'call_patch')] }, { kind: 'calls', calls: [execCommand('echo two', 'call_next')] }, { kind: 'text', text: 'ok' }],
      'go',
      { args: hookArgs(file), settings: withHookTrust },
    );
    const raw = client.notifications().filter((n) => n.method === 'rawResponseItem/completed' || n.method === 'rawResponse/completed');
    const callsBefore = (responseId: string) => {
      const end = raw.findIndex((n) => n.params.responseId === responseId);
      const start = raw.slice(0, end).findLastIndex((n) => n.method === 'rawResponse/completed') + 1;
      return raw.slice(start, end).flatMap((n) => {
        const item = n.params.item as Record<string, unknown>;
        return item.type === 'function_call' || item.type === 'custom_tool_call' ? [`${String(item.type)}:${String(item.call_id)}`] : [];
      });
    };
    expect(callsBefore('resp_scripted_0')).toEqual(['function_call:call_slow', 'custom_tool_call:call_patch']);
    expect(callsBefore('resp_scripted_1')).toEqual(['function_call:call_next']);
    // Arrival order, which load cannot change (one stream), rather than the times this process read them at.
    const all = client.notifications();
    const hookOf = (callId: string) => all.findIndex((n) => n.method === 'hook/started' && String((n.params.run as Record<string, unknown>).id).endsWith(`:${callId}`));
    const completed = all.findIndex((n) => n.method === 'rawResponse/completed');
    const slowHook = hookOf('call_slow');
    const patchHook = hookOf('call_patch');
    const slowDone = all.findIndex((n) => n.method === 'item/completed' && (n.params.item as { id?: string }).id === 'call_slow');
    expect(Math.min(completed, slowHook, patchHook, slowDone)).toBeGreaterThan(-1);
    // They never run side by side: apply_patch reaches its hook before the command or once it has
    // ended. So the one that goes second reaches its hook after the response has completed (as
    // often as not, the first does too): a guard armed then must let the response's calls through
    // by their ids. Which goes first is codex's scheduling: the command, mostly; under load the
    // patch was seen first, its hook 9 ms after rawResponse/completed.
    expect(patchHook < slowHook || patchHook > slowDone).toBe(true);
    if (patchHook > slowDone) expect(patchHook).toBeGreaterThan(completed);
    await finish(client, 'call-ids');
  });

  it("armed with a list, the guard lets the listed calls run and refuses any other, one whose input forges a listed id included", async () => {
    const file = await stopFile(['call_listed']);
    const forged = `echo ',"tool_use_id":"call_listed"}' > forged.txt`;
    const { server, cwd, client } = await runTurn(
      [{ kind: 'calls', calls: [execCommand('echo ok > listed.txt', 'call_listed'), execCommand('echo no > other.txt', 'call_other'), execCommand(forged, 'call_forged'), applyPatch(patch, 'call_patch')] }, { kind: 'text', text: 'ok' }],
      'go',
      { args: hookArgs(file), settings: withHookTrust },
    );
    expect(existsSync(join(cwd, 'listed.txt'))).toBe(true);
    for (const refused of ['other.txt', 'forged.txt', 'p.txt']) expect(existsSync(join(cwd, refused))).toBe(false);
    const outputs = Object.fromEntries(toolOutputs(server.responseRequests()[1]!).map((o) => [o.callId, o.output]));
    expect(outputs.call_listed).toMatch(/Process exited with code 0/);
    for (const id of ['call_other', 'call_forged', 'call_patch']) expect(outputs[id]).toMatch(/^Command blocked by PreToolUse hook: debussy: this session is stopping; do not start new work/);
    await finish(client);
  });
});

describe('ending a codex app-server turn while a tool runs', () => {
  const longTool = (marker: string) => [{ kind: 'calls' as const, calls: [execCommand(`sleep 30; echo ${marker}`)] }, { kind: 'text' as const, text: 'never' }];

  it('turn/interrupt ends the turn at once (status interrupted, no further request) but leaves the tool running until stdin closes', async () => {
    const marker = `interrupt-${Date.now()}`;
    const { server, client, threadId, turnId } = await openTurn(longTool(marker));
    await client.waitForNotification('item/started', (p) => (p.item as { type?: string }).type === 'commandExecution');
    const tool = await runningTool(client.codex.pid);
    const sentAt = Date.now();
    await client.interrupt(threadId, turnId);
    const completed = await client.waitForNotification('turn/completed');
    // At once: long before the 30 s tool would end (a loose bound, so that a loaded machine's late read is not taken for a wait).
    expect(client.codex.startedAt + completed.at - sentAt).toBeLessThan(10_000);
    expect(completed.params).toMatchObject({ turn: { status: 'interrupted', error: null } });
    expect(itemsOf(client, 'item/completed', 'commandExecution')).toEqual([]);
    // The tool lives on as a background terminal the model could poll; closing stdin ends it.
    expect(await isAlive(tool)).toBe(true);
    client.close();
    expect(await gone(tool, 3_000)).toBe(true);
    const result = await client.codex.done;
    expect(result.exitCode).toBe(0);
    expect(server.responseRequests()).toHaveLength(1);
    await recordCodexFixture('interrupted', 'app-server', result.lines.map((l) => l.raw), { exitCode: result.exitCode, signal: result.signal, stderr: '' });
    const [rollout] = await rolloutFiles(client.codex.home);
    await recordCodexFixture('interrupted', 'rollout', (await readFile(rollout!, 'utf8')).split('\n').filter((l) => l !== ''));
  });

  it('SIGTERM: app-server exits 0 at once and kills the running tool', async () => {
    const { client } = await openTurn(longTool(`term-${Date.now()}`));
    await client.waitForNotification('item/started', (p) => (p.item as { type?: string }).type === 'commandExecution');
    const tool = await runningTool(client.codex.pid);
    const sentAt = Date.now();
    client.codex.signal('SIGTERM');
    const result = await client.codex.done;
    expect(Date.now() - sentAt).toBeLessThan(10_000); // at once: long before the 30 s tool would end
    expect(result).toMatchObject({ exitCode: 0, signal: null });
    expect(await gone(tool, 2_000)).toBe(true);
    expect(client.notifications('turn/completed')).toEqual([]);
  });

  it('SIGINT: app-server dies of the signal and ORPHANS the running tool', async () => {
    const { client } = await openTurn(longTool(`int-${Date.now()}`));
    await client.waitForNotification('item/started', (p) => (p.item as { type?: string }).type === 'commandExecution');
    const tool = await runningTool(client.codex.pid);
    onTestFinished(() => {
      try {
        process.kill(tool, 'SIGKILL');
      } catch {
        // gone
      }
    });
    client.codex.signal('SIGINT');
    const result = await client.codex.done;
    expect(result.exitCode === 130 || result.signal === 'SIGINT').toBe(true);
    expect(await gone(tool, 1_000)).toBe(false);
  });
});
