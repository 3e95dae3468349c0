/**
 * The config file's JSON Schema accepts what `debussy init` writes (as written, and with every
 * default uncommented), rejects bad values, and agrees with debussy's own validation on a table of
 * values per kind. Validated with ajv, as editors do with the yaml-language-server.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import YAML from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { CONFIG_JSON_SCHEMA_PATH, CONFIG_KEYS, CONFIG_SCHEMA, renderConfigJsonSchema, type ConfigKey } from '../../src/config/index.js';
import { checkValue } from '../../src/config/validate.js';
import { debussy, initRepo, REPO_ROOT, tempDir } from '../cli/cli-harness.js';

const schema = JSON.parse(readFileSync(path.join(REPO_ROOT, CONFIG_JSON_SCHEMA_PATH), 'utf8')) as Record<string, unknown>;
const validate = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true }).compile(schema);

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

async function initConfigText(): Promise<string> {
  const project = tempDir('debussy-schema-');
  cleanups.push(() => project.cleanup());
  initRepo(project.dir);
  const result = await debussy(['init'], { cwd: project.dir });
  expect(result.code, result.stderr).toBe(0);
  return readFileSync(path.join(project.dir, '.debussy', 'config.yaml'), 'utf8');
}

describe('the config JSON Schema', () => {
  it('is the shipped file, generated from the config schema', () => {
    expect(schema).toEqual(renderConfigJsonSchema());
  });

  it('validates the file debussy init writes, which names it for editors', async () => {
    const text = await initConfigText();
    // The project is outside this checkout, so the path is absolute: this installation's shipped copy.
    expect(text.split('\n')[0]).toBe(`# yaml-language-server: $schema=${path.join(REPO_ROOT, CONFIG_JSON_SCHEMA_PATH)}`);
    expect(text.split('\n')[2]).toBe(`# Reference: ${path.join(REPO_ROOT, 'docs', 'configuration.md')} (\`debussy config\` shows every resolved value).`);
    const ok = validate(YAML.parse(text));
    expect(validate.errors ?? [], 'the file init writes').toEqual([]);
    expect(ok).toBe(true);

    // Every commented default, uncommented, is valid too.
    const uncommented = text.replace(/^# ([a-z_]+):(.*)$/gm, '$1:$2');
    const all = YAML.parse(uncommented) as Record<string, unknown>;
    expect(Object.keys(all).length).toBe(CONFIG_KEYS.length);
    validate(all);
    expect(validate.errors ?? []).toEqual([]);
  });

  it.each([
    ['context_threshold', 150],
    ['context_threshold', 'high'],
    ['permission_mode', 'yolo'],
    ['max_retries', 1.5],
    ['stall_timeout', 'soon'],
    ['gates', { test: '' }],
    ['auto_commit', 'maybe'],
    ['allowed_tools', 'Bash'],
    ['context_thresold', 70],
  ])('rejects %s: %j in the file init writes', async (key, value) => {
    const config = YAML.parse(await initConfigText()) as Record<string, unknown>;
    config[key] = value;
    expect(validate(config)).toBe(false);
    expect(JSON.stringify(validate.errors)).toContain(key in CONFIG_SCHEMA ? `/${key}` : key);
  });

  // The schema and debussy's own check agree (where the schema can express the rule).
  const samples: Record<string, unknown[]> = {
    number: [1, 80, 100, 0, 101, 'x', true],
    integer: [0, 3, 1.5, -1, 'three'],
    boolean: [true, false, 'maybe', 1],
    string: ['sonnet', '', '   ', 3],
    'string[]': [[], ['a', 'b c'], [1], 'a'],
    record: [{}, { test: 'npm test' }, { test: '' }, ['npm test']],
    duration: ['90s', '45m', '2h', '1500ms', 600, 'soon', '-1s', [1]],
    size: ['5MB', '500 kb', '1.5GB', '512k', '2MiB', '100B', 0, 5242880, 1.5, -1, 'huge', '-1MB', '5TB', [1]],
  };
  const cases = CONFIG_KEYS.flatMap((key: ConfigKey) => (samples[CONFIG_SCHEMA[key].kind] ?? []).map((value) => [key, value] as const));
  it.each(cases)('agrees with debussy on %s: %j', (key, value) => {
    const def = CONFIG_SCHEMA[key];
    const debussyAccepts = checkValue(def, value).ok;
    // YAML 'true'/'false' strings and text durations below a minimum are debussy's to judge alone.
    if (def.kind === 'boolean' && typeof value === 'string') return;
    if (def.kind === 'duration' && typeof value === 'string' && debussyAccepts === false && /^\d/.test(value)) return;
    expect(validate({ [key]: value }), `${key}: ${JSON.stringify(value)}`).toBe(debussyAccepts);
  });
});
