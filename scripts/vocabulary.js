// `node scripts/vocabulary.js`: writes dist/tokenizer/cl100k_base.vocab, the token counter's
// tables for js-tiktoken's cl100k_base as built by dist/tokenizer/vocabulary.js, so that each
// debussy process reads them (a few ms) instead of decoding the ranks text (~25 ms of CPU; bench
// figure 7). Run after tsc by `npm run build`, `prepare` and the test suite's global setup. Without
// the file (or with one that does not check out) the counter decodes the ranks as before.
import { rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = fileURLToPath(new URL('..', import.meta.url));
const target = path.join(root, 'dist', 'tokenizer', 'cl100k_base.vocab');

/** 'written', or 'skipped' (with the reason logged) when the build or js-tiktoken is not there. */
export async function writeVocabulary({ log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  rmSync(target, { force: true });
  let loadVocabulary;
  let ranks;
  try {
    ({ loadVocabulary } = await import(new URL('../dist/tokenizer/vocabulary.js', import.meta.url).href));
    ({ default: { bpe_ranks: ranks } } = await import('js-tiktoken/ranks/cl100k_base'));
  } catch (error) {
    log(`debussy vocabulary: not written (${error instanceof Error ? error.message.split('\n')[0] : String(error)}); the token counter decodes js-tiktoken's ranks at run time.`);
    return 'skipped';
  }
  writeFileSync(target, loadVocabulary(ranks).toFile());
  return 'written';
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if ((await writeVocabulary()) !== 'written') process.exitCode = 1;
}
