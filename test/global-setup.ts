/**
 * Builds dist/ (its bundle and vocabulary file too) once before the suite, so tests that spawn the real `debussy` binary run the code
 * under test, whether started by `npm test` or by `npx vitest run some/file`. A type error does not
 * stop the suite here (tsc still emits, and `npm run check` reports it); the tests then show what
 * the code does.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';

export default function setup(): () => void {
  // debussy's per-user key (src/state/journal-key.ts) is made in a temporary directory, never in the
  // real home: the test workers and every debussy they start inherit this.
  const realKey = path.join(process.env.XDG_STATE_HOME ?? path.join(homedir(), '.local', 'state'), 'debussy', 'journal.key');
  const realKeyBefore = existsSync(realKey);
  const stateDir = mkdtempSync(path.join(tmpdir(), 'debussy-test-state-'));
  process.env.DEBUSSY_STATE_DIR = stateDir;
  const root = path.resolve(import.meta.dirname, '..');
  const result = spawnSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: root, encoding: 'utf8' });
  if (result.status !== 0) process.stderr.write(`warning: the build reported errors (tests run against what it emitted):\n${result.stdout}${result.stderr}\n`);
  // The binary runs the bundle (scripts/bundle.js) when it is as new as tsc's output: made from it here.
  const bundled = spawnSync(process.execPath, [path.join(root, 'scripts/bundle.js')], { cwd: root, encoding: 'utf8' });
  if (bundled.status !== 0) throw new Error(`the bundle of dist/ failed:\n${bundled.stdout}${bundled.stderr}`);
  // The token counter's tables, which the built code reads instead of decoding them (scripts/vocabulary.js).
  const vocabulary = spawnSync(process.execPath, [path.join(root, 'scripts/vocabulary.js')], { cwd: root, encoding: 'utf8' });
  if (vocabulary.status !== 0) throw new Error(`writing dist/tokenizer/cl100k_base.vocab failed:\n${vocabulary.stdout}${vocabulary.stderr}`);
  return () => {
    rmSync(stateDir, { recursive: true, force: true });
    // A debussy started without DEBUSSY_STATE_DIR (an environment a test rebuilt) makes its key in the real home.
    if (!realKeyBefore && existsSync(realKey)) process.stderr.write(`warning: ${realKey} appeared during the tests: a test ran debussy without DEBUSSY_STATE_DIR\n`);
  };
}
