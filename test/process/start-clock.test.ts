/** startedAtOrAfter: which processes a marker search may skip, in each clock, with its slack. */
import { describe, expect, it } from 'vitest';
import { startedAtOrAfter } from '../../src/process/start-clock.js';

describe('startedAtOrAfter', () => {
  it.each([
    // No bound: nothing can be ruled out.
    [376651, undefined, true],
    [1795464849000, undefined, true],
    // Ticks: exact, the same tick included.
    [376651, 376651, true],
    [376652, 376651, true],
    [376650, 376651, false],
    [0, 376651, false],
    // Epoch milliseconds (whole seconds from ps): a second of slack between two ps runs.
    [1795464849000, 1795464849000, true],
    [1795464850000, 1795464849000, true],
    [1795464848000, 1795464849000, true],
    [1795464847000, 1795464849000, false],
    [1795464847999, 1795464849000, false],
    // A bound in the other clock cannot be compared: searched.
    [376651, 1795464849000, true],
    [1795464849000, 376651, true],
  ])('started at %d, bound %s: %s', (observed, bound, expected) => {
    expect(startedAtOrAfter(observed, bound)).toBe(expected);
  });
});
