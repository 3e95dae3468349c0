/**
 * One line that says what a tool call does, for people: "Bash: npm test", "Edit: src/x.ts".
 * Pure; paths under the session's cwd are shown relative to it. The detail is redacted whole
 * before it is folded and cut to one short line, so a secret in a command never leaves its start
 * behind.
 */
import path from 'node:path';
import { cutText, type Redactor } from '../redact/index.js';
import { oneLine } from '../text/one-line.js';
import { isRecord, stringField, arrayField, type JsonRecord } from './json-fields.js';

const MAX_DETAIL = 120;

const keepText: Redactor = (text) => text;

/** Redacted before it is folded, too: a folded text loses the lines a form is known by (a PEM key's tail). */
function shownDetail(text: string, redact: Redactor): string {
  return cutText(oneLine(redact(text)), MAX_DETAIL);
}

function shownPath(file: string, cwd: string | undefined): string {
  if (cwd === undefined || !path.isAbsolute(file)) return file;
  const relative = path.relative(cwd, file);
  return relative === '' || relative.startsWith('..') || path.isAbsolute(relative) ? file : relative;
}

function detailOf(name: string, input: JsonRecord, cwd: string | undefined): string | undefined {
  const file = stringField(input, 'file_path') ?? stringField(input, 'notebook_path');
  switch (name) {
    case 'Bash':
      return stringField(input, 'command');
    case 'Read':
    case 'Write':
    case 'Edit':
    case 'MultiEdit':
    case 'NotebookEdit':
      return file === undefined ? undefined : shownPath(file, cwd);
    case 'Glob':
    case 'Grep': {
      const pattern = stringField(input, 'pattern');
      const where = stringField(input, 'path');
      if (pattern === undefined) return undefined;
      return where === undefined ? pattern : `${pattern} in ${shownPath(where, cwd)}`;
    }
    case 'WebFetch':
      return stringField(input, 'url');
    case 'WebSearch':
      return stringField(input, 'query');
    case 'Task':
    case 'Agent':
      return stringField(input, 'description') ?? stringField(input, 'prompt');
    case 'TodoWrite': {
      const todos = arrayField(input, 'todos');
      return todos === undefined ? undefined : `${todos.length} todo${todos.length === 1 ? '' : 's'}`;
    }
    default:
      break;
  }
  if (file !== undefined) return shownPath(file, cwd);
  // Unknown (or MCP) tools: the first string argument usually says the most.
  for (const value of Object.values(input)) {
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return undefined;
}

/** `redact` is given the detail whole; leave it out only when `input` was redacted already. */
export function summarizeToolUse(name: string, input: unknown, cwd?: string, redact: Redactor = keepText): string {
  const detail = isRecord(input) ? detailOf(name, input, cwd) : undefined;
  return detail === undefined || detail.trim() === '' ? name : `${name}: ${shownDetail(detail, redact)}`;
}
