/**
 * `debussy run` flags generated from the config schema: every key that has a `flag` gets an
 * option, so a new setting cannot forget its flag, and the flag's value goes through the same
 * validation as the config file.
 */
import type { Command } from 'commander';
// The schema only: the config barrel would load cosmiconfig and yaml for every command.
import type { ConfigOverrides } from '../config/resolve-config.js';
import { CONFIG_KEYS, CONFIG_SCHEMA } from '../config/schema.js';

function optionName(flag: string): string {
  // commander's attribute name: --no-auto-commit -> autoCommit, --context-threshold -> contextThreshold
  const bare = flag.replace(/^--(no-)?/, '');
  return bare.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

export function addConfigFlags(command: Command): Command {
  for (const key of CONFIG_KEYS) {
    const def = CONFIG_SCHEMA[key];
    if (!('flag' in def)) continue;
    if (def.kind === 'boolean') {
      command.option(def.flag, 'flagHelp' in def ? def.flagHelp : def.description);
    } else if (def.kind === 'string[]') {
      // Repeatable: each use adds one item (items such as "Bash(npm run test:*)" hold spaces and commas).
      command.option(`${def.flag} <item>`, `${def.description} Repeatable.`, (item: string, items: string[] | undefined) => [...(items ?? []), item]);
    } else {
      const placeholder = def.kind === 'duration' ? '<duration>' : def.kind === 'size' ? '<size>' : def.kind === 'string' ? '<name>' : '<n>';
      command.option(`${def.flag} ${placeholder}`, def.description);
    }
  }
  return command;
}

export function configOverridesFrom(options: Record<string, unknown>): ConfigOverrides {
  const overrides: ConfigOverrides = {};
  for (const key of CONFIG_KEYS) {
    const def = CONFIG_SCHEMA[key];
    if (!('flag' in def)) continue;
    const value = options[optionName(def.flag)];
    if (value === undefined) continue;
    // commander gives a lone --no-x flag the value true when it is not given: only false is the user's.
    if (def.flag.startsWith('--no-') && value === true) continue;
    overrides[key] = value;
  }
  return overrides;
}
