/** Values with a unit as the config file writes them (45m, 5MB), for docs, `debussy config` and the JSON Schema. Pure. */
import { formatConfigDuration } from './duration.js';
import type { ValueKind } from './schema.js';
import { formatConfigSize } from './size.js';

/** A duration's or a size's text; undefined for a value of another kind (the caller writes it as JSON). */
export function unitText(kind: ValueKind, value: unknown): string | undefined {
  if (typeof value !== 'number') return undefined;
  if (kind === 'duration') return formatConfigDuration(value);
  if (kind === 'size') return formatConfigSize(value);
  return undefined;
}
