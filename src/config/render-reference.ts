/**
 * Renders the schema for people: the reference table of docs/configuration.md and the commented
 * config file `debussy init` writes. Both come from CONFIG_SCHEMA, so neither can drift from it.
 */
import path from 'node:path';
import { docFile, packageFile, referenceFrom } from '../install/package-files.js';
import { CONFIG_JSON_SCHEMA_PATH } from './json-schema.js';
import { CONFIG_KEYS, CONFIG_SCHEMA, type ConfigKey, type KeyDefinition } from './schema.js';
import { unitText } from './unit-text.js';

export function displayDefault(def: KeyDefinition): string {
  if (def.default === undefined) return '(unset)';
  return unitText(def.kind, def.default) ?? JSON.stringify(def.default);
}

export function renderReferenceTable(): string {
  const rows = CONFIG_KEYS.map((key: ConfigKey) => {
    const def: KeyDefinition = CONFIG_SCHEMA[key];
    return `| \`${key}\` | \`${displayDefault(def)}\` | ${def.flag ? `\`${def.flag}\`` : '-'} | ${def.description.replace(/\|/g, '\\|')} |`;
  });
  return ['| key | default | flag | meaning |', '|---|---|---|---|', ...rows].join('\n');
}

/** What a generated config file sets explicitly instead of showing the default commented out. */
export interface ConfigFileChoices {
  /** Keys written uncommented, with these values. */
  values?: Partial<Record<ConfigKey, unknown>>;
  /** Comment lines (without the `# `) under a group's header: why the values were chosen. */
  groupNotes?: Partial<Record<KeyDefinition['group'], readonly string[]>>;
}

/** Where the config file's first lines point: the installed package's schema and reference doc. */
export interface ConfigFileLinks {
  schema: string;
  reference: string;
}

/**
 * The links for a config file in `projectRoot`/.debussy: relative when debussy is installed in
 * the project (node_modules), so they hold on every clone; else absolute paths of this install.
 * The YAML language server reads a `$schema` path relative to the file, or absolute.
 */
export function configFileLinks(projectRoot: string): ConfigFileLinks {
  const dir = path.join(projectRoot, '.debussy');
  return {
    schema: referenceFrom(dir, packageFile(CONFIG_JSON_SCHEMA_PATH), projectRoot),
    reference: referenceFrom(dir, docFile('configuration.md'), projectRoot),
  };
}

export function renderConfigFile(choices: ConfigFileChoices, links: ConfigFileLinks): string {
  const lines = [
    // Editors with the YAML language server validate and complete the keys from this schema.
    `# yaml-language-server: $schema=${links.schema}`,
    '# debussy configuration. Every key is shown with its default; uncomment to change.',
    `# Reference: ${links.reference} (\`debussy config\` shows every resolved value).`,
    '# Command-line flags override these values.',
    '',
  ];
  let group = '';
  for (const key of CONFIG_KEYS) {
    const def: KeyDefinition = CONFIG_SCHEMA[key];
    if (def.group !== group) {
      group = def.group;
      lines.push(`# --- ${group} ---`, ...(choices.groupNotes?.[def.group] ?? []).map((note) => `# ${note}`.trimEnd()));
    }
    lines.push(`# ${def.description}${def.flag ? ` (flag: ${def.flag})` : ''}`);
    const chosen = choices.values?.[key];
    if (chosen !== undefined) {
      lines.push(`${key}: ${JSON.stringify(chosen)}`, '');
      continue;
    }
    const value = def.default === undefined ? '' : displayDefault(def);
    lines.push(`# ${key}: ${value}`.trimEnd(), '');
  }
  return lines.join('\n');
}
