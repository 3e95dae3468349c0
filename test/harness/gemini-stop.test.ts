/**
 * How the real gemini 0.61.0 stops, and debussy's session stopping it: the BeforeTool hook's
 * {"continue": false} ends the run with a result and runs no tool; debussy's graceful stop lets the
 * stop call's tool finish and runs nothing after it; its immediate stop (a SIGTERM) ends gemini at
 * once without a result, gemini leaves the running shell behind, and the session ends that.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { AgentEvent } from '../../src/agent/agent-events.js';
import { debussyGeminiHooks } from '../../src/agent/gemini/gemini-launch.js';
import { geminiToolFingerprint, isGeminiToolFingerprint } from '../../src/agent/gemini/gemini-stop.js';
import { createStopGuard } from '../../src/agent/stop-guard.js';
import { startGeminiSession } from '../../src/agent/gemini/gemini-session.js';
import { isProcessAlive } from '../../src/process/identity.js';
import { GEMINI_BIN, GEMINI_TEST_MODEL, geminiEnv, runGemini, useGeminiHome, useScriptedGemini } from '../support/gemini.js';
import { shellCall, writeFileCall } from '../support/scripted-gemini.js';

function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'debussy-gemini-cwd-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function waitFor(check: () => boolean, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!check() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
}

describe('stopping gemini 0.61.0', () => {
  it('a BeforeTool hook answering {"continue": false} runs no tool and ends the run with a success result', async () => {
    const cwd = tempDir();
    const stopFile = path.join(cwd, 'stop');
    writeFileSync(stopFile, '');
    const server = await useScriptedGemini({ script: [{ kind: 'calls', calls: [shellCall('touch ran.txt', 'c1'), shellCall('touch ran2.txt', 'c2')] }, { kind: 'text', text: 'never asked' }] });
    const home = useGeminiHome({ hooks: debussyGeminiHooks(stopFile) });
    const run = await runGemini({ cwd, env: geminiEnv(home, server), prompt: 'go' });
    expect(run.exitCode).toBe(0);
    expect(existsSync(path.join(cwd, 'ran.txt')) || existsSync(path.join(cwd, 'ran2.txt'))).toBe(false);
    expect(run.lines.filter((l) => l.value.type === 'tool_result').map((l) => l.value.error)).toEqual([expect.objectContaining({ type: 'stop_execution' }), expect.objectContaining({ type: 'stop_execution' })]);
    expect(run.lines.at(-1)?.value).toMatchObject({ type: 'result', status: 'success' });
    expect(server.modelRequests()).toHaveLength(1);
  });
});

describe("debussy's BeforeTool guard once armed, with gemini 0.61.0", () => {
  it('lets through the calls it lists, by the input the stream printed, each once, and ends the run at any other', async () => {
    const cwd = tempDir();
    // The same command twice: the stop call's, then a later call's; and a write_file with characters JSON escapes.
    const again = "printf '%s\\n' \"once\" >> count.txt";
    const content = 'a "quoted" line\nand é, / <>&';
    const guard = createStopGuard(`gemini-guard-${path.basename(cwd)}`, isGeminiToolFingerprint);
    onTestFinished(() => guard.dispose());
    guard.arm([geminiToolFingerprint('run_shell_command', { command: again }), geminiToolFingerprint('write_file', { file_path: 'b2.txt', content })]);
    const server = await useScriptedGemini({
      script: [
        { kind: 'calls', calls: [shellCall(again, 'c1'), writeFileCall('b2.txt', content, 'c2')] },
        { kind: 'calls', calls: [shellCall(again, 'c3')] },
        { kind: 'text', text: 'never asked' },
      ],
    });
    const home = useGeminiHome({ hooks: debussyGeminiHooks(guard.stopFile) });
    const run = await runGemini({ cwd, env: geminiEnv(home, server), prompt: 'go' });
    expect(run.exitCode).toBe(0);
    // The listed calls ran, as the stream printed their input; the later identical one did not.
    const printed = run.lines.filter((l) => l.value.type === 'tool_use').map((l) => geminiToolFingerprint(String(l.value.tool_name), l.value.parameters));
    expect(printed.slice(0, 2)).toEqual(readFileSync(guard.stopFile, 'utf8').trim().split('\n'));
    expect(readFileSync(path.join(cwd, 'count.txt'), 'utf8')).toBe('once\n');
    expect(readFileSync(path.join(cwd, 'b2.txt'), 'utf8')).toBe(content);
    expect(run.lines.filter((l) => l.value.type === 'tool_result').map((l) => (l.value.error as { type?: string } | undefined)?.type)).toEqual([undefined, undefined, 'stop_execution']);
    expect(run.lines.at(-1)?.value).toMatchObject({ type: 'result', status: 'success' });
    expect(server.modelRequests()).toHaveLength(2);
  });
});

describe("debussy's gemini session", () => {
  function start(cwd: string, env: Record<string, string>, onEvent: (event: AgentEvent) => void) {
    return startGeminiSession({ command: GEMINI_BIN, cwd, env, prompt: 'go', model: GEMINI_TEST_MODEL, permissionMode: 'bypassPermissions', stopGraceMs: 2_000, onEvent });
  }

  it("stops gracefully: the stop call's tool finishes, nothing after it runs, the session ends stopped", async () => {
    const cwd = tempDir();
    const server = await useScriptedGemini({
      script: [
        { kind: 'calls', calls: [shellCall('sleep 1; touch b.txt', 'c1')] },
        { kind: 'calls', calls: [shellCall('touch c.txt', 'c2')] },
        { kind: 'text', text: 'never' },
      ],
    });
    const home = useGeminiHome();
    const session = start(cwd, geminiEnv(home, server), (event) => {
      if (event.type === 'usage') session.requestStop('context threshold');
    });
    const end = await session.ended;
    expect(end.outcome).toBe('stopped');
    expect(existsSync(path.join(cwd, 'b.txt'))).toBe(true);
    expect(existsSync(path.join(cwd, 'c.txt'))).toBe(false);
    expect(end.sessionId).toMatch(/^[0-9a-f-]{36}$/);
  });

  // debussy's immediate stop is a SIGTERM to gemini's process group: gemini ends at once (exit 0)
  // without a result and leaves its running shell behind (a group of its own), which the session ends.
  it('stops at once on an interrupt: gemini exits 0 on the SIGTERM without a result, leaving its running shell, which debussy ends', async () => {
    const cwd = tempDir();
    const server = await useScriptedGemini({ script: [{ kind: 'calls', calls: [shellCall('echo $$ > shell.pid; sleep 20', 'c1')] }] });
    const home = useGeminiHome();
    const session = start(cwd, geminiEnv(home, server), (event) => {
      if (event.type === 'tool_start') void waitFor(() => existsSync(path.join(cwd, 'shell.pid'))).then(() => session.requestStop('interrupt', { immediate: true }));
    });
    const end = await session.ended;
    expect(end.outcome).toBe('stopped');
    expect(end).toMatchObject({ exitCode: 0, signal: null, sawResult: false });
    // Alive after gemini exited: only the session's shell (and its sleep) can be.
    expect(end.leftoverProcessesKilled).toBeGreaterThanOrEqual(1);
    expect(isProcessAlive(Number(readFileSync(path.join(cwd, 'shell.pid'), 'utf8')))).toBe(false);
  });
});
