/**
 * A small line scanner for the parts of markdown plans use: headings, fenced code, sections,
 * links and code spans. Plans are read line by line, so a full markdown parser would only add a
 * dependency and hide line numbers.
 */

export interface MarkdownLine {
  /** The line without its line ending. */
  text: string;
  /** 1-based line number. */
  number: number;
  /** True for fence lines and everything between them: never read as structure. */
  inFence: boolean;
  heading: { level: number; text: string } | undefined;
}

const FENCE_OPEN = /^\s*(`{3,}|~{3,})(.*)$/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$/;

export function scanMarkdown(text: string): MarkdownLine[] {
  const rawLines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const lines: MarkdownLine[] = [];
  let fence: { char: string; length: number } | undefined;
  rawLines.forEach((raw, index) => {
    const number = index + 1;
    const fenceMatch = FENCE_OPEN.exec(raw);
    if (fence !== undefined) {
      // A closing fence uses the same character, at least as many, and nothing after it.
      const marker = fenceMatch?.[1];
      if (marker !== undefined && marker[0] === fence.char && marker.length >= fence.length && fenceMatch?.[2]?.trim() === '') {
        fence = undefined;
      }
      lines.push({ text: raw, number, inFence: true, heading: undefined });
      return;
    }
    const marker = fenceMatch?.[1];
    // A backtick fence's info string cannot itself contain a backtick (that is inline code).
    if (marker !== undefined && !(marker[0] === '`' && (fenceMatch?.[2] ?? '').includes('`'))) {
      fence = { char: marker[0] ?? '`', length: marker.length };
      lines.push({ text: raw, number, inFence: true, heading: undefined });
      return;
    }
    lines.push({ text: raw, number, inFence: false, heading: parseHeading(raw) });
  });
  return lines;
}

function parseHeading(raw: string): MarkdownLine['heading'] {
  const match = HEADING.exec(raw);
  const hashes = match?.[1];
  if (match === null || hashes === undefined) return undefined;
  const text = (match[2] ?? '').replace(/[ \t]+#+$/, '').trim();
  return { level: hashes.length, text };
}

export interface MarkdownSection {
  heading: MarkdownLine;
  /** Lines after the heading up to the next heading of the same or a higher level. */
  body: MarkdownLine[];
}

/** Every section whose heading satisfies `matches` (given its text without inline markup, and its line). */
export function findSections(lines: MarkdownLine[], matches: (headingText: string, heading: MarkdownLine) => boolean): MarkdownSection[] {
  const sections: MarkdownSection[] = [];
  let current: MarkdownSection | undefined;
  for (const line of lines) {
    const heading = line.heading;
    if (current !== undefined && heading !== undefined && heading.level <= (current.heading.heading?.level ?? 0)) {
      sections.push(current);
      current = undefined;
    }
    if (current === undefined && heading !== undefined && matches(stripInlineMarkup(heading.text), line)) {
      current = { heading: line, body: [] };
      continue;
    }
    current?.body.push(line);
  }
  if (current !== undefined) sections.push(current);
  return sections;
}

/** Drops bold/italic markers and code-span backticks; keeps the words. */
export function stripInlineMarkup(text: string): string {
  let result = text.replace(/\*\*|__|`/g, '').trim();
  const italic = /^[*_](.*)[*_]$/.exec(result);
  if (italic?.[1] !== undefined) result = italic[1].trim();
  return result;
}

export interface MarkdownLink {
  text: string;
  /** The target as written, without a `#fragment` or title. */
  target: string;
  index: number;
  length: number;
}

const LINK = /(?<!!)\[([^\]]*)\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g;

export function findLinks(text: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  for (const match of text.matchAll(LINK)) {
    const target = (match[2] ?? '').replace(/#.*$/, '');
    links.push({ text: (match[1] ?? '').trim(), target, index: match.index, length: match[0].length });
  }
  return links;
}

/** A link to a file next to the plan, not a web page or an anchor in the same document. */
export function isLocalFileLink(link: MarkdownLink): boolean {
  return link.target !== '' && !/^[a-z][a-z0-9+.-]*:/i.test(link.target);
}

/** Replaces each link with what `replacement` returns for it (its text by default). */
export function replaceLinks(text: string, replacement: (link: MarkdownLink) => string = (link) => link.text): string {
  let result = '';
  let position = 0;
  for (const link of findLinks(text)) {
    result += text.slice(position, link.index) + replacement(link);
    position = link.index + link.length;
  }
  return result + text.slice(position);
}

/** The contents of each `code span` in the text, in order. */
export function codeSpans(text: string): { content: string; index: number; length: number }[] {
  const spans: { content: string; index: number; length: number }[] = [];
  for (const match of text.matchAll(/(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g)) {
    spans.push({ content: (match[2] ?? '').trim(), index: match.index, length: match[0].length });
  }
  return spans;
}

/** Link targets are URL-ish: `my%20phase.md` names `my phase.md`. */
export function decodeLinkTarget(target: string): string {
  try {
    return decodeURIComponent(target);
  } catch {
    return target;
  }
}
