/**
 * Builds dist/ before the tests that run the real `debussy` binary, so they run the code under
 * test, whether started by `npm test` or by `npx vitest run some/file`; once per change of the
 * sources (scripts/build.js --if-changed: a vitest call after no edit skips tsc). A type error
 * does not stop the suite here (tsc still emits, and `npm test` reports it first); the tests then
 * show what the code does.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

export default function setup(): void {
  const root = path.resolve(import.meta.dirname, '..');
  const result = spawnSync(process.execPath, [path.join(root, 'scripts/build.js'), '--if-changed'], { cwd: root, encoding: 'utf8' });
  if (result.status !== 0) process.stderr.write(`warning: the build reported errors (tests run against what it emitted):\n${result.stdout}${result.stderr}\n`);
}
