import { describe, expect, it } from 'vitest';
import { failureClassOf } from '../../../src/agent/agent-errors.js';
import { chatLineEvents, newChatFileState } from '../../../src/agent/gemini/chat-file.js';
import { classifyGeminiError, parseRetryNotice } from '../../../src/agent/gemini/gemini-errors.js';
import { compressionThresholdFor, geminiArgs, geminiWarnings, geminiPermissions, geminiWindowForModel, parseUserSettings, sessionSettings, stopTokensFor, stripJsonComments } from '../../../src/agent/gemini/gemini-launch.js';
import { geminiStopStep, type GeminiStopFacts } from '../../../src/agent/gemini/gemini-stop.js';
import { newGeminiStreamState, parseGeminiLine } from '../../../src/agent/gemini/stream-events.js';
import { newTotals } from '../../../src/agent/call-usage.js';

describe('classifyGeminiError', () => {
  it.each([
    ['[API Error: {"error":{"code":400,"message":"The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).","status":"INVALID_ARGUMENT"}}]', 'context_overflow', 400],
    ['[API Error: {"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT"}}]', 'authentication', undefined],
    ['[API Error: You have exhausted your daily quota on this model.]\nPlease wait and try again later.', 'usage_limit', undefined],
    ['[API Error: {"error":{"code":429,"message":"Resource has been exhausted (e.g. check quota).","status":"RESOURCE_EXHAUSTED"}}]', 'rate_limit', 429],
    ['[API Error: {"error":{"code":503,"message":"The model is overloaded.","status":"UNAVAILABLE"}}]', 'overloaded', 503],
    ['[API Error: {"error":{"code":500,"message":"boom","status":"INTERNAL"}}]', 'server_error', 500],
    ['[API Error: {"error":{"code":404,"message":"models/x is not found","status":"NOT_FOUND"}}]', 'invalid_request', 404],
    ['fetch failed', 'network', undefined],
    ['something else', 'unknown', undefined],
  ])('%s', (message, kind, status) => {
    const error = classifyGeminiError(message);
    expect(error.kind).toBe(kind);
    expect(error.failureClass).toBe(failureClassOf(error.kind));
    expect(error.httpStatus).toBe(status);
  });

  it('reads gemini\'s retry notice, its reason and wait on lines of their own', () => {
    expect(parseRetryNotice('Attempt 1 failed: Resource has been exhausted (e.g. check quota).\nSuggested retry after 1s.. Retrying after 5283ms...')).toEqual({ attempt: 1, delayMs: 5283, reason: 'Resource has been exhausted (e.g. check quota).\nSuggested retry after 1s..' });
    expect(parseRetryNotice('Attempt 1 failed: boom')).toBeUndefined();
  });
});

describe('geminiStopStep', () => {
  const base: GeminiStopFacts = { stopRequested: true, immediate: false, signalled: false, calls: 3, stopCall: 3, pendingTools: 0, toolsFinishedSinceStop: false, settleExpired: false };
  it.each<[string, Partial<GeminiStopFacts>, ReturnType<typeof geminiStopStep>]>([
    ['no stop asked', { stopRequested: false }, { step: 'none', armGuard: false }],
    ['already signalled', { signalled: true }, { step: 'none', armGuard: true }],
    ['an interrupt, a tool running', { immediate: true, pendingTools: 1 }, { step: 'signal', armGuard: true }],
    ["the stop call's tools run (the guard lets only them through)", { pendingTools: 2 }, { step: 'wait', armGuard: true }],
    ["a later call's tools started before the guard", { pendingTools: 1, calls: 4 }, { step: 'signal', armGuard: true }],
    ["the stop call's tools have finished", { toolsFinishedSinceStop: true }, { step: 'signal', armGuard: true }],
    ['nothing running: the guard now, the signal after a settle', {}, { step: 'settle', armGuard: true }],
    ['the settle is over', { settleExpired: true }, { step: 'signal', armGuard: true }],
  ])('%s', (_name, facts, decision) => {
    expect(geminiStopStep({ ...base, ...facts })).toEqual(decision);
  });
});

describe('gemini launch', () => {
  it('maps permission_mode: plan stays plan, every other mode is yolo, and says so where it meant less', () => {
    expect(geminiPermissions(undefined)).toEqual({ approvalMode: 'yolo', notes: [] });
    expect(geminiPermissions('bypassPermissions')).toEqual({ approvalMode: 'yolo', notes: [] });
    expect(geminiPermissions('plan')).toEqual({ approvalMode: 'plan', notes: [] });
    expect(geminiPermissions('acceptEdits').notes).toEqual([expect.stringContaining('permission_mode acceptEdits runs as --approval-mode yolo')]);
    expect(geminiPermissions('bypassPermissions', { allowed: 1, disallowed: 0 }).notes).toEqual([expect.stringContaining('allowed_tools and disallowed_tools do not apply')]);
  });

  it("warns of a project's own compression threshold below debussy's, which gemini applies over the session's settings", () => {
    const config = { allowed_tools: [], disallowed_tools: [], context_threshold: 80, max_context_tokens: 0, context_window: undefined, model: 'gemini-2.5-pro' };
    expect(geminiWarnings(config, '{ "model": { "compressionThreshold": 0.6 } }')).toEqual([expect.stringContaining('sets model.compressionThreshold 0.6, which gemini applies over debussy\'s 0.85')]);
    expect(geminiWarnings(config, '{ "model": { "compressionThreshold": 0.9 } }')).toEqual([]);
    expect(geminiWarnings(config, '{ not json')).toEqual([]);
    expect(geminiWarnings(config)).toEqual([]);
  });

  it('knows the windows of the models gemini runs, and of its own choice', () => {
    expect(geminiWindowForModel('gemini-2.5-pro')).toBe(1_048_576);
    expect(geminiWindowForModel('gemini-2.5-flash-lite')).toBe(1_048_576);
    expect(geminiWindowForModel(undefined)).toBe(1_048_576);
    expect(geminiWindowForModel('auto-gemini-2.5')).toBe(1_048_576);
    expect(geminiWindowForModel('flash')).toBe(1_048_576);
    expect(geminiWindowForModel('gemma-3-27b')).toBeUndefined();
  });

  it.each([
    // 40% of the window: compress above it, never below gemini's own 0.5.
    [{ context_threshold: 40, max_context_tokens: 0 }, 0.5],
    [{ context_threshold: 80, max_context_tokens: 0 }, 0.85],
    [{ context_threshold: 60, max_context_tokens: 160_000 }, 0.5],
    [{ context_threshold: 100, max_context_tokens: 0 }, 1],
  ])('moves the compression above the stop point: %o -> %d', (config, threshold) => {
    expect(compressionThresholdFor(stopTokensFor(config, 1_048_576), 1_048_576)).toBe(threshold);
  });

  it("adds debussy's guard after the user's hooks and replaces the compression threshold, keeping the rest", () => {
    const user = { security: { auth: { selectedType: 'oauth-personal' } }, model: { name: 'gemini-2.5-flash', compressionThreshold: 0.3 }, hooks: { BeforeTool: [{ matcher: 'write_file', hooks: [{ type: 'command', command: 'lint' }] }] } };
    const merged = sessionSettings(user, { stopFile: '/tmp/stop', compressionThreshold: 0.9 });
    expect(merged.security).toEqual(user.security);
    expect(merged.model).toEqual({ name: 'gemini-2.5-flash', compressionThreshold: 0.9 });
    const beforeTool = (merged.hooks as { BeforeTool: Array<{ matcher: string; hooks: Array<{ command: string }> }> }).BeforeTool;
    expect(beforeTool.map((m) => m.matcher)).toEqual(['write_file', '.*']);
    expect(beforeTool[1]?.hooks[0]?.command).toContain('"continue":false');
  });

  it('reads the user\'s settings with comments, and says why it cannot', () => {
    expect(parseUserSettings('{\n  // mine\n  "a": "x // not a comment", /* b */ "b": 1\n}')).toEqual({ settings: { a: 'x // not a comment', b: 1 } });
    expect(parseUserSettings('[1]')).toEqual({ problem: 'it is not a JSON object' });
    expect('problem' in parseUserSettings('{')).toBe(true);
    expect(stripJsonComments('"a\\"//b"')).toBe('"a\\"//b"');
  });

  it('starts a new session by its id, resumes one by it, the user\'s flags last', () => {
    expect(geminiArgs({ model: 'gemini-2.5-pro', sessionId: 'id-1', resume: false, approvalMode: 'yolo', extraArgs: ['--include-directories', '../lib'] })).toEqual([
      '--output-format', 'stream-json', '--model', 'gemini-2.5-pro', '--session-id', 'id-1', '--approval-mode', 'yolo', '--skip-trust', '--include-directories', '../lib',
    ]);
    expect(geminiArgs({ sessionId: 'id-1', resume: true, approvalMode: 'plan' })).toEqual(['--output-format', 'stream-json', '--resume', 'id-1', '--approval-mode', 'plan', '--skip-trust']);
  });
});

describe('gemini stream and chat file', () => {
  it('takes each call\'s usage once, thinking as output', () => {
    const totals = newTotals(() => 0.5);
    const state = newChatFileState();
    const call = { id: 'm1', type: 'gemini', model: 'gemini-2.5-pro', tokens: { input: 1000, output: 20, cached: 600, thoughts: 5 } };
    expect(chatLineEvents(JSON.stringify(call), state, totals)).toEqual([
      { type: 'usage', messageId: 'm1', model: 'gemini-2.5-pro', inputTokens: 400, cacheReadTokens: 600, cacheCreationTokens: 0, contextTokens: 1000 },
      { type: 'output_usage', outputTokens: 25 },
    ]);
    expect(chatLineEvents(JSON.stringify({ ...call, toolCalls: [] }), state, totals)).toEqual([]);
    expect(chatLineEvents(JSON.stringify({ id: 'u1', type: 'user', content: [] }), state, totals)).toEqual([]);
    expect(chatLineEvents('{not json', state, totals)).toEqual([]);
    expect(state.badLines).toBe(1);
    expect(totals).toMatchObject({ calls: 1, costUsd: 0.5, lastContextTokens: 1000 });
  });

  it('marks the hook\'s stop, keeps the run\'s end for the session, and counts what it does not know', () => {
    const state = newGeminiStreamState();
    const lines = [
      { type: 'tool_use', tool_name: 'write_file', tool_id: 't1', parameters: { file_path: 'a.txt', content: 'x' } },
      { type: 'tool_result', tool_id: 't1', status: 'error', output: 'Agent execution stopped by hook: stop', error: { type: 'stop_execution', message: 'Agent execution stopped by hook: stop' } },
      { type: 'result', status: 'success', stats: { duration_ms: 12 } },
      { type: 'brand_new' },
    ];
    const events = lines.flatMap((line) => parseGeminiLine(JSON.stringify(line), state));
    expect(events.map((e) => e.type)).toEqual(['tool_start', 'tool_result', 'unparsed_line']);
    expect(events[0]).toMatchObject({ name: 'Write', summary: 'Write: a.txt' });
    expect(state).toMatchObject({ stoppedByHook: true, runEnd: { status: 'success', durationMs: 12 }, unparsedLines: 1 });
    expect(state.pendingTools.size).toBe(0);
  });

  it('reports a failed run as the API error it quotes', () => {
    const state = newGeminiStreamState();
    const events = parseGeminiLine(JSON.stringify({ type: 'result', status: 'error', error: { type: 'unknown', message: '[API Error: {"error":{"code":429,"message":"Too many requests"}}]' } }), state);
    expect(events).toEqual([{ type: 'api_error', errorType: 'rate_limit', text: expect.stringContaining('Too many requests') as string }]);
  });
});
