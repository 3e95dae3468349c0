import { describe, expect, it } from 'vitest';
import { describeLeftOut } from '../../src/orchestrator/phase-commits.js';

describe('describeLeftOut', () => {
  it('names every path, grouped by reason in a fixed order', () => {
    expect(
      describeLeftOut([
        { path: '.env.local', reason: 'looks_like_credentials' },
        { path: '.env', reason: 'untracked_before_phase' },
        { path: 'src/a.ts', reason: 'modified_before_phase' },
        { path: 'notes.md', reason: 'untracked_before_phase' },
        { path: 'b.ts', reason: 'changed_between_runs' },
      ]),
    ).toBe(
      'not committed, left as they are in the working tree: .env, notes.md (untracked before the phase began); ' +
        'src/a.ts (modified before the phase began); b.ts (changed while debussy was stopped); ' +
        '.env.local (look like credentials; set commit_secrets: true to commit such files)',
    );
  });

  it('names files too large with their sizes, and the limit', () => {
    const MB = 1024 ** 2;
    expect(
      describeLeftOut([
        { path: 'big.bin', reason: 'too_large', bytes: 2 * 1024 * MB, maxBytes: 5 * MB },
        { path: '.env', reason: 'untracked_before_phase' },
        { path: 'data/cache.db', reason: 'too_large', bytes: 300 * MB, maxBytes: 5 * MB },
        { path: 'notes.bin', reason: 'too_large', bytes: 2560, maxBytes: 5 * MB },
      ]),
    ).toBe(
      'not committed, left as they are in the working tree: .env (untracked before the phase began); ' +
        'big.bin (2 GB), data/cache.db (300 MB), notes.bin (2.5 KB) (larger than max_commit_file_size, 5MB; raise it, or set it to 0, to commit such files)',
    );
  });

  it('caps the names of one reason at eight and counts the rest', () => {
    const paths = Array.from({ length: 11 }, (_, i) => ({ path: `f${i}.txt`, reason: 'untracked_before_phase' as const }));
    expect(describeLeftOut(paths)).toBe(
      'not committed, left as they are in the working tree: f0.txt, f1.txt, f2.txt, f3.txt, f4.txt, f5.txt, f6.txt, f7.txt and 3 more (untracked before the phase began)',
    );
  });
});
