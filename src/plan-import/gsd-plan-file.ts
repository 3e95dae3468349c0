/**
 * One GSD PLAN.md (`.planning/phases/01-name/01-02-PLAN.md`): YAML frontmatter (`phase`, `plan`,
 * `depends_on`), an `<objective>`, `<task>` blocks with `<name>`, `<files>`, `<action>`, `<verify>`
 * (with an `<automated>` command) and `<done>`, and a `<verification>` list. Pure.
 */
import { parse as parseYaml } from 'yaml';
import { isRecord, textField, textList } from './imported-plan.js';

export interface GsdTask {
  name: string;
  type: string;
  files: string | undefined;
  /** The `<automated>` command as written (entities decoded), if any. */
  automated: string | undefined;
  /** The `<verify>` text without its `<automated>` part. */
  verifyText: string;
  done: string | undefined;
}

export interface GsdPlanFile {
  /** From the frontmatter's `phase` (`01-foundation` -> `01`), else the caller's guess. */
  phase: string | undefined;
  /** From the frontmatter's `plan` (`02`), if any. */
  plan: string | undefined;
  dependsOn: string[];
  objective: string | undefined;
  tasks: GsdTask[];
  /** The `<verification>` block's text. */
  verification: string;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** `&amp;&amp;` -> `&&`: plans write commands inside XML-like tags. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name.startsWith('#x') || name.startsWith('#X')) return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(Number.parseInt(name.slice(1), 10));
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

function tag(text: string, name: string): string | undefined {
  const match = new RegExp(`<${name}\\b[^>]*>([\\s\\S]*?)</${name}>`, 'i').exec(text);
  return match === null ? undefined : decodeEntities(match[1] ?? '').trim();
}

function frontmatter(text: string): Record<string, unknown> {
  const match = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---\s*(?:\r?\n|$)/.exec(text);
  if (match === null) return {};
  try {
    const value: unknown = parseYaml(match[1] ?? '');
    return isRecord(value) ? value : {};
  } catch {
    return {}; // a broken frontmatter is read as none: the plan's body still counts
  }
}

export function parseGsdPlanFile(text: string): GsdPlanFile {
  const meta = frontmatter(text);
  const phase = textField(meta, 'phase');
  const dependsOn = Array.isArray(meta.depends_on) ? textList(meta.depends_on) : textField(meta, 'depends_on') === undefined ? [] : [textField(meta, 'depends_on') ?? ''];
  const tasks: GsdTask[] = [];
  for (const match of text.matchAll(/<task\b([^>]*)>([\s\S]*?)<\/task>/gi)) {
    const body = match[2] ?? '';
    const verify = /<verify\b[^>]*>([\s\S]*?)<\/verify>/i.exec(body)?.[1] ?? '';
    tasks.push({
      // A checkpoint has no <name>: what it asks a person to look at stands for one.
      name: tag(body, 'name') ?? tag(body, 'what-built') ?? tag(body, 'decision') ?? tag(body, 'action') ?? '',
      type: /\btype\s*=\s*"([^"]*)"/i.exec(match[1] ?? '')?.[1] ?? 'auto',
      files: tag(body, 'files'),
      automated: tag(verify, 'automated'),
      verifyText: decodeEntities(verify.replace(/<automated\b[^>]*>[\s\S]*?<\/automated>/gi, ' ').replace(/<[^>]+>/g, ' ')).replace(/\s+/g, ' ').trim(),
      done: tag(body, 'done'),
    });
  }
  return {
    phase: phase?.trim() === '' ? undefined : phase?.trim(),
    plan: textField(meta, 'plan')?.trim(),
    dependsOn: dependsOn.map((dep) => dep.trim()).filter((dep) => dep !== ''),
    objective: tag(text, 'objective'),
    tasks,
    verification: tag(text, 'verification') ?? '',
  };
}
