/**
 * Resolves the configuration: defaults < config file < command-line flags. Returns problems
 * instead of throwing, so callers can print every one of them at once.
 */
import { redactSecrets } from '../redact/index.js';
import { closestName } from './suggest.js';
import { CONFIG_KEYS, CONFIG_SCHEMA, defaultConfig, type ConfigKey, type DebussyConfig, type KeyDefinition } from './schema.js';
import { allowedText, checkValue } from './validate.js';

export type ValueSource = 'default' | 'file' | 'flag';

export interface ResolvedConfig {
  config: DebussyConfig;
  sources: Record<ConfigKey, ValueSource>;
  file: string | undefined;
  warnings: string[];
  errors: string[];
}

export type ConfigOverrides = Partial<Record<ConfigKey, unknown>>;

function isConfigKey(name: string): name is ConfigKey {
  return Object.prototype.hasOwnProperty.call(CONFIG_SCHEMA, name);
}

/**
 * A value (or a key) quoted in a problem, redacted: a key pasted in the wrong place must not be
 * printed back. Only the formats redaction knows on their own (no environment), so this stays
 * pure; printError redacts again against the environment.
 */
function show(value: unknown, def?: KeyDefinition): string {
  // A URL that does not read as one cannot be redacted as one: its credentials are not found.
  if (def?.url === true) return 'the value (not shown: a URL can hold a credential)';
  return redactSecrets(typeof value === 'string' ? `"${value}"` : JSON.stringify(value) ?? String(value), {});
}

export function resolveConfig(input: { file: string | undefined; raw: unknown; flags?: ConfigOverrides }): ResolvedConfig {
  const config = defaultConfig() as unknown as Record<ConfigKey, unknown>;
  const sources = Object.fromEntries(CONFIG_KEYS.map((key) => [key, 'default'])) as Record<ConfigKey, ValueSource>;
  const warnings: string[] = [];
  const errors: string[] = [];
  const where = input.file ?? 'the config';

  if (input.raw !== undefined && input.raw !== null) {
    if (typeof input.raw !== 'object' || Array.isArray(input.raw)) {
      errors.push(`${where}: expected a map of settings (key: value), found ${Array.isArray(input.raw) ? 'a list' : typeof input.raw}`);
    } else {
      for (const [name, raw] of Object.entries(input.raw as Record<string, unknown>)) {
        if (!isConfigKey(name)) {
          const suggestion = closestName(name, CONFIG_KEYS);
          warnings.push(`${where}: unknown key ${show(name)}${suggestion ? ` (did you mean "${suggestion}"?)` : ''}; it is ignored`);
          continue;
        }
        const checked = checkValue(CONFIG_SCHEMA[name], raw);
        if (checked.ok) {
          config[name] = checked.value;
          sources[name] = 'file';
        } else {
          errors.push(`${where}: ${name}: ${show(raw, CONFIG_SCHEMA[name])} is not allowed: ${checked.problem}`);
        }
      }
    }
  }

  for (const [name, raw] of Object.entries(input.flags ?? {})) {
    if (raw === undefined || !isConfigKey(name)) continue;
    const def = CONFIG_SCHEMA[name];
    const checked = checkValue(def, raw);
    const flag = 'flag' in def ? def.flag : `--${name}`;
    if (checked.ok) {
      config[name] = checked.value;
      sources[name] = 'flag';
    } else {
      errors.push(`${flag} ${show(raw, def)} is not allowed: expected ${allowedText(def)}`);
    }
  }

  return { config: config as unknown as DebussyConfig, sources, file: input.file, warnings, errors };
}
