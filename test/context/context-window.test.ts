import { describe, expect, it } from 'vitest';
import { contextWindowFor } from '../../src/context/index.js';

describe('contextWindowFor', () => {
  it.each<[string | undefined, number | undefined, number | undefined]>([
    ['claude-opus-4-8[1m]', undefined, 1_000_000],
    ['claude-sonnet-4-5[1M]', undefined, 1_000_000],
    ['opus', undefined, 200_000],
    ['sonnet', undefined, 200_000],
    ['haiku', undefined, 200_000],
    ['claude-sonnet-4-5', undefined, 200_000],
    ['claude-opus-4-8', undefined, 200_000],
    ['claude-opus-5-5', undefined, 1_000_000],
    ['claude-sonnet-5-5', undefined, 1_000_000],
    ['claude-haiku-5-5-20261101', undefined, 1_000_000],
    ['claude-sonnet-5', undefined, 200_000],
    ['claude-opus-5-55', undefined, 200_000],
    ['gpt-4o', undefined, undefined],
    ['<synthetic>', undefined, undefined],
    [undefined, undefined, undefined],
    ['gpt-4o', 128_000, 128_000],
    ['claude-opus-4-8[1m]', 300_000, 300_000],
    [undefined, 50_000, 50_000],
    ['sonnet', 0, 200_000],
  ])('%s (override %s) -> %s', (model, override, expected) => {
    expect(contextWindowFor(model, override)).toBe(expected);
  });
});
