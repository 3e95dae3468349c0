/**
 * codex's tool items in the names debussy already knows: the shell (commandExecution, `exec_command`)
 * is `Bash` with the model's own command, as codex's own hooks name it (tool_name "Bash",
 * tool_input.command); apply_patch (fileChange) is `apply_patch` with the files it touches; MCP
 * calls are `mcp__<server>__<tool>` as in Claude Code. Pure.
 */
import { arrayField, isRecord, numberField, recordField, stringField, type JsonRecord } from '../json-fields.js';

export interface CodexTool {
  name: string;
  input: JsonRecord;
  /** What came back (the command's output; empty while it runs). */
  output: string;
  isError: boolean;
}

/**
 * The command the model asked for: codex runs it as `/bin/bash -lc '<cmd>'` (or `-c` without a
 * login shell), quoting each `'` as `'\''`; commandActions holds it too when codex could not parse it.
 */
export function modelCommand(item: JsonRecord): string {
  const command = stringField(item, 'command') ?? '';
  const wrapped = /^\/bin\/(?:ba|z)?sh -l?c '([\s\S]*)'$/.exec(command);
  if (wrapped?.[1] !== undefined) return wrapped[1].replace(/'\\''/g, "'");
  const actions = (arrayField(item, 'commandActions') ?? []).filter(isRecord);
  const first = actions.length === 1 ? stringField(actions[0]!, 'command') : undefined;
  return first ?? command;
}

function failedStatus(item: JsonRecord): boolean {
  const status = stringField(item, 'status');
  return status === 'failed' || status === 'declined';
}

function textOfContent(content: unknown[] | undefined): string {
  return (content ?? [])
    .map((part) => (isRecord(part) && typeof part.text === 'string' ? part.text : JSON.stringify(part)))
    .join('\n');
}

/** The tool of a thread item; undefined for items that are not tool calls. */
export function codexTool(item: JsonRecord): CodexTool | undefined {
  switch (stringField(item, 'type')) {
    case 'commandExecution': {
      const exitCode = numberField(item, 'exitCode');
      return {
        name: 'Bash',
        input: { command: modelCommand(item) },
        output: stringField(item, 'aggregatedOutput') ?? '',
        isError: failedStatus(item) || (exitCode !== undefined && exitCode !== 0),
      };
    }
    case 'fileChange': {
      const files = (arrayField(item, 'changes') ?? []).filter(isRecord).flatMap((change) => {
        const path = stringField(change, 'path');
        return path === undefined ? [] : [path];
      });
      return {
        name: 'apply_patch',
        input: { ...(files[0] === undefined ? {} : { file_path: files[0] }), files },
        output: `${stringField(item, 'status') ?? 'unknown'}: ${files.join(', ')}`,
        isError: failedStatus(item),
      };
    }
    case 'mcpToolCall': {
      const error = recordField(item, 'error');
      const result = recordField(item, 'result');
      return {
        name: `mcp__${stringField(item, 'server') ?? 'unknown'}__${stringField(item, 'tool') ?? 'unknown'}`,
        input: recordField(item, 'arguments') ?? {},
        output: error !== undefined ? (stringField(error, 'message') ?? '') : textOfContent(result === undefined ? undefined : arrayField(result, 'content')),
        isError: failedStatus(item) || error !== undefined,
      };
    }
    case 'dynamicToolCall':
      return {
        name: stringField(item, 'tool') ?? 'dynamic_tool',
        input: recordField(item, 'arguments') ?? {},
        output: textOfContent(arrayField(item, 'contentItems')),
        isError: failedStatus(item) || item.success === false,
      };
    case 'webSearch':
      return { name: 'WebSearch', input: { query: stringField(item, 'query') ?? '' }, output: '', isError: false };
    default:
      return undefined;
  }
}
