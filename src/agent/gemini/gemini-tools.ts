/**
 * gemini's tools in the names debussy already knows (its stop guard, refusals and summaries speak
 * Claude Code's): run_shell_command is `Bash` with the model's command, write_file `Write`, replace
 * `Edit`, read_file `Read`; others keep gemini's name. Pure.
 */
import { isRecord, stringField, type JsonRecord } from '../json-fields.js';

const RENAMED: Readonly<Record<string, string>> = {
  run_shell_command: 'Bash',
  write_file: 'Write',
  replace: 'Edit',
  read_file: 'Read',
  glob: 'Glob',
  grep_search: 'Grep',
  web_fetch: 'WebFetch',
  google_web_search: 'WebSearch',
};

export function geminiTool(name: string, parameters: unknown): { name: string; input: JsonRecord } {
  const args = isRecord(parameters) ? parameters : {};
  const renamed = RENAMED[name] ?? name;
  if (renamed === 'Bash') return { name: renamed, input: { command: stringField(args, 'command') ?? '' } };
  return { name: renamed, input: args };
}
