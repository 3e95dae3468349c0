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
  stopCallIds: ['call_b', 'call_b2'],
};

const own = ['call_b', 'call_b2'];

describe('codexStopStep', () => {
  // guardAllows: undefined is no guard; a list arms it at once, letting only those calls through.
  it.each<[string, Partial<CodexStopFacts>, string, readonly string[] | undefined]>([
    ['no stop, turn running', { stopRequested: false }, 'none', undefined],
    ['no stop, turn ended: the session ends', { stopRequested: false, turnEnded: true }, 'close', undefined],
    ["the stop's call has tools still running (not settled): armed at the decision, its own calls let through", {}, 'wait', own],
    ["the stop's call is settled (thread/tokenUsage/updated came)", { settledCalls: 3 }, 'interrupt', []],
    ["the stop's response is still streaming: the calls it has sent so far", { calls: 2, settledCalls: 2, stopCallIds: ['call_b'] }, 'wait', ['call_b']],
    ['...a response with no tool call: armed, nothing let through', { calls: 2, settledCalls: 2, stopCallIds: [] }, 'wait', []],
    ['...and the drain wait ran out', { calls: 2, settledCalls: 2, drainExpired: true }, 'interrupt', []],
    ['the drain wait does not cut the tools of a complete response', { drainExpired: true }, 'wait', own],
    ['a later call completed (the caller was behind)', { calls: 4 }, 'interrupt', []],
    ['immediate: the running tool does not finish', { immediate: true }, 'interrupt', []],
    ['immediate, before the turn is known', { immediate: true, turnKnown: false, calls: 0, stopCall: 0, settledCalls: 0 }, 'close', []],
    ['interrupt sent, waiting for turn/completed', { interruptSent: true }, 'wait', []],
    ['the interrupted turn ended', { interruptSent: true, turnEnded: true }, 'close', []],
    ['stopped before the turn started', { turnKnown: false, calls: 0, stopCall: 0, settledCalls: 0, stopCallIds: [] }, 'close', []],
    ['stdin already closed', { stdinClosed: true, turnEnded: true }, 'none', []],
  ])('%s', (_name, facts, step, guardAllows) => {
    expect(codexStopStep({ ...running, ...facts })).toEqual({ step, guardAllows });
  });
});

describe('codexLaunch', () => {
  it("starts app-server with debussy's guard, the thread's model, sandbox and hook trust", () => {
    const launch = codexLaunch({ command: 'codex', cwd: '/w', model: 'gpt-5.5', permissionMode: 'acceptEdits', toolRules: { allowed: 1, disallowed: 0 }, stopFile: '/tmp/stop', extraArgs: ['-c', 'x=1'] });
    expect(launch.command).toBe('codex');
    expect(launch.args[0]).toBe('app-server');
    expect(launch.args.slice(1, 3)).toEqual(['-c', expect.stringContaining("test -e '/tmp/stop' || exit 0; id=$(sed") as string]);
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
