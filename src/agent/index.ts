/** The agent seam (agent-driver.ts, agent-session.ts, agent-events.ts) and what every agent shares; each CLI's own code is in its folder (claude/). */
export type { AgentEvent, AgentEventType, ApiErrorEvent, ApiRetryEvent, PermissionDenial, ResultEvent } from './agent-events.js';
export type { AgentCapabilities, AgentDriver, AgentLaunch, AgentName, ResumeKeep } from './agent-driver.js';
export { apiErrorMessage, type AgentSession, type SessionEnd, type SessionOutcome, type StopCause } from './agent-session.js';
export { summarizeToolUse } from './tool-summary.js';
export { compactionFigures, describeCompaction } from './describe-compaction.js';
export { describeLogFailure, formatEventLine, sessionLogBase, sessionLogPaths, READABLE_LOG_SUFFIX, RAW_LOG_SUFFIX, type LogFailure } from './session-logs.js';
export { readLineBatches } from './line-reader.js';
export { SESSION_MARKER_VAR } from './session-processes.js';
export { parseStreamLine, newStreamParseState, type StreamParseState } from './claude/stream-parser.js';
export { buildClaudeArgs, permissionArgs, CLAUDE_STREAM_FLAGS, DEBUSSY_TOOL_RULES, type ClaudePermissions } from './claude/claude-args.js';
export { sessionOutcomeOf, type SessionEndFacts } from './session-outcome.js';
export { startAgentSession, type AgentSessionOptions } from './claude/claude-session.js';
