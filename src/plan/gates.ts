import { codeSpans, findSections, type MarkdownLine } from './markdown.js';
import type { Gate } from './types.js';

/**
 * A gates section's heading: named Gates, optionally with one qualifier before it and a remark
 * after it: `## Gates`, `## Gates (must pass before completion)`, `### Quality Gates`,
 * `## Gates: all blocking`. A heading that only mentions gates among other words (`# Quality
 * gates for the release pipeline`, `# Missing Gates Phase 1`) names something else.
 */
export function isGatesHeading(text: string): boolean {
  return /^(?:(?:quality|validation|verification|completion|acceptance|phase|required|blocking)\s+)?gates?\s*(?:$|\(.*\)\s*$|[:\-–—]\s*.*$)/i.test(text.trim());
}

const BULLET = /^(\s*)[-*+]\s+(?:\[[ xX]\]\s+)?(.*)$/;
const COMMAND_CLAUSE = /\(?\s*\b(?:command|cmd|run)\s*:\s*(`+)\s*([\s\S]*?)\s*\1\s*\)?/i;
const COMMAND_LABEL = /^\s*(?:command|cmd|run)\s*:\s*/i;
const NO_GATES = /^(?:none|n\/a|nothing)\.?$/i;

/**
 * Gates from every gates section's top-level bullets. A section is one under a heading of level 2
 * or deeper, or an H1 that is not the document's title. A bullet's name is the text before its
 * first colon; its command comes from `(command: \`...\`)`, a fenced code block under the bullet,
 * or the first code span. Nested bullets describe their parent and are not gates.
 */
export function parseGates(lines: MarkdownLine[], gateCommands: Record<string, string> = {}): Gate[] {
  const title = lines.find((line) => line.heading?.level === 1);
  const gates: Gate[] = [];
  // The document's title names the document, never a section within it.
  for (const section of findSections(lines, (text, heading) => heading !== title && isGatesHeading(text))) {
    const bullets = section.body.flatMap((line, index) => {
      const match = line.inFence ? null : BULLET.exec(line.text);
      return match === null ? [] : [{ line, index, indent: (match[1] ?? '').length, content: (match[2] ?? '').trim() }];
    });
    const topIndent = Math.min(...bullets.map((bullet) => bullet.indent));
    const top = bullets.filter((bullet) => bullet.indent <= topIndent + 1 && !NO_GATES.test(bullet.content));
    top.forEach((bullet, position) => {
      const end = top[position + 1]?.index ?? section.body.length;
      const fenced = fencedCommand(section.body.slice(bullet.index + 1, end));
      gates.push(gateFromBullet(bullet.content, bullet.line.number, gateCommands, fenced));
    });
  }
  return gates;
}

/**
 * The command in the first fenced block among a bullet's following lines: its lines without
 * blanks, `#` comments, a `$ ` prompt or a `command:` label, joined with `&&` so every line must pass.
 */
export function fencedCommand(lines: MarkdownLine[]): string | undefined {
  const start = lines.findIndex((line) => line.inFence);
  if (start === -1) return undefined;
  // Under the bullet: indented (or right below it), with only blank or indented lines before it.
  // A block at the margin after a blank line ends the list: it belongs to the section, not the bullet.
  const opening = lines[start]?.text ?? '';
  if (start > 0 && !/^\s/.test(opening)) return undefined;
  if (lines.slice(0, start).some((line) => line.text.trim() !== '' && !/^\s/.test(line.text))) return undefined;
  const body: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (!line.inFence) break;
    body.push(line.text);
  }
  // The last fence line is the closing marker (unless the file ended inside the block).
  if (body.length > 0 && /^\s*(`{3,}|~{3,})\s*$/.test(body[body.length - 1] ?? '')) body.pop();
  const commands = body
    .map((text) => text.trim().replace(COMMAND_LABEL, '').replace(/^\$\s+/, '').trim())
    .filter((text) => text !== '' && !text.startsWith('#'));
  return commands.length === 0 ? undefined : commands.join(' && ');
}

export function gateFromBullet(content: string, line: number, gateCommands: Record<string, string>, fenced?: string): Gate {
  // Bold names (`**tests**:` or `**tests:**`) are common; the markers carry nothing.
  const text = content.replace(/\*\*|__/g, '');
  const named = /^([^:`]{1,60}?)\s*:\s*([\s\S]*)$/.exec(text);
  // `- command: \`npm test\` ➜ passes` labels the command, not the gate: the command names it.
  const label = (named?.[1] ?? '').trim();
  const name = COMMAND_LABEL.test(`${label}:`) ? '' : label;
  const rest = named?.[2] ?? text;

  let command: string | undefined;
  let description = rest;
  const clause = COMMAND_CLAUSE.exec(rest);
  if (clause !== null) {
    command = clause[2];
    description = rest.replace(clause[0], ' ');
  } else if (fenced !== undefined) {
    // A block under the bullet is the command; code spans in the text only describe it.
    command = fenced;
  } else {
    const span = codeSpans(rest)[0];
    if (span !== undefined) {
      // `\`command: npm run build\`` puts the label inside the span; sh would run "command:".
      command = span.content.replace(COMMAND_LABEL, '');
      // A bullet that is only a command (`- lint: \`npm run lint\``) has no description.
      if (rest.trim() === rest.slice(span.index, span.index + span.length).trim()) description = '';
    }
  }
  if (command !== undefined && command.trim() === '') command = undefined;
  description = description.replace(/\s+/g, ' ').replace(/^[\s\-–—:]+|[\s\-–—:]+$/g, '');
  const gateName = name !== '' ? name : (command ?? description);

  if (command !== undefined) return { name: gateName, command, commandSource: 'plan', description, line };
  const configured = configuredCommand(gateCommands, gateName);
  if (configured !== undefined) return { name: gateName, command: configured, commandSource: 'config', description, line };
  return { name: gateName, command: undefined, commandSource: 'none', description, line };
}

function configuredCommand(gateCommands: Record<string, string>, name: string): string | undefined {
  const exact = gateCommands[name];
  if (exact !== undefined) return exact;
  const lower = name.toLowerCase();
  for (const [key, command] of Object.entries(gateCommands)) {
    if (key.toLowerCase() === lower) return command;
  }
  return undefined;
}
