/**
 * A text on one line: every run of whitespace (newlines included) one space, none at either end.
 * The one fold of every condensed line debussy writes (logs, reporters, commit messages,
 * notifications, tool summaries); each caller cuts and cleans as its place needs.
 */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
