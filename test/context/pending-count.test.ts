import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { countTokens, sampledTokenCount } from '../../src/tokenizer/index.js';
import { CountingBudget, CREDIT_PER_PAIR_BYTES, CREDIT_SHARE, EXACT_BYTES_PER_PAIR, MAX_CREDIT_BYTES, PendingCount, PRIOR_BYTES_PER_TOKEN, SAMPLE_ABOVE_BYTES, sampleCharsFor, TokenRate } from '../../src/context/pending-count.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

/**
 * About 1 MB of what a session reads, in blocks of a few KB: TypeScript, Markdown prose, JSON,
 * a log with numbers, non-ASCII text. Each kind tokenizes at a different rate.
 */
function mixedText(bytes: number): string {
  // Files that do not change with this repository's work: the test stays the same test.
  const code = read('node_modules/typescript/lib/lib.es5.d.ts').slice(0, 200_000);
  const prose = read('node_modules/vitest/LICENSE.md') + read('node_modules/typescript/lib/lib.dom.d.ts').slice(0, 100_000);
  const json = JSON.stringify(Array.from({ length: 2_000 }, (_, i) => ({ id: i, name: `record-${i}`, size: (i * 7919) % 100_000, tags: ['a', `t${i % 7}`] })), null, 2);
  const log = Array.from({ length: 5_000 }, (_, i) => `[${String(i).padStart(5, '0')}] 2026-11-23T21:${String(i % 60).padStart(2, '0')}:00Z step ${i * 37} ok in ${(i * 13) % 997} ms`).join('\n');
  const unicode = 'Größe der Übersetzung — café, naïve, 東京の天気は晴れ, émigré résumé. '.repeat(400);
  const sources = [code, prose, json, log, unicode];
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const source = sources[i % sources.length] ?? '';
    const block = 2_000 + ((i * 2_731) % 6_000);
    const at = (i * 9_973) % Math.max(1, source.length - block);
    const part = source.slice(at, at + block);
    parts.push(part);
    size += Buffer.byteLength(part, 'utf8');
  }
  return parts.join('\n');
}

describe('sampledTokenCount', () => {
  it('is exact when the text is no longer than the sample', () => {
    const text = read('src/context/context-monitor.ts').slice(0, 4_000);
    expect(sampledTokenCount(text, 4_000).tokens).toBe(countTokens(text));
  });

  it('counts a 1 MB mixed text within 2% of the exact count from the samples the monitor takes', () => {
    const text = mixedText(1_000_000);
    const truth = countTokens(text);
    const sampled = sampledTokenCount(text, sampleCharsFor(text.length));
    expect(sampled.sampledBytes).toBeLessThan(40_000);
    expect(Math.abs(sampled.tokens - truth) / truth).toBeLessThan(0.02);
  });

  it('stays within 15% on files of tool-result size (20-100 KB), from 1/64 of them', () => {
    const code = read('node_modules/typescript/lib/typescript.js');
    const prose = read('node_modules/vitest/LICENSE.md') + read('node_modules/typescript/SECURITY.md') + read('node_modules/typescript/README.md') + read('node_modules/js-tiktoken/README.md') + read('node_modules/esbuild/README.md') + read('node_modules/vitest/README.md');
    const declarations = read('node_modules/typescript/lib/lib.dom.d.ts');
    for (const [name, source] of [['code', code], ['declarations with doc comments', declarations], ['prose', prose]] as const) {
      expect(source.length).toBeGreaterThan(30_000);
      for (const size of [20_000, 50_000, 100_000].filter((n) => n + 10_000 < source.length)) {
        const at = (size * 7) % (source.length - size);
        const text = source.slice(at, at + size);
        const truth = countTokens(text);
        const sampled = sampledTokenCount(text, sampleCharsFor(text.length));
        expect(Math.abs(sampled.tokens - truth) / truth, `${name}, ${size} bytes`).toBeLessThan(0.15);
      }
    }
  });

  it('the same text sampled twice gives the same count', () => {
    const text = mixedText(300_000);
    expect(sampledTokenCount(text, sampleCharsFor(text.length)).tokens).toBe(sampledTokenCount(text, sampleCharsFor(text.length)).tokens);
  });

  it('is not far off on a mixed text of tool-result size either', () => {
    for (const size of [20_000, 50_000, 100_000]) {
      const text = mixedText(size);
      const truth = countTokens(text);
      const sampled = sampledTokenCount(text, sampleCharsFor(text.length));
      expect(Math.abs(sampled.tokens - truth) / truth, `${size} bytes`).toBeLessThan(0.2);
    }
  });
});

describe('PendingCount', () => {
  it('counts exactly while what entered fits in the byte budget', () => {
    const texts = ['ls -la', read('src/context/context-limit.ts').slice(0, EXACT_BYTES_PER_PAIR - 100), 'Done.'];
    const pending = new PendingCount();
    for (const text of texts) pending.add(text);
    const exact = texts.reduce((sum, text) => sum + countTokens(text), 0);
    expect(pending.estimate(new TokenRate())).toBe(exact);
    expect(pending.count()).toBe(exact);
  });

  it('counts whole texts first and samples a large one beyond the budget', () => {
    const big = mixedText(200_000);
    const small = read('src/context/context-window.ts');
    const pending = new PendingCount();
    pending.add(big);
    pending.add(small);
    const rate = new TokenRate();
    const estimate = pending.estimate(rate);
    const exact = countTokens(big) + countTokens(small);
    expect(Math.abs(estimate - exact) / exact).toBeLessThan(0.05);
    // The small one was counted exactly: the rate learned from it is no longer the prior.
    expect(rate.tokensFor(3_800)).not.toBeCloseTo(3_800 / PRIOR_BYTES_PER_TOKEN, 6);
  });

  it('extrapolates small texts beyond the budget by the kind\'s measured tokens per byte', () => {
    const line = 'export const value = compute(input, options); // a line of ordinary code\n';
    const chunk = line.repeat(Math.floor(EXACT_BYTES_PER_PAIR / 2 / line.length));
    expect(chunk.length).toBeLessThan(SAMPLE_ABOVE_BYTES);
    const pending = new PendingCount();
    const count = Math.ceil((EXACT_BYTES_PER_PAIR * 4) / chunk.length);
    for (let i = 0; i < count; i++) pending.add(chunk);
    const estimate = pending.estimate(new TokenRate());
    const exact = count * countTokens(chunk);
    // The prior (3.8 bytes a token) is far from this code's rate; what was counted corrects it.
    expect(Math.abs(estimate - exact) / exact).toBeLessThan(0.1);
  });

  it('the byte bound is never below the count', () => {
    const pending = new PendingCount();
    pending.add(mixedText(50_000));
    pending.add('Größe 東京');
    expect(pending.bound()).toBeGreaterThanOrEqual(pending.count());
  });
});

describe('CountingBudget', () => {
  it('counts the first pairs of a burst, then only as many as their earnings pay for', () => {
    const budget = new CountingBudget();
    // Pairs of 8 KB uncounted, each costing 1 KB of tokenizing: 64 + 8192/128 = 128 bytes earned a pair.
    const earned = CREDIT_PER_PAIR_BYTES + 8_192 / CREDIT_SHARE;
    const counted: boolean[] = [];
    for (let i = 0; i < 400; i++) {
      const allowed = budget.allows(8_192);
      counted.push(allowed);
      if (allowed) budget.spend(1_024);
    }
    const firstSkip = counted.indexOf(false);
    // The starting credit pays for the first ~16 pairs (16 KB at ~0.9 KB net each).
    expect(firstSkip).toBe(Math.ceil(MAX_CREDIT_BYTES / (1_024 - earned)));
    // After that, one pair in 1024/128 = 8 is counted: the work follows what entered.
    const later = counted.slice(100);
    const paidFor = (later.length * earned) / 1_024;
    expect(later.filter(Boolean).length).toBeGreaterThanOrEqual(Math.floor(paidFor));
    expect(later.filter(Boolean).length).toBeLessThanOrEqual(Math.ceil(paidFor));
  });

  it('never skips a pair that was counted before its report (nothing uncounted, nothing spent)', () => {
    const budget = new CountingBudget();
    for (let i = 0; i < 1_000; i++) expect(budget.allows(0)).toBe(true);
  });

  it('earns back to at most its starting credit', () => {
    const budget = new CountingBudget();
    for (let i = 0; i < 100; i++) budget.allows(1_000_000);
    budget.spend(MAX_CREDIT_BYTES);
    expect(budget.allows(0)).toBe(true); // 0 + 64 left
    budget.spend(CREDIT_PER_PAIR_BYTES * 2);
    expect(budget.allows(0)).toBe(false);
  });
});
