/** The stop guards' sh commands, run by a real `sh` with a hook's input on stdin, as an agent runs them. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createStopGuard, stopFileText, stopGuardByCallCommand } from '../../src/agent/stop-guard.js';

const dir = mkdtempSync(path.join(tmpdir(), "debussy-guard 'test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function runGuard(command: string, input: string): { status: number | null; stderr: string } {
  const result = spawnSync('sh', ['-c', command], { input, encoding: 'utf8' });
  return { status: result.status, stderr: result.stderr };
}

/** codex 0.171.0's PreToolUse input (measured: test/harness/codex-app-server-stop.test.ts), tool_use_id last. */
const hookInput = (toolInput: unknown, toolUseId: unknown) =>
  JSON.stringify({ session_id: 's', turn_id: 't', cwd: '/w', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: toolInput, tool_use_id: toolUseId });

describe('stopGuardByCallCommand', () => {
  const file = path.join(dir, 'stop');
  const command = stopGuardByCallCommand(file);

  it('lets every call through while the stop file is absent', () => {
    rmSync(file, { force: true });
    expect(runGuard(command, hookInput({ command: 'ls' }, 'call_any')).status).toBe(0);
    expect(runGuard(command, '').status).toBe(0);
  });

  it.each<[string, string, number]>([
    ['a listed call', hookInput({ command: 'ls' }, 'call_listed'), 0],
    ['the other listed call, input ending in a newline', `${hookInput({ command: 'ls' }, 'call_x.1:2-3')}\n`, 0],
    ['a call not listed', hookInput({ command: 'ls' }, 'call_other'), 2],
    ['a prefix of a listed id', hookInput({ command: 'ls' }, 'call_list'), 2],
    ['a listed id as a prefix', hookInput({ command: 'ls' }, 'call_listed2'), 2],
    ['a listed id forged in the command text', hookInput({ command: 'echo \',"tool_use_id":"call_listed"}\'' }, 'call_other'), 2],
    ["a listed id as a key of the tool's input, the real id after it", hookInput({ tool_use_id: 'call_listed' }, 'call_other'), 2],
    ["a listed id only in the tool's input", JSON.stringify({ tool_name: 'mcp__x', tool_input: { tool_use_id: 'call_listed' } }), 2],
    ['an id with characters a stop file never lists', hookInput({}, 'call listed'), 2],
    ['no tool_use_id', JSON.stringify({ tool_name: 'Bash', tool_input: {} }), 2],
    ['tool_use_id null', hookInput({}, null), 2],
    ['an input that is not JSON', 'call_listed', 2],
    ['no input at all', '', 2],
  ])('armed: %s -> exit %i', (_name, input, status) => {
    writeFileSync(file, stopFileText(['call_listed', 'call_x.1:2-3']));
    const result = runGuard(command, input);
    expect(result.status).toBe(status);
    expect(result.stderr).toBe(status === 2 ? 'debussy: this session is stopping; do not start new work\n' : '');
  });

  it('an empty list refuses every call', () => {
    writeFileSync(file, stopFileText([]));
    expect(runGuard(command, hookInput({}, 'call_listed')).status).toBe(2);
  });
});

describe('stopFileText', () => {
  it('lists only the ids a hook can match safely, one a line', () => {
    expect(stopFileText(['call_a', 'fc-1.2:3', 'has space', 'new\nline', '', 'quote"', 'star*', '-dash'])).toBe('call_a\nfc-1.2:3\n-dash\n');
  });
});

describe('createStopGuard', () => {
  it('arm writes the list (replacing the last one whole) and dispose removes it', () => {
    const guard = createStopGuard(`test-${process.pid}-${Date.now()}`);
    const command = stopGuardByCallCommand(guard.stopFile);
    guard.arm(['call_a', 'call_b']);
    expect(runGuard(command, hookInput({}, 'call_b')).status).toBe(0);
    guard.arm([]);
    expect(runGuard(command, hookInput({}, 'call_b')).status).toBe(2);
    guard.arm();
    expect(runGuard(command, hookInput({}, 'call_a')).status).toBe(2);
    guard.dispose();
    expect(runGuard(command, hookInput({}, 'call_z')).status).toBe(0);
  });
});
