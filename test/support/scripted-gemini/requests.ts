/** Readers of a recorded Gemini request, and builders of the script entries tests use most. */
import type { GeminiCallSpec, RecordedGeminiRequest } from './types.js';

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The request's `contents` (the whole history, every call). */
export function contents(req: RecordedGeminiRequest): Json[] {
  const list = isRecord(req.body) ? req.body.contents : undefined;
  return Array.isArray(list) ? list.filter(isRecord) : [];
}

function partsOf(content: Json): Json[] {
  return Array.isArray(content.parts) ? content.parts.filter(isRecord) : [];
}

/** Texts of the user turns, in order (the CLI's own context parts included). */
export function userTexts(req: RecordedGeminiRequest): string[] {
  return contents(req)
    .filter((content) => content.role === 'user')
    .flatMap((content) => partsOf(content).flatMap((part) => (typeof part.text === 'string' ? [part.text] : [])));
}

/** The `functionResponse` parts: what each tool gave back to the model. */
export function functionResponses(req: RecordedGeminiRequest): Array<{ id: string | undefined; name: string; response: unknown }> {
  return contents(req).flatMap((content) =>
    partsOf(content).flatMap((part) => {
      const response = part.functionResponse;
      if (!isRecord(response)) return [];
      return [{ id: typeof response.id === 'string' ? response.id : undefined, name: String(response.name), response: response.response }];
    }),
  );
}

/** The function names a request declares. */
export function toolNames(req: RecordedGeminiRequest): string[] {
  const tools = isRecord(req.body) && Array.isArray(req.body.tools) ? req.body.tools.filter(isRecord) : [];
  return tools.flatMap((tool) => (Array.isArray(tool.functionDeclarations) ? tool.functionDeclarations.filter(isRecord).map((d) => String(d.name)) : []));
}

/** The CLI's shell tool. */
export function shellCall(command: string, id?: string): GeminiCallSpec {
  return { name: 'run_shell_command', args: { command }, ...(id === undefined ? {} : { id }) };
}

/** The CLI's file-writing tool (an absolute path or one under the project). */
export function writeFileCall(filePath: string, content: string, id?: string): GeminiCallSpec {
  return { name: 'write_file', args: { file_path: filePath, content }, ...(id === undefined ? {} : { id }) };
}
