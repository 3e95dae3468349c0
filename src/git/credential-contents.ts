/**
 * Reads the changed files whose name leaves it open whether they hold a credential (an `.npmrc`, a
 * kubeconfig: credential-files.ts) and says which do: those in which the redactor finds a secret.
 * The I/O half of the judgement; the rest is pure.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Redactor } from '../redact/index.js';
import { holdsCredential, judgeCredentialFile } from './credential-files.js';

/** Larger files are not read: judged to hold credentials (a configuration file is small; a leaked token is for good). */
const MAX_BYTES = 4 * 1024 * 1024;

/** The `paths` (relative to `root`) judged by content that hold a credential now; a deleted file holds none. */
export async function filesHoldingCredentials(root: string, paths: readonly string[], redact: Redactor): Promise<Set<string>> {
  const holding = new Set<string>();
  for (const path of paths) {
    if (judgeCredentialFile(path) !== 'content') continue;
    const file = join(root, path);
    const size = await stat(file).then((s) => (s.isFile() ? s.size : undefined), () => undefined);
    if (size === undefined) continue;
    if (size > MAX_BYTES || holdsCredential(await readFile(file, 'utf8'), redact)) holding.add(path);
  }
  return holding;
}
