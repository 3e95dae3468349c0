import { isAbsolute, relative } from 'node:path';
import type { AuditFinding } from './types.js';

/** `plans/x/MASTER_PLAN.md:12: error: <message> [code]`, the shape editors and CI logs link. */
export function formatFinding(finding: AuditFinding, cwd: string): string {
  const tail = `${finding.severity}: ${finding.message} [${finding.code}]`;
  if (finding.file === undefined) return tail;
  const shown = isAbsolute(finding.file) ? relative(cwd, finding.file) || finding.file : finding.file;
  return finding.line === undefined ? `${shown}: ${tail}` : `${shown}:${finding.line}: ${tail}`;
}
