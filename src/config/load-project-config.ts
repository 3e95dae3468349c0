/** Loads and resolves the configuration for a project, throwing one ConfigError with every problem. */
import { ConfigError } from '../errors/index.js';
import { docFile } from '../install/package-files.js';
import { loadConfigFile } from './load-config-file.js';
import { resolveConfig, type ConfigOverrides, type ResolvedConfig } from './resolve-config.js';

export async function loadProjectConfig(projectRoot: string, flags: ConfigOverrides = {}, explicitPath?: string): Promise<ResolvedConfig> {
  const loaded = await loadConfigFile(projectRoot, explicitPath);
  const resolved = resolveConfig({ file: loaded.file, raw: loaded.raw, flags });
  if (resolved.errors.length > 0) {
    const [first, ...rest] = resolved.errors;
    const more = rest.length > 0 ? `\n${rest.map((line) => `error: ${line}`).join('\n')}` : '';
    throw new ConfigError(`${first ?? 'invalid configuration'}${more}`, `Fix the value (see \`debussy config\` and ${docFile('configuration.md')}).`);
  }
  return resolved;
}
