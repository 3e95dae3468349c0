/** Finds and reads the project's config file with cosmiconfig. Reading only: no validation here. */
import path from 'node:path';
import { cosmiconfig } from 'cosmiconfig';
import YAML from 'yaml';
import { ConfigError } from '../errors/index.js';

export const CONFIG_SEARCH_PLACES = [
  '.debussy/config.yaml',
  '.debussy/config.yml',
  '.debussyrc',
  '.debussyrc.json',
  '.debussyrc.yaml',
  '.debussyrc.yml',
  'debussy.config.json',
  'package.json',
] as const;

export interface LoadedConfigFile {
  /** Absolute path; undefined when no file was found. */
  file: string | undefined;
  raw: unknown;
}

function yamlLoader(filepath: string, content: string): unknown {
  try {
    return YAML.parse(content, { prettyErrors: true });
  } catch (error) {
    const detail = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new ConfigError(`${filepath}: not valid YAML: ${detail}`, 'Fix the syntax (or run `debussy init --force` for a fresh file).');
  }
}

function explorer() {
  return cosmiconfig('debussy', {
    searchPlaces: [...CONFIG_SEARCH_PLACES],
    searchStrategy: 'none',
    loaders: { '.yaml': yamlLoader, '.yml': yamlLoader, noExt: yamlLoader },
    cache: false,
  });
}

export async function loadConfigFile(projectRoot: string, explicitPath?: string): Promise<LoadedConfigFile> {
  try {
    const found = explicitPath
      ? await explorer().load(path.resolve(explicitPath))
      : await explorer().search(projectRoot);
    if (!found) return { file: undefined, raw: undefined };
    return { file: found.filepath, raw: found.isEmpty ? {} : found.config };
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && explicitPath) {
      throw new ConfigError(`config file not found: ${explicitPath}`, 'Check the --config path.');
    }
    const detail = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new ConfigError(`could not read the config file: ${detail}`, 'Fix the file, or move it aside to use the defaults.');
  }
}
