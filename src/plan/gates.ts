import { codeSpans, findSections, type MarkdownLine } from './markdown.js';
import type { Gate } from './types.js';

/** `## Gates`, `## Gates (must pass before completion)`, `## Quality Gates`, `### Gate`. */
export function isGatesHeading(text: string): boolean {
  return /^(?:[\w-]+\s+)?gates?\b/i.test(text);
}

const BULLET = /^(\s*)[-*+]\s+(?:\[[ xX]\]\s+)?(.*)$/;
const COMMAND_CLAUSE = /\(?\s*\b(?:command|cmd|run)\s*:\s*(`+)\s*([\s\S]*?)\s*\1\s*\)?/i;
const NO_GATES = /^(?:none|n\/a|nothing)\.?$/i;

/**
 * Gates from every gates section's top-level bullets. A bullet's name is the text before its
 * first colon; its command comes from `(command: \`...\`)` or the first code span. Nested
 * bullets describe their parent and are not gates.
 */
export function parseGates(lines: MarkdownLine[], gateCommands: Record<string, string> = {}): Gate[] {
  const gates: Gate[] = [];
  for (const section of findSections(lines, isGatesHeading)) {
    const bullets = section.body.flatMap((line) => {
      const match = line.inFence ? null : BULLET.exec(line.text);
      return match === null ? [] : [{ line, indent: (match[1] ?? '').length, content: (match[2] ?? '').trim() }];
    });
    const topIndent = Math.min(...bullets.map((bullet) => bullet.indent));
    for (const bullet of bullets) {
      if (bullet.indent > topIndent + 1 || NO_GATES.test(bullet.content)) continue;
      gates.push(gateFromBullet(bullet.content, bullet.line.number, gateCommands));
    }
  }
  return gates;
}

export function gateFromBullet(content: string, line: number, gateCommands: Record<string, string>): Gate {
  // Bold names (`**tests**:` or `**tests:**`) are common; the markers carry nothing.
  const text = content.replace(/\*\*|__/g, '');
  const named = /^([^:`]{1,60}?)\s*:\s*([\s\S]*)$/.exec(text);
  const name = (named?.[1] ?? '').trim();
  const rest = named?.[2] ?? text;

  let command: string | undefined;
  let description = rest;
  const clause = COMMAND_CLAUSE.exec(rest);
  if (clause !== null) {
    command = clause[2];
    description = rest.replace(clause[0], ' ');
  } else {
    const span = codeSpans(rest)[0];
    if (span !== undefined) {
      command = span.content;
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
