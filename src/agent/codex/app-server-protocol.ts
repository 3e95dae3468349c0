/**
 * The part of `codex app-server`'s JSON-RPC protocol (newline-delimited JSON over stdio) debussy
 * speaks: requests it sends, the shapes of what comes back. Types are narrowed by hand from the
 * schema `codex app-server generate-ts --experimental` prints for codex 0.171.0 (ClientRequest,
 * ServerNotification, v2/*): only the fields debussy reads, every one optional on the wire. Pure.
 *
 * Message kinds, as codex 0.171.0 sends them (no "jsonrpc" member):
 * - response `{id, result}` or `{id, error: {code, message}}` to a request of ours;
 * - notification `{method, params}` (turn/*, item/*, thread/tokenUsage/updated, error, ...);
 * - server request `{id, method, params}`: approvals and user input, which need an answer.
 */
import { isRecord, type JsonRecord } from '../json-fields.js';

export type RequestId = number | string;

export type AppServerMessage =
  | { kind: 'response'; id: RequestId; result: unknown }
  | { kind: 'error_response'; id: RequestId; code?: number; message: string }
  | { kind: 'notification'; method: string; params: JsonRecord }
  | { kind: 'server_request'; id: RequestId; method: string; params: JsonRecord };

function requestIdOf(value: unknown): RequestId | undefined {
  return typeof value === 'number' || typeof value === 'string' ? value : undefined;
}

/** What a parsed line is; undefined when it is none of the four. */
export function classifyMessage(value: unknown): AppServerMessage | undefined {
  if (!isRecord(value)) return undefined;
  const id = requestIdOf(value.id);
  const method = typeof value.method === 'string' ? value.method : undefined;
  const params = isRecord(value.params) ? value.params : {};
  if (method !== undefined) return id === undefined ? { kind: 'notification', method, params } : { kind: 'server_request', id, method, params };
  if (id === undefined) return undefined;
  if (isRecord(value.error)) {
    const code = typeof value.error.code === 'number' ? value.error.code : undefined;
    return { kind: 'error_response', id, code, message: typeof value.error.message === 'string' ? value.error.message : JSON.stringify(value.error) };
  }
  return { kind: 'response', id, result: value.result };
}

/** One line to write to the app-server's stdin. */
export function encodeMessage(message: { id?: RequestId; method?: string; params?: unknown; result?: unknown }): string {
  return `${JSON.stringify(message)}\n`;
}

/** `AskForApproval` and `SandboxMode` of the protocol (v2), the values debussy uses. */
export type ApprovalPolicy = 'untrusted' | 'on-request' | 'never';
export type SandboxMode = 'read-only' | 'workspace-write' | 'danger-full-access';

/** Noisy notifications a session does not read: opted out at initialize, so codex never sends them. */
export const OPTED_OUT_NOTIFICATIONS: readonly string[] = [
  'item/agentMessage/delta',
  'item/commandExecution/outputDelta',
  'item/reasoning/summaryTextDelta',
  'item/reasoning/summaryPartAdded',
  'item/reasoning/textDelta',
  'item/fileChange/outputDelta',
  'item/plan/delta',
  'thread/readState/changed',
];

export function initializeRequest(id: RequestId, client: { name: string; version: string }): JsonRecord {
  return {
    id,
    method: 'initialize',
    params: {
      clientInfo: { name: client.name, title: null, version: client.version },
      // experimentalApi: needed for thread/start's experimentalRawEvents (per-call usage, below).
      capabilities: { experimentalApi: true, requestAttestation: false, optOutNotificationMethods: [...OPTED_OUT_NOTIFICATIONS] },
    },
  };
}

/** Sent once after the initialize response, as the protocol asks. */
export const INITIALIZED_NOTIFICATION: JsonRecord = { method: 'initialized' };

export interface ThreadSettings {
  cwd: string;
  model?: string;
  /** Unset: the user's codex config decides. */
  approvalPolicy?: ApprovalPolicy;
  sandbox?: SandboxMode;
  /** Config overrides for this thread only (dotted keys or nested tables), e.g. bypass_hook_trust. */
  config?: JsonRecord;
  developerInstructions?: string;
}

/**
 * `thread/start`. experimentalRawEvents makes codex send `rawResponse/completed` with each call's
 * usage the moment the response completes, before its tools run (thread/tokenUsage/updated waits
 * until they finish).
 */
export function threadStartRequest(id: RequestId, settings: ThreadSettings): JsonRecord {
  return { id, method: 'thread/start', params: { ...threadParams(settings), experimentalRawEvents: true } };
}

/** `thread/resume` of a thread codex saved (its rollout under CODEX_HOME/sessions); no raw events there. */
export function threadResumeRequest(id: RequestId, threadId: string, settings: ThreadSettings): JsonRecord {
  return { id, method: 'thread/resume', params: { threadId, ...threadParams(settings) } };
}

function threadParams(settings: ThreadSettings): JsonRecord {
  return {
    cwd: settings.cwd,
    ...(settings.approvalPolicy === undefined ? {} : { approvalPolicy: settings.approvalPolicy }),
    ...(settings.sandbox === undefined ? {} : { sandbox: settings.sandbox }),
    ...(settings.model === undefined ? {} : { model: settings.model }),
    ...(settings.config === undefined ? {} : { config: settings.config }),
    ...(settings.developerInstructions === undefined ? {} : { developerInstructions: settings.developerInstructions }),
  };
}

export function turnStartRequest(id: RequestId, threadId: string, prompt: string): JsonRecord {
  return { id, method: 'turn/start', params: { threadId, input: [{ type: 'text', text: prompt, text_elements: [] }] } };
}

/** Ends the running turn: turn/completed with status "interrupted" follows (its running tool is not killed). */
export function turnInterruptRequest(id: RequestId, threadId: string, turnId: string): JsonRecord {
  return { id, method: 'turn/interrupt', params: { threadId, turnId } };
}

/**
 * The answer to a server request in an unattended session: every approval is declined, every
 * question left unanswered (debussy's sessions run with approval "never", so these should not come).
 */
export function answerServerRequest(request: Extract<AppServerMessage, { kind: 'server_request' }>): JsonRecord {
  if (request.method.endsWith('requestApproval') || request.method === 'execCommandApproval' || request.method === 'applyPatchApproval') {
    return { id: request.id, result: { decision: 'decline' } };
  }
  return { id: request.id, error: { code: -32601, message: `debussy runs codex unattended and does not answer ${request.method}` } };
}

/** The thread id and model of a thread/start or thread/resume response. */
export function threadOfResponse(result: unknown): { threadId: string; model?: string; cwd?: string; rolloutPath?: string } | undefined {
  if (!isRecord(result) || !isRecord(result.thread) || typeof result.thread.id !== 'string') return undefined;
  return {
    threadId: result.thread.id,
    model: typeof result.model === 'string' ? result.model : undefined,
    cwd: typeof result.cwd === 'string' ? result.cwd : undefined,
    rolloutPath: typeof result.thread.path === 'string' ? result.thread.path : undefined,
  };
}

/** The turn id of a turn/start response. */
export function turnIdOfResponse(result: unknown): string | undefined {
  return isRecord(result) && isRecord(result.turn) && typeof result.turn.id === 'string' ? result.turn.id : undefined;
}

/** codex's version, from the initialize response's userAgent ("<client name>/0.171.0 (...)"). */
export function codexVersionOf(result: unknown): string | undefined {
  if (!isRecord(result) || typeof result.userAgent !== 'string') return undefined;
  return /\/(\d+\.\d+\.\d+[\w.-]*)/.exec(result.userAgent)?.[1];
}
