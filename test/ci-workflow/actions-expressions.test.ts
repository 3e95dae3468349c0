/** The local runner's expressions: what the generated workflows use, read as GitHub reads it. */
import { describe, expect, it } from 'vitest';
import { condition, evaluate, interpolate, type ExpressionContext } from './actions-expressions.js';

const context: ExpressionContext = {
  contexts: { inputs: { run_branch: '' }, github: { ref_name: 'main' }, steps: { prepare: { outputs: { complete: 'false' } } }, env: { X: 'x' } },
  status: { success: false, failure: true },
};

describe('actions expressions (local runner)', () => {
  it.each([
    ['inputs.run_branch || github.ref_name', 'main'],
    ["'dev' || github.ref_name", 'dev'],
    ["steps.prepare.outputs.complete == 'false'", true],
    ["steps.prepare.outputs.complete != 'false'", false],
    ["always() && steps.prepare.outputs.complete == 'false'", true],
    ["success() && steps.prepare.outputs.complete == 'false'", false],
    ['!cancelled()', true],
    ['(failure() || success()) && env.X', 'x'],
    ['steps.missing.outputs.complete', null],
  ])('%s -> %j', (expression, value) => {
    expect(evaluate(expression, context)).toEqual(value);
  });

  it('interpolates, and a missing if: is success()', () => {
    expect(interpolate('debussy-${{ inputs.run_branch || github.ref_name }}/${{ env.X }}', context)).toBe('debussy-main/x');
    expect(condition(undefined, context)).toBe(false);
    expect(condition('${{ always() }}', context)).toBe(true);
  });

  it('throws on what it does not know, rather than guess', () => {
    expect(() => evaluate("contains(github.ref_name, 'm')", context)).toThrow(/not supported/);
    expect(() => evaluate('github.ref_name > 1', context)).toThrow(/not supported/);
  });
});
