import { describe, expect, it } from 'vitest';
import { appServerCommand, codexPermissions, configFlags, debussyCodexHooks, threadSettings, tomlString, tomlValue } from '../../../src/agent/codex/codex-command.js';
import { stopGuardByCallCommand } from '../../../src/agent/stop-guard.js';
import {
  answerServerRequest,
  classifyMessage,
  codexVersionOf,
  encodeMessage,
  initializeRequest,
  threadOfResponse,
  threadResumeRequest,
  threadStartRequest,
  turnIdOfResponse,
  turnInterruptRequest,
  turnStartRequest,
} from '../../../src/agent/codex/app-server-protocol.js';

describe('TOML for `codex -c key=value`', () => {
  it.each([
    ['plain', '"plain"'],
    ['say "hi"', '"say \\"hi\\""'],
    ['back\\slash', '"back\\\\slash"'],
    ['two\nlines\ttab', '"two\\nlines\\ttab"'],
    ['bell\u0007', '"bell\\u0007"'],
    ["it's", '"it\'s"'],
  ])('tomlString(%j) = %s', (text, toml) => {
    expect(tomlString(text)).toBe(toml);
  });

  it('writes numbers, booleans, arrays and inline tables; quotes keys that are not bare', () => {
    expect(tomlValue([{ matcher: '', hooks: [{ type: 'command', command: 'exit 0' }] }])).toBe('[{matcher="",hooks=[{type="command",command="exit 0"}]}]');
    expect(tomlValue({ 'a.b': 1, ok: true })).toBe('{"a.b"=1,ok=true}');
    expect(() => tomlValue(Number.NaN)).toThrow(/not a TOML number/);
    expect(configFlags({ model_auto_compact_token_limit: 100_000, bypass_hook_trust: true })).toEqual(['-c', 'model_auto_compact_token_limit=100000', '-c', 'bypass_hook_trust=true']);
  });
});

describe("debussy's codex command line", () => {
  it("runs app-server with debussy's call-aware stop guard as an inline PreToolUse hook, the user's args last", () => {
    const hooks = debussyCodexHooks("/tmp/debussy-stop-it's");
    const guard = hooks.PreToolUse?.[0]?.hooks[0]?.command;
    expect(guard).toBe(stopGuardByCallCommand("/tmp/debussy-stop-it's"));
    expect(guard).toContain(`test -e '/tmp/debussy-stop-it'\\''s' || exit 0;`);
    expect(appServerCommand({ command: '/opt/codex', hooks, extraArgs: ['-c', 'model_reasoning_effort="high"'] })).toEqual({
      command: '/opt/codex',
      args: ['app-server', '-c', `hooks.PreToolUse=[{matcher="",hooks=[{type="command",command=${tomlString(guard!)}}]}]`, '-c', 'model_reasoning_effort="high"'],
    });
    expect(appServerCommand({ command: 'codex' }).args).toEqual(['app-server']);
  });

  it.each([
    [undefined, undefined, undefined],
    ['bypassPermissions', 'danger-full-access', 'never'],
    ['acceptEdits', 'workspace-write', 'never'],
    ['default', 'workspace-write', 'never'],
    ['dontAsk', 'workspace-write', 'never'],
    ['auto', 'workspace-write', 'never'],
    ['plan', 'read-only', 'never'],
  ] as const)('permission_mode %s -> sandbox %s, approval %s', (mode, sandbox, approvalPolicy) => {
    const mapped = codexPermissions(mode);
    expect([mapped.sandbox, mapped.approvalPolicy]).toEqual([sandbox, approvalPolicy]);
  });

  it('says what it cannot map: tool rules, auto', () => {
    expect(codexPermissions('acceptEdits', { allowed: 2, disallowed: 0 }).notes).toEqual(['codex has no per-tool rules: allowed_tools and disallowed_tools do not apply to codex sessions']);
    expect(codexPermissions('auto').notes[0]).toMatch(/^codex has no classifier mode/);
    expect(codexPermissions('bypassPermissions').notes).toEqual([]);
  });

  it('thread settings: hooks trusted, unset permissions left to the user config', () => {
    expect(threadSettings({ cwd: '/w', model: 'gpt-5.5', permissions: codexPermissions('acceptEdits') })).toEqual({
      cwd: '/w',
      model: 'gpt-5.5',
      sandbox: 'workspace-write',
      approvalPolicy: 'never',
      config: { bypass_hook_trust: true, allow_login_shell: false },
    });
    expect(threadSettings({ cwd: '/w', model: '', permissions: codexPermissions(undefined) })).toEqual({ cwd: '/w', config: { bypass_hook_trust: true, allow_login_shell: false } });
  });
});

describe('the app-server codec', () => {
  it.each([
    [{ id: 1, result: { ok: true } }, { kind: 'response', id: 1, result: { ok: true } }],
    [{ id: 'a', error: { code: -32600, message: 'bad' } }, { kind: 'error_response', id: 'a', code: -32600, message: 'bad' }],
    [{ method: 'turn/started', params: { threadId: 't' } }, { kind: 'notification', method: 'turn/started', params: { threadId: 't' } }],
    [{ method: 'initialized' }, { kind: 'notification', method: 'initialized', params: {} }],
    [{ id: 7, method: 'item/commandExecution/requestApproval', params: {} }, { kind: 'server_request', id: 7, method: 'item/commandExecution/requestApproval', params: {} }],
    [{ jsonrpc: '2.0' }, undefined],
    [[1, 2], undefined],
    ['text', undefined],
  ])('classifyMessage(%j)', (value, message) => {
    expect(classifyMessage(value)).toEqual(message);
  });

  it('builds the requests of a session', () => {
    expect(initializeRequest(1, { name: 'debussy', version: '1.2.3' })).toMatchObject({
      id: 1,
      method: 'initialize',
      params: { clientInfo: { name: 'debussy', title: null, version: '1.2.3' }, capabilities: { experimentalApi: true, optOutNotificationMethods: expect.arrayContaining(['item/agentMessage/delta']) as unknown } },
    });
    const settings = { cwd: '/w', approvalPolicy: 'never', sandbox: 'workspace-write', config: { bypass_hook_trust: true, allow_login_shell: false } } as const;
    expect(threadStartRequest(2, settings)).toEqual({ id: 2, method: 'thread/start', params: { ...settings, experimentalRawEvents: true } });
    expect(threadResumeRequest(2, 'th', settings)).toEqual({ id: 2, method: 'thread/resume', params: { threadId: 'th', ...settings } });
    expect(turnStartRequest(3, 'th', 'go')).toEqual({ id: 3, method: 'turn/start', params: { threadId: 'th', input: [{ type: 'text', text: 'go', text_elements: [] }] } });
    expect(turnInterruptRequest(4, 'th', 'tu')).toEqual({ id: 4, method: 'turn/interrupt', params: { threadId: 'th', turnId: 'tu' } });
    expect(encodeMessage({ id: 5, method: 'x' })).toBe('{"id":5,"method":"x"}\n');
  });

  it('declines approvals and refuses other server requests', () => {
    expect(answerServerRequest({ kind: 'server_request', id: 9, method: 'item/fileChange/requestApproval', params: {} })).toEqual({ id: 9, result: { decision: 'decline' } });
    expect(answerServerRequest({ kind: 'server_request', id: 10, method: 'item/tool/requestUserInput', params: {} })).toMatchObject({ id: 10, error: { code: -32601 } });
  });

  it('reads responses: thread, turn, version', () => {
    expect(threadOfResponse({ thread: { id: 'th', path: '/h/sessions/r.jsonl' }, model: 'gpt-5.5', cwd: '/w' })).toEqual({ threadId: 'th', model: 'gpt-5.5', cwd: '/w', rolloutPath: '/h/sessions/r.jsonl' });
    expect(threadOfResponse({ thread: {} })).toBeUndefined();
    expect(turnIdOfResponse({ turn: { id: 'tu' } })).toBe('tu');
    expect(codexVersionOf({ userAgent: 'debussy/0.171.0 (Debian 12.0.0; x86_64) xterm (debussy; 0.1.0)' })).toBe('0.171.0');
    expect(codexVersionOf({})).toBeUndefined();
  });
});
