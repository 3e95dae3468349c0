/** When a codex session stops (codex-stop.ts): a table over what the stream has shown. */
import { describe, expect, it } from 'vitest';
import { codexStopStep, type CodexStopFacts } from '../../../src/agent/codex/codex-stop.js';
import { codexLaunch, codexWindowForModel, codexWindowOf } from '../../../src/agent/codex/codex-launch.js';

const running: CodexStopFacts = {
  stopRequested: true,
  immediate: false,
  drainExpired: false,
  turnKnown: true,
  turnEnded: false,
  interruptSent: false,
  stdinClosed: false,
  calls: 3,
  stopCall: 3,
  settledCalls: 2,
};

describe('codexStopStep', () => {
  it.each<[string, Partial<CodexStopFacts>, string, boolean]>([
    ['no stop, turn running', { stopRequested: false }, 'none', false],
    ['no stop, turn ended: the session ends', { stopRequested: false, turnEnded: true }, 'close', false],
    ["the stop's call has tools still running (not settled)", {}, 'wait', false],
    ["the stop's call is settled (thread/tokenUsage/updated came)", { settledCalls: 3 }, 'interrupt', true],
    ["the stop's response is still streaming", { calls: 2, settledCalls: 2 }, 'wait', false],
    ['...and the drain wait ran out', { calls: 2, settledCalls: 2, drainExpired: true }, 'interrupt', true],
    ['the drain wait does not cut the tools of a complete response', { drainExpired: true }, 'wait', false],
    ['a later call completed (the caller was behind)', { calls: 4 }, 'interrupt', true],
    ['immediate: the running tool does not finish', { immediate: true }, 'interrupt', true],
    ['interrupt sent, waiting for turn/completed', { interruptSent: true }, 'wait', true],
    ['the interrupted turn ended', { interruptSent: true, turnEnded: true }, 'close', true],
    ['stopped before the turn started', { turnKnown: false, calls: 0, stopCall: 0, settledCalls: 0 }, 'close', true],
    ['stdin already closed', { stdinClosed: true, turnEnded: true }, 'none', true],
  ])('%s', (_name, facts, step, armGuard) => {
    expect(codexStopStep({ ...running, ...facts })).toEqual({ step, armGuard });
  });
});

describe('codexLaunch', () => {
  it("starts app-server with debussy's guard, the thread's model, sandbox and hook trust", () => {
    const launch = codexLaunch({ command: 'codex', cwd: '/w', model: 'gpt-5.5', permissionMode: 'acceptEdits', toolRules: { allowed: 1, disallowed: 0 }, stopFile: '/tmp/stop', extraArgs: ['-c', 'x=1'] });
    expect(launch.command).toBe('codex');
    expect(launch.args[0]).toBe('app-server');
    expect(launch.args.slice(1, 3)).toEqual(['-c', expect.stringContaining("test -e '/tmp/stop'") as string]);
    expect(launch.args.slice(-2)).toEqual(['-c', 'x=1']);
    expect(launch.thread).toEqual({ cwd: '/w', model: 'gpt-5.5', sandbox: 'workspace-write', approvalPolicy: 'never', config: { bypass_hook_trust: true, allow_login_shell: false } });
    expect(launch.notes).toEqual(['codex has no per-tool rules: allowed_tools and disallowed_tools do not apply to codex sessions']);
  });
});

describe("codex's window", () => {
  it('is 95% of the catalog window; codex compacts at 90% of the whole one', () => {
    expect(codexWindowOf(258_400)).toEqual({ window: 258_400, autoCompactAt: 244_800 });
    expect(codexWindowForModel('gpt-5.5')).toEqual({ window: 258_400, autoCompactAt: 244_800 });
    expect(codexWindowForModel('gpt-6.2-sol')).toEqual({ window: 475_000, autoCompactAt: 450_000 });
    expect(codexWindowForModel('gpt-6.2-astra')?.window).toBe(258_400);
    expect(codexWindowForModel('o3')).toBeUndefined();
    expect(codexWindowForModel(undefined)).toBeUndefined();
  });
});
