/**
 * Text is cut for people (one line of a log, a tool summary, a preview) only after it is redacted:
 * a secret cut first would lose the end a pattern needs (`ghp_` and 20 characters, an env value
 * whole) and its first characters would be shown. Every cut of text that can hold a secret goes
 * through here, or works on text that went through a redactor whole.
 */
import type { Redactor } from './redact-secrets.js';

/** `text` cut to at most `max` characters, ending with `ellipsis` when cut. For text already redacted. */
export function cutText(text: string, max: number, ellipsis = '...'): string {
  return text.length > max ? `${text.slice(0, Math.max(0, max - ellipsis.length))}${ellipsis}` : text;
}

/**
 * The last `max` characters of `text`, starting at a line (or, in one long line, a word): a cut
 * through a secret would keep its end, which no redactor recognises. For text redacted later.
 */
export function tailText(text: string, max: number): string {
  if (text.length <= max) return text;
  const tail = text.slice(-max);
  const newline = tail.indexOf('\n');
  if (newline !== -1) return tail.slice(newline + 1);
  const space = tail.search(/\s/);
  return space === -1 ? '' : tail.slice(space + 1);
}

/** Redacts the whole of `text`, then cuts it to at most `max` characters. */
export function redactThenCut(text: string, max: number, redact: Redactor): string {
  return cutText(redact(text), max);
}
