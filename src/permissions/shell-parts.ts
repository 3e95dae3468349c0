/**
 * A command line cut the way Claude Code checks it: each simple command of `a && b | c; d` on its
 * own, with its words, what it redirects its output to, and whether it holds a command
 * substitution (`$(...)`, backticks), which claude cannot check before it runs. Quotes are
 * honoured (`echo "a && b"` is one command). Not a shell parser: enough for the commands of gates. Pure.
 */

export interface CommandPart {
  /** The simple command as written, trimmed. */
  text: string;
  /** Its words, quotes removed, redirections left out. */
  words: string[];
  /** Files its output is redirected to (`> out.txt`, `2>> log`); `/dev/null` and `2>&1` are not files. */
  writes: string[];
  /** `$(...)` or backticks outside single quotes. */
  substitution: boolean;
}

/** The simple commands of a line, in order; empty ones left out. */
export function splitCommandLine(line: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i] ?? '';
    const next = line[i + 1] ?? '';
    if (quote !== undefined) {
      if (ch === '\\' && quote === '"') {
        current += ch + next;
        i += 1;
        continue;
      }
      if (ch === quote) quote = undefined;
      current += ch;
      continue;
    }
    if (ch === '\\') {
      current += ch + next;
      i += 1;
      continue;
    }
    if (ch === '"' || ch === "'") {
      quote = ch;
      current += ch;
      continue;
    }
    // `2>&1`, `>&2`, `&>`: an ampersand next to `>` belongs to a redirection, not a separator.
    const redirectAmp = ch === '&' && (current.endsWith('>') || next === '>');
    if (!redirectAmp && (ch === ';' || ch === '\n' || ch === '|' || ch === '&')) {
      parts.push(current);
      current = '';
      if ((ch === '|' || ch === '&') && next === ch) i += 1;
      continue;
    }
    current += ch;
  }
  parts.push(current);
  return parts.map((part) => part.trim()).filter((part) => part !== '');
}

/** Words of one simple command, quotes removed (`'a b'` is one word). */
function words(text: string): string[] {
  const found: string[] = [];
  let current = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] ?? '';
    if (quote !== undefined) {
      if (ch === quote) quote = undefined;
      else if (ch === '\\' && quote === '"' && i + 1 < text.length) current += text[++i] ?? '';
      else current += ch;
      continue;
    }
    if (ch === '"' || ch === "'") {
      quote = ch;
      inWord = true;
    } else if (ch === '\\' && i + 1 < text.length) {
      current += text[++i] ?? '';
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) found.push(current);
      current = '';
      inWord = false;
    } else {
      current += ch;
      inWord = true;
    }
  }
  if (inWord) found.push(current);
  return found;
}

const REDIRECT = /^(\d*|&)(>>?|<)(.*)$/;

/** One simple command's words, its output files and whether it substitutes a command. */
export function describePart(text: string): CommandPart {
  const all = words(text);
  const kept: string[] = [];
  const writes: string[] = [];
  for (let i = 0; i < all.length; i++) {
    const word = all[i] ?? '';
    const redirect = REDIRECT.exec(word);
    if (redirect === null) {
      kept.push(word);
      continue;
    }
    const [, , operator, rest] = redirect;
    const target = rest !== '' ? (rest ?? '') : (all[++i] ?? '');
    if (operator === '<' || target.startsWith('&') || target === '/dev/null') continue;
    writes.push(target);
  }
  const unquotedSingle = text.replace(/'[^']*'/g, "''");
  return { text, words: kept, writes, substitution: /\$\(|`/.test(unquotedSingle) };
}

/** Every simple command of a line, described. */
export function commandLineParts(line: string): CommandPart[] {
  return splitCommandLine(line).map(describePart);
}
