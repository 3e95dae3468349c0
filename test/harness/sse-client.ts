import type { ScriptedApi } from '../support/scripted-api.js';

/** A minimal request body shaped like the CLI's agent-loop requests (tools present). */
export function mainBody(text = 'hello', extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    model: 'claude-test-1',
    max_tokens: 1000,
    stream: true,
    system: [{ type: 'text', text: 'You are a test.' }],
    messages: [{ role: 'user', content: [{ type: 'text', text }] }],
    tools: [{ name: 'Bash', description: 'Run a command', input_schema: { type: 'object', properties: { command: { type: 'string' } } } }],
    ...extra,
  };
}

export async function post(api: ScriptedApi, path: string, body: unknown, signal?: AbortSignal): Promise<Response> {
  return fetch(`${api.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'test-key' },
    body: JSON.stringify(body),
    signal,
  });
}

export interface ParsedSse {
  event: string;
  data: Record<string, unknown>;
}

export function parseSse(text: string): ParsedSse[] {
  return text
    .split('\n\n')
    .filter((chunk) => chunk.trim() !== '')
    .map((chunk) => {
      const event = /^event: (.*)$/m.exec(chunk)?.[1] ?? '';
      const data = /^data: (.*)$/m.exec(chunk)?.[1] ?? '{}';
      return { event, data: JSON.parse(data) as Record<string, unknown> };
    });
}
