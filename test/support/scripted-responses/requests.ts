/** Readers of a recorded codex request, and builders of the script entries tests use most. */
import type { CustomToolCallSpec, FunctionCallSpec, HttpErrorTurn, RecordedResponsesRequest } from './types.js';

type Item = Record<string, unknown>;

function isRecord(value: unknown): value is Item {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The `input` items of a Responses request (the whole history: codex sends store: false). */
export function inputItems(req: RecordedResponsesRequest): Item[] {
  const input = isRecord(req.body) ? req.body.input : undefined;
  return Array.isArray(input) ? input.filter(isRecord) : [];
}

function messageText(item: Item): string {
  const content = item.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.flatMap((part: unknown) => (isRecord(part) && typeof part.text === 'string' ? [part.text] : [])).join('\n');
}

/** Texts of the `role: "user"` messages, in order (codex's own context blocks included). */
export function userTexts(req: RecordedResponsesRequest): string[] {
  return inputItems(req)
    .filter((item) => item.type === 'message' && item.role === 'user')
    .map(messageText);
}

// codex puts its own context in user messages that start with a tag: <environment_context>, ...
const INJECTED = /^\s*<[a-z_]+>/;

/** The prompt codex was given: the first user message that is not one of its injected context blocks. */
export function promptText(req: RecordedResponsesRequest): string | undefined {
  return userTexts(req).find((text) => !INJECTED.test(text));
}

/** `function_call_output` / `custom_tool_call_output` items: what the model gets back from each tool. */
export function toolOutputs(req: RecordedResponsesRequest): Array<{ callId: string; output: string }> {
  return inputItems(req)
    .filter((item) => item.type === 'function_call_output' || item.type === 'custom_tool_call_output')
    .map((item) => ({ callId: String(item.call_id), output: typeof item.output === 'string' ? item.output : JSON.stringify(item.output) }));
}

/** The tool names a request offers. */
export function toolNames(req: RecordedResponsesRequest): string[] {
  const tools = isRecord(req.body) ? req.body.tools : undefined;
  return Array.isArray(tools) ? tools.filter(isRecord).map((tool) => String(tool.name ?? tool.type)) : [];
}

/**
 * codex's shell tool: `exec_command {cmd}`, run without a login shell (`login: false`): a login
 * shell's profile (pyenv rehash and the like) can take seconds on a loaded machine, and a command
 * still running after `yield_time_ms` (default 10 s) is answered "Process running with session ID".
 */
export function execCommand(cmd: string, callId?: string, extra: Record<string, unknown> = {}): FunctionCallSpec {
  return { name: 'exec_command', arguments: { cmd, login: false, ...extra }, callId };
}

/** codex's freeform file-edit tool. */
export function applyPatch(patch: string, callId?: string): CustomToolCallSpec {
  return { type: 'custom', name: 'apply_patch', input: patch, callId };
}

/** A 400 in the shape OpenAI answers a prompt over the model's window with. */
export function contextOverflowError(): HttpErrorTurn {
  return {
    kind: 'http_error',
    status: 400,
    type: 'invalid_request_error',
    param: 'input',
    code: 'context_length_exceeded',
    message: 'Your input exceeds the context window of this model. Please adjust your input and try again.',
  };
}

/** A 429 with a retry-after header and OpenAI's rate-limit wording. */
export function rateLimitError(retryAfterSeconds: number): HttpErrorTurn {
  return {
    kind: 'http_error',
    status: 429,
    type: 'tokens',
    code: 'rate_limit_exceeded',
    message: `Rate limit reached for gpt-5.5 in organization org-scripted on tokens per min (TPM): Limit 30000, Used 30000, Requested 1200. Please try again in ${retryAfterSeconds}s.`,
    headers: { 'retry-after': String(retryAfterSeconds) },
  };
}

/** A 429 `insufficient_quota`: the account has no credit left. */
export function quotaError(): HttpErrorTurn {
  return {
    kind: 'http_error',
    status: 429,
    type: 'insufficient_quota',
    code: 'insufficient_quota',
    message: 'You exceeded your current quota, please check your plan and billing details.',
  };
}
