/** The stop guards' sh commands, run by a real `sh` with a hook's input on stdin, as an agent runs them. */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { geminiToolFingerprint, isGeminiToolFingerprint } from '../../src/agent/gemini/gemini-stop.js';
import { createStopGuard, stopFileText, stopGuardByCallCommand, stopGuardEndCommand } from '../../src/agent/stop-guard.js';

const dir = mkdtempSync(path.join(tmpdir(), "debussy-guard 'test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function runGuard(command: string, input: string, shell = 'sh'): { status: number | null; stderr: string; stdout: string } {
  const result = spawnSync(shell, ['-c', command], { input, encoding: 'utf8' });
  return { status: result.status, stderr: result.stderr, stdout: result.stdout };
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

/** gemini 0.61.0's BeforeTool input (measured: test/harness/gemini-stop.test.ts), tool_input last. */
const geminiInput = (toolName: string, toolInput: unknown, after: Record<string, unknown> = {}) =>
  JSON.stringify({ session_id: 's', transcript_path: '/t/chats/x.jsonl', cwd: '/w', hook_event_name: 'BeforeTool', timestamp: '2026-11-27T12:00:00.000Z', tool_name: toolName, tool_input: toolInput, ...after });

// dash is Debian's sh; bash is macOS's.
describe.each(['sh', 'bash'])('stopGuardEndCommand (gemini), run by %s', (shell) => {
  const file = path.join(dir, `stop-end-${shell}`);
  const command = stopGuardEndCommand(file);
  const refused = (input: string) => runGuard(command, input, shell).stdout.includes('"continue":false');
  const listed = { command: "printf '%s\\n' \"a \\\"q\\\"\" > x.txt; echo é/<>&*?[" };
  const arm = (entries: string[]) => {
    rmSync(`${file}.d`, { recursive: true, force: true });
    writeFileSync(file, stopFileText(entries, isGeminiToolFingerprint));
    mkdirSync(`${file}.d`); // made by createStopGuard's arm: here by hand
  };

  it('lets every call through while the stop file is absent', () => {
    rmSync(file, { force: true });
    expect(refused(geminiInput('run_shell_command', { command: 'ls' }))).toBe(false);
  });

  it.each<[string, string]>([
    ['a call not listed', geminiInput('run_shell_command', { command: 'ls' })],
    ['the listed input under another tool name', geminiInput('write_file', listed)],
    ['the listed input with a key more', geminiInput('run_shell_command', { ...listed, dir_path: '.' })],
    ['the listed input, then a key gemini adds for MCP tools', geminiInput('run_shell_command', listed, { mcp_context: { server: 'x' } })],
    ['the listed ending forged inside a string', geminiInput('run_shell_command', { command: `echo '${geminiToolFingerprint('run_shell_command', listed)}'` })],
    ['no input at all', ''],
  ])('armed: %s is refused', (_name, input) => {
    arm([geminiToolFingerprint('run_shell_command', listed)]);
    expect(refused(input)).toBe(true);
  });

  it('lets a listed call through once per line: the same call again is refused', () => {
    arm([geminiToolFingerprint('run_shell_command', listed), geminiToolFingerprint('run_shell_command', { command: 'ls' }), geminiToolFingerprint('run_shell_command', listed)]);
    const input = geminiInput('run_shell_command', listed);
    expect([refused(input), refused(input), refused(input)]).toEqual([false, false, true]);
    expect(refused(geminiInput('run_shell_command', { command: 'ls' }))).toBe(false);
  });

  it('an empty list refuses every call', () => {
    arm([]);
    expect(refused(geminiInput('run_shell_command', { command: 'ls' }))).toBe(true);
  });
});

describe('stopFileText', () => {
  it("keeps gemini's fingerprints, one a line, never an empty line", () => {
    const fingerprint = geminiToolFingerprint('run_shell_command', { command: 'a\nb' });
    expect(stopFileText([fingerprint, '', 'call_a', 'x\ny'], isGeminiToolFingerprint)).toBe(`${fingerprint}\n`);
  });

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
