/**
 * Scripts for the scripted model server written per session: a session is recognised by the
 * start of its prompt (a fresh phase, a checkpoint restart, a remediation...), and its turns are
 * picked by how many assistant messages the request already carries. Pure.
 */
import type { RecordedRequest, ScriptedTurn } from '../support/scripted-api.js';
import { firstUserText } from '../support/scripted-api.js';

export type SessionKind = 'fresh' | 'checkpoint' | 'remediation' | 'reminder';

export function assistantTurns(req: RecordedRequest): number {
  const body = req.body as { messages?: { role?: string }[] } | undefined;
  return (body?.messages ?? []).filter((m) => m.role === 'assistant').length;
}

export function lastUserText(req: RecordedRequest): string {
  const body = req.body as { messages?: { role?: string; content?: unknown }[] } | undefined;
  const users = (body?.messages ?? []).filter((m) => m.role === 'user');
  const last = users[users.length - 1];
  if (!last) return '';
  if (typeof last.content === 'string') return last.content;
  return Array.isArray(last.content) ? last.content.map((b: { text?: unknown }) => (typeof b.text === 'string' ? b.text : '')).join('\n') : '';
}

export function sessionKind(req: RecordedRequest): SessionKind {
  const first = firstUserText(req);
  if (first.startsWith('# debussy checkpoint')) return 'checkpoint';
  if (first.startsWith('# debussy: phase verification failed')) return 'remediation';
  if (lastUserText(req).includes('ended without signalling')) return 'reminder';
  return 'fresh';
}

export function bash(command: string, extra: Partial<ScriptedTurn> = {}): ScriptedTurn {
  return { kind: 'tool_use', name: 'Bash', input: { command, description: command.slice(0, 40) }, ...extra } as ScriptedTurn;
}

export function write(file: string, content: string, extra: Partial<ScriptedTurn> = {}): ScriptedTurn {
  return { kind: 'tool_use', name: 'Write', input: { file_path: file, content }, ...extra } as ScriptedTurn;
}

export const done = (text = 'Phase finished.'): ScriptedTurn => ({ kind: 'text', text });

/** Picks the turn for a request from per-kind turn lists; past the end: a plain text turn. */
export function scriptBySession(turns: Partial<Record<SessionKind, ScriptedTurn[]>>, onRequest?: (req: RecordedRequest, kind: SessionKind) => void) {
  return (req: RecordedRequest): ScriptedTurn => {
    const kind = sessionKind(req);
    onRequest?.(req, kind);
    const list = turns[kind] ?? [];
    const index = kind === 'reminder' ? assistantTurns(req) - (countReminderOffset(req)) : assistantTurns(req);
    return list[index] ?? done();
  };
}

/** In a resumed session the turn count continues from the earlier one; count from the reminder. */
function countReminderOffset(req: RecordedRequest): number {
  const body = req.body as { messages?: { role?: string; content?: unknown }[] } | undefined;
  const messages = body?.messages ?? [];
  const at = messages.findIndex((m) => m.role === 'user' && JSON.stringify(m.content ?? '').includes('ended without signalling'));
  return messages.slice(0, at).filter((m) => m.role === 'assistant').length;
}
