/**
 * The JSON Schema of `.debussy/config.yaml`, generated from CONFIG_SCHEMA so editors validate and
 * complete the same keys, types, bounds and choices debussy itself checks. Written to
 * schema/config.schema.json by `npm run docs`, shipped in the package, and named by the
 * `# yaml-language-server: $schema=...` line of the file `debussy init` writes: as a path to the
 * installed package's copy (render-reference.ts), which works offline and matches the installed
 * version, rather than a web address.
 */
import { CONFIG_KEYS, CONFIG_SCHEMA, type KeyDefinition } from './schema.js';
import { unitText } from './unit-text.js';

/** The schema's path inside the package. */
export const CONFIG_JSON_SCHEMA_PATH = 'schema/config.schema.json';

type JsonSchema = Record<string, unknown>;

// What parseDuration reads: 90s, 45m, 2h, 1500ms, or a bare number of seconds.
const DURATION_PATTERN = '^\\s*\\d+(\\.\\d+)?\\s*([mM][sS]|[sSmMhH])?\\s*$';
// What parseSize reads: 5MB, 500KB, 1.5GB, 512k, 2MiB, or a bare number of bytes.
const SIZE_PATTERN = '^\\s*\\d+(\\.\\d+)?\\s*([kKmMgG]([iI]?[bB])?|[bB])?\\s*$';

function valueSchema(def: KeyDefinition): JsonSchema {
  const bounds = (scale = 1): JsonSchema => ({
    ...(def.min === undefined ? {} : { minimum: def.min / scale }),
    ...(def.max === undefined ? {} : { maximum: def.max / scale }),
  });
  switch (def.kind) {
    case 'number':
      return { type: 'number', ...bounds() };
    case 'integer':
      return { type: 'integer', ...bounds() };
    case 'boolean':
      return { type: 'boolean' };
    case 'string':
      if (def.url === true) return { type: 'string', pattern: '^\\s*[hH][tT][tT][pP][sS]?://' };
      return def.choices ? { type: 'string', enum: [...def.choices] } : { type: 'string', minLength: 1, pattern: '\\S' };
    case 'string[]':
      return { type: 'array', items: { type: 'string' } };
    case 'record':
      return { type: 'object', additionalProperties: { type: 'string', minLength: 1, pattern: '\\S' } };
    case 'duration':
      // A bare number is seconds; the minimum of a text duration is checked by debussy (`debussy config`).
      return { anyOf: [{ type: 'number', ...bounds(1000) }, { type: 'string', pattern: DURATION_PATTERN }] };
    case 'size':
      return { anyOf: [{ type: 'integer', minimum: 0 }, { type: 'string', pattern: SIZE_PATTERN }] };
  }
}

function keySchema(def: KeyDefinition): JsonSchema {
  const value = valueSchema(def);
  // A key with no default may be written empty (`model:`), which means "not set".
  const schema: JsonSchema = def.default === undefined ? { anyOf: [value, { type: 'null' }] } : { ...value };
  schema.description = `${def.description}${def.flag ? ` (flag: ${def.flag})` : ''}`;
  if (def.default !== undefined) schema.default = unitText(def.kind, def.default) ?? def.default;
  return schema;
}

export function renderConfigJsonSchema(): JsonSchema {
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'debussy configuration (.debussy/config.yaml)',
    description: "Generated from debussy's config schema; reference: docs/configuration.md in the debussy package",
    type: ['object', 'null'],
    // debussy ignores an unknown key with a warning; an editor marks it, which catches typos early.
    additionalProperties: false,
    properties: Object.fromEntries(CONFIG_KEYS.map((key) => [key, keySchema(CONFIG_SCHEMA[key])])),
  };
}

/** The file's text as `npm run docs` writes it. */
export function renderConfigJsonSchemaFile(): string {
  return `${JSON.stringify(renderConfigJsonSchema(), null, 2)}\n`;
}
