/**
 * Small, loose accessors over the CLI's stream-json lines, for asserting in tests. Production code
 * has its own typed parser; these only need to find things.
 */
export type StreamLine = Record<string, unknown>;

function isLine(value: unknown): value is StreamLine {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function linesOfType(lines: unknown[], type: string, subtype?: string): StreamLine[] {
  return lines.filter(isLine).filter((l) => l.type === type && (subtype === undefined || l.subtype === subtype));
}

export function initLine(lines: unknown[]): StreamLine | undefined {
  return linesOfType(lines, 'system', 'init')[0];
}

export function resultLine(lines: unknown[]): StreamLine | undefined {
  return linesOfType(lines, 'result').at(-1);
}

/** The `message` objects of the assistant events (one per content block). */
export function assistantMessages(lines: unknown[]): StreamLine[] {
  return linesOfType(lines, 'assistant').flatMap((l) => (isLine(l.message) ? [l.message] : []));
}

/** Content blocks of every `user` event (tool results, interruption notices). */
export function userContentBlocks(lines: unknown[]): StreamLine[] {
  return linesOfType(lines, 'user').flatMap((l) => {
    const message = l.message;
    if (!isLine(message) || !Array.isArray(message.content)) return [];
    return message.content.filter(isLine);
  });
}

/** The raw SSE events the CLI received (needs --include-partial-messages). */
export function streamEvents(lines: unknown[]): StreamLine[] {
  return linesOfType(lines, 'stream_event').flatMap((l) => (isLine(l.event) ? [l.event] : []));
}

export function isToolUseLine(line: unknown, toolName?: string): boolean {
  if (!isLine(line) || line.type !== 'assistant' || !isLine(line.message)) return false;
  const content = line.message.content;
  return Array.isArray(content) && content.some((b) => isLine(b) && b.type === 'tool_use' && (toolName === undefined || b.name === toolName));
}
