/** Narrowing helpers for untrusted JSON (stream-json lines): nothing is trusted until checked. */
export type JsonRecord = Record<string, unknown>;

export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function recordField(record: JsonRecord, key: string): JsonRecord | undefined {
  const value = record[key];
  return isRecord(value) ? value : undefined;
}

export function stringField(record: JsonRecord, key: string): string | undefined {
  const value = record[key];
  return typeof value === 'string' ? value : undefined;
}

export function numberField(record: JsonRecord, key: string): number | undefined {
  const value = record[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

export function arrayField(record: JsonRecord, key: string): unknown[] | undefined {
  const value = record[key];
  return Array.isArray(value) ? (value as unknown[]) : undefined;
}

/** Text of a tool_result's content: a string, or blocks (subagents answer with text blocks). */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const block of content as unknown[]) {
    if (!isRecord(block)) continue;
    if (block.type === 'text') parts.push(stringField(block, 'text') ?? '');
    else if (block.type === 'image') parts.push('[image]');
  }
  return parts.join('\n');
}
