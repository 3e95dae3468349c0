/** Checks one raw value against its schema entry. Pure: returns the value or a message. */
import { parseDuration } from './duration.js';
import { parseSize } from './size.js';
import type { KeyDefinition } from './schema.js';

export type Checked = { ok: true; value: unknown } | { ok: false; problem: string };

function describeAllowed(def: KeyDefinition): string {
  switch (def.kind) {
    case 'number':
    case 'integer': {
      const noun = def.kind === 'integer' ? 'a whole number' : 'a number';
      if (def.min !== undefined && def.max !== undefined) return `${noun} from ${def.min} to ${def.max}`;
      if (def.min !== undefined) return `${noun} of at least ${def.min}`;
      return noun;
    }
    case 'boolean':
      return 'true or false';
    case 'string':
      if (def.url === true) return 'an http:// or https:// URL';
      return def.choices ? `one of ${def.choices.join(', ')}` : 'a string';
    case 'string[]':
      return 'a list of strings';
    case 'record':
      return 'a map of names to strings';
    case 'duration':
      return 'a duration such as 90s, 45m or 2h (a bare number means seconds)';
    case 'size':
      return 'a size such as 5MB, 500KB or 1GB (a bare number means bytes)';
  }
}

export function allowedText(def: KeyDefinition): string {
  return describeAllowed(def);
}

export function checkValue(def: KeyDefinition, raw: unknown): Checked {
  const bad = (): Checked => ({ ok: false, problem: `expected ${describeAllowed(def)}` });
  if (raw === null || raw === undefined) {
    return def.default === undefined ? { ok: true, value: undefined } : bad();
  }
  switch (def.kind) {
    case 'number':
    case 'integer': {
      const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
      if (typeof value !== 'number' || !Number.isFinite(value)) return bad();
      if (def.kind === 'integer' && !Number.isInteger(value)) return bad();
      if (def.min !== undefined && value < def.min) return bad();
      if (def.max !== undefined && value > def.max) return bad();
      return { ok: true, value };
    }
    case 'boolean': {
      if (typeof raw === 'boolean') return { ok: true, value: raw };
      if (raw === 'true' || raw === 'false') return { ok: true, value: raw === 'true' };
      return bad();
    }
    case 'string': {
      if (typeof raw !== 'string' || raw.trim() === '') return bad();
      if (def.choices && !def.choices.includes(raw)) return bad();
      if (def.url === true && !isHttpUrl(raw)) return bad();
      return { ok: true, value: raw };
    }
    case 'string[]': {
      if (!Array.isArray(raw) || !raw.every((item) => typeof item === 'string')) return bad();
      return { ok: true, value: [...(raw)] };
    }
    case 'record': {
      if (typeof raw !== 'object' || Array.isArray(raw)) return bad();
      const entries = Object.entries(raw as Record<string, unknown>);
      if (!entries.every(([, v]) => typeof v === 'string' && v.trim() !== '')) return bad();
      return { ok: true, value: Object.fromEntries(entries) };
    }
    case 'duration': {
      const ms = parseDuration(raw);
      if (ms === undefined) return bad();
      if (def.min !== undefined && ms < def.min) return bad();
      return { ok: true, value: ms };
    }
    case 'size': {
      const bytes = parseSize(raw);
      return bytes === undefined ? bad() : { ok: true, value: bytes };
    }
  }
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text.trim());
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
