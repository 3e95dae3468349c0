import { codeSpans, type MarkdownLine } from './markdown.js';
import { unique } from './phase-ids.js';

// "Write `notes/NOTES_x.md`", "Write your notes to `HANDOFF.md`": a few words may sit between.
const WRITE = /\bwrite\b([^`\n]{0,40}?)`([^`]+)`/gi;
// "Read previous notes: `a.md`, `b.md`": every code span after the phrase is a notes file.
const READ = /\bread\b[^`\n]{0,60}?\bnotes?\b/i;

/**
 * Notes files the phase is told to write. "Write `x`" alone could be any file, so the path or
 * the words before it must mention notes.
 */
export function notesToWrite(lines: MarkdownLine[]): string[] {
  const paths: string[] = [];
  for (const line of lines) {
    if (line.inFence) continue;
    for (const match of line.text.matchAll(WRITE)) {
      const between = match[1] ?? '';
      const path = (match[2] ?? '').trim();
      if (/notes?/i.test(between) || /notes?/i.test(path)) paths.push(path);
    }
  }
  return unique(paths);
}

/** Notes files the phase is told to read first. */
export function notesToRead(lines: MarkdownLine[]): string[] {
  const paths: string[] = [];
  for (const line of lines) {
    if (line.inFence) continue;
    const phrase = READ.exec(line.text);
    if (phrase === null) continue;
    const after = line.text.slice(phrase.index + phrase[0].length);
    for (const span of codeSpans(after)) {
      if (/[./]/.test(span.content)) paths.push(span.content);
    }
  }
  return unique(paths);
}
