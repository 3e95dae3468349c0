/**
 * Builds dist/ before the tests that run the real `debussy` binary, so they run the code under
 * test, whether started by `npm test` or by `npx vitest run some/file`; once per change of the
 * sources (scripts/build.js --if-changed: a vitest call after no edit skips tsc). tsc only emits
 * here (--no-check): a type error is `npm test`'s own step to report, first; the tests then show
 * what the code does.
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
  const result = spawnSync(process.execPath, [path.join(root, 'scripts/build.js'), '--if-changed', '--no-check'], { cwd: root, encoding: 'utf8' });
  if (result.status !== 0) process.stderr.write(`warning: the build reported errors (tests run against what it emitted):\n${result.stdout}${result.stderr}\n`);
  return () => {
    rmSync(stateDir, { recursive: true, force: true });
    // A debussy started without DEBUSSY_STATE_DIR (an environment a test rebuilt) makes its key in the real home.
    if (!realKeyBefore && existsSync(realKey)) process.stderr.write(`warning: ${realKey} appeared during the tests: a test ran debussy without DEBUSSY_STATE_DIR\n`);
  };
}
