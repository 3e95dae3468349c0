import { describe, expect, it } from 'vitest';
import type { Checkpoint } from '../../src/checkpoint/index.js';
import { renderCheckpoint } from '../../src/prompt/restart-prompt.js';
import { condenseCheckpoint, condenseCheckpointBy, isEssential, shortenLine } from '../../src/recovery/index.js';

/** A checkpoint as a long phase produces it: many progress notes, files, activity and commits. */
function realisticCheckpoint(): Checkpoint {
  const files = [
    'src/api/users.ts', 'src/api/orders.ts', 'src/api/payments.ts', 'src/api/index.ts', 'src/db/schema.ts', 'src/db/migrations/0004_orders.sql',
    'src/db/migrations/0005_payments.sql', 'src/db/client.ts', 'src/auth/session.ts', 'src/auth/tokens.ts', 'test/api/users.test.ts',
    'test/api/orders.test.ts', 'test/api/payments.test.ts', 'test/db/schema.test.ts', 'docs/api.md', 'README.md', 'package.json',
  ];
  return {
    phaseId: '4',
    phaseTitle: 'Orders and payments API',
    sessionNumber: 3,
    reason: 'the previous session hit a context overflow: Prompt is too long · the request is ~250000 tokens (limit 200000)',
    progress: [
      'Read the phase file and the existing API layout; the project uses a small router and plain SQL migrations, which keeps things simple enough for now.',
      'Added the orders table in `src/db/migrations/0004_orders.sql` with a foreign key to users.',
      'Spent some time looking around the codebase to understand the conventions used by the other endpoints and how they are tested in general.',
      'Implemented `createOrder()` and `listOrders()` in src/api/orders.ts.',
      'Decided to keep money as integer cents instead of floats because rounding broke the totals test.',
      'Wrote tests for the orders endpoints; all of them pass locally after a couple of small fixes to the fixtures and the test setup.',
      'Error: `npm test` failed with TypeError: cannot read properties of undefined (reading id) in test/api/payments.test.ts; fixed by seeding a user first.',
      'Cleaned up a few things here and there, tidied some naming, and reorganised the imports so they read more naturally.',
      'Added the payments migration `0005_payments.sql` and the `Payment` type in src/db/schema.ts.',
      'Started on refunds: `refundPayment()` is stubbed in src/api/payments.ts and still returns 501.',
    ],
    changedFiles: files,
    diffSummary: [...files.map((f, i) => `M ${f.padEnd(40)} | +${10 + i * 3} -${i}`), `${files.length} files changed, 612 insertions(+), 136 deletions(-)`].join('\n'),
    lastActivity: [
      'Read src/api/index.ts',
      'I will now look at how the existing endpoints register their routes so that the new ones follow the same pattern and nothing surprising happens later.',
      'Bash: npm test -- test/api/orders.test.ts',
      'Edit src/api/orders.ts',
      'tool error: FAIL test/api/payments.test.ts > creates a payment: expected 201, received 500',
      'Read test/api/payments.test.ts',
      'The failure looks like it comes from the fixtures, so I am going to read them carefully before changing anything else in the code.',
      'Edit test/api/payments.test.ts',
      'Bash: npm test',
      'Everything passes now, which is good. Next I will continue with the refunds part of the phase as described in the plan.',
      'Write src/api/refunds.ts',
      'Bash: npx tsc --noEmit',
    ],
    commits: [
      'a1b2c3d4e5 debussy: checkpoint phase 4 (restart 1/3)',
      'b2c3d4e5f6 debussy: checkpoint phase 4 (retry: the session crashed)',
      'c3d4e5f6a7 debussy: checkpoint phase 4 (restart 2/3)',
      'd4e5f6a7b8 debussy: checkpoint phase 4 (gates failed: test)',
      'e5f6a7b8c9 debussy: checkpoint phase 4 (context overflow)',
    ],
  };
}

const countTokens = (text: string): number => Math.ceil(text.length / 4);

describe('condenseCheckpoint', () => {
  it('each level is strictly smaller than the one before, and about the advertised size', () => {
    const cp = realisticCheckpoint();
    const before = renderCheckpoint(cp).length;
    const [l1, l2, l3] = ([1, 2, 3] as const).map((level) => condenseCheckpoint(cp, level, { countTokens }));
    for (const r of [l1, l2, l3]) {
      expect(r?.beforeChars).toBe(before);
      expect(r?.reachedTarget).toBe(true);
      expect(r?.afterChars).toBeLessThanOrEqual(r?.targetChars ?? 0);
      expect(r?.text).toBe(renderCheckpoint(r?.checkpoint ?? cp));
      expect(r?.afterChars).toBe(r?.text.length);
    }
    expect(l1?.afterChars).toBeLessThan(before);
    expect(l2?.afterChars).toBeLessThan(l1?.afterChars ?? 0);
    expect(l3?.afterChars).toBeLessThan(l2?.afterChars ?? 0);
    expect(l1?.afterChars).toBeLessThanOrEqual(Math.floor(before * 0.75));
    expect(l2?.afterChars).toBeLessThanOrEqual(Math.floor(before * 0.6));
    expect(l3?.afterChars).toBeLessThanOrEqual(Math.floor(before * 0.4));
    // Close to the target rather than stripped bare: each step removes little.
    expect(l1?.afterChars).toBeGreaterThan(before * 0.6);
    expect(l3?.afterTokens).toBeLessThan(l1?.afterTokens ?? 0);
    expect(l1?.beforeTokens).toBe(countTokens(renderCheckpoint(cp)));
  });

  it('keeps code references, errors, decisions and file paths longest', () => {
    const r = condenseCheckpoint(realisticCheckpoint(), 3);
    expect(r.text).toContain('src/api/payments.ts');
    expect(r.text).toContain('`refundPayment()`');
    expect(r.text).toContain('integer cents');
    expect(r.text).toContain('TypeError');
    // Prose and older activity go first.
    expect(r.text).not.toContain('Cleaned up a few things');
    expect(r.text).not.toContain('I will now look at how the existing endpoints');
    expect(r.omitted.progress + r.omitted.lastActivity).toBeGreaterThan(0);
    expect(r.text).toMatch(/earlier entries condensed away/);
  });

  it('level 1 drops the repeated diff listing and plain chatter before touching progress', () => {
    const cp = realisticCheckpoint();
    const r = condenseCheckpoint(cp, 1);
    expect(r.checkpoint.diffSummary).toBe('17 files changed, 612 insertions(+), 136 deletions(-)');
    expect(r.checkpoint.changedFiles).toEqual(cp.changedFiles);
    expect(r.checkpoint.progress).toEqual(cp.progress);
  });

  it('does not modify its input', () => {
    const cp = realisticCheckpoint();
    const copy = structuredClone(cp);
    condenseCheckpoint(cp, 3);
    expect(cp).toEqual(copy);
  });

  it('reports when even the hardest condensing cannot reach the target', () => {
    const tiny: Checkpoint = { phaseId: '1', phaseTitle: 'T', sessionNumber: 2, reason: 'r', progress: [], changedFiles: [], diffSummary: '', lastActivity: [], commits: [] };
    const r = condenseCheckpointBy(tiny, 0.6);
    expect(r.reachedTarget).toBe(false);
    expect(r.afterChars).toBe(r.beforeChars);
    expect(r.beforeTokens).toBeUndefined();
  });

  it('never drops the newest progress entry, even a plain one, at the hardest level', () => {
    const plain = 'Looked around for a while and tidied up some of the things that seemed a little untidy.';
    const cp: Checkpoint = { ...realisticCheckpoint(), progress: [plain] };
    const condensed = condenseCheckpoint(cp, 3);
    expect(condensed.checkpoint.progress).toHaveLength(1);
    expect(condensed.checkpoint.progress[0]).toMatch(/^Looked around/);
    expect(condensed.omitted.progress).toBe(0);
  });

  it('folds long file lists by directory only as a late resort', () => {
    const many: Checkpoint = {
      ...realisticCheckpoint(),
      changedFiles: Array.from({ length: 80 }, (_, i) => `src/generated/module-${i}/index.ts`).concat(Array.from({ length: 40 }, (_, i) => `src/models/model${i}.ts`)),
    };
    const r = condenseCheckpoint(many, 3);
    expect(r.reachedTarget).toBe(true);
    expect(r.text).toMatch(/src\/models\/ \(40 files\)/);
    expect(condenseCheckpoint(many, 1).checkpoint.changedFiles).toHaveLength(120);
  });
});

describe('essential lines', () => {
  it.each([
    ['Edit src/api/orders.ts', true],
    ['uses `Payment` now', true],
    ['calls refundPayment() first', true],
    ['npm test failed twice', true],
    ['Decided to use cents instead of floats', true],
    ['Everything looks good so far, moving on.', false],
    ['Thinking about the next steps.', false],
  ])('%s -> %s', (line, essential) => {
    expect(isEssential(line)).toBe(essential);
  });

  it('shortening keeps essential sentences and respects the limit', () => {
    expect(shortenLine('This is chatter. The bug is in src/a.ts. More chatter here.', 200)).toBe('The bug is in src/a.ts.');
    expect(shortenLine('Only chatter here. And more.', 200)).toBe('Only chatter here.');
    const cut = shortenLine('x'.repeat(500), 50);
    expect(cut).toHaveLength(50);
    expect(cut.endsWith('…')).toBe(true);
  });
});
