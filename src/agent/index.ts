export type { AgentEvent, AgentEventType, ApiErrorEvent, ApiRetryEvent, PermissionDenial, ResultEvent } from './agent-events.js';
export { parseStreamLine, newStreamParseState, type StreamParseState } from './stream-parser.js';
export { summarizeToolUse } from './tool-summary.js';
export { buildClaudeArgs, permissionArgs, CLAUDE_STREAM_FLAGS, DEBUSSY_TOOL_RULES, type ClaudePermissions } from './claude-args.js';
export { sessionOutcomeOf, type SessionOutcome, type SessionEndFacts } from './session-outcome.js';
export { formatEventLine, sessionLogBase, sessionLogPaths, READABLE_LOG_SUFFIX, RAW_LOG_SUFFIX } from './session-logs.js';
export { readLineBatches } from './line-reader.js';
export { SESSION_MARKER_VAR } from './session-processes.js';
export { apiErrorMessage, startAgentSession, type AgentSession, type AgentSessionOptions, type SessionEnd, type StopCause } from './agent-session.js';
