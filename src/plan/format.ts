import { isAbsolute, relative } from 'node:path';
import { inertLine } from '../text/inert-text.js';
import type { AuditFinding } from './types.js';

/**
 * `plans/x/MASTER_PLAN.md:12: error: <message> [code]`, the shape editors and CI logs link. A
 * message quotes the plan, and a path is a file's name: both inert (text/inert-text.ts).
 */
export function formatFinding(finding: AuditFinding, cwd: string): string {
  const tail = `${finding.severity}: ${inertLine(finding.message)} [${finding.code}]`;
  if (finding.file === undefined) return tail;
  const shown = inertLine(isAbsolute(finding.file) ? relative(cwd, finding.file) || finding.file : finding.file);
  return finding.line === undefined ? `${shown}: ${tail}` : `${shown}:${finding.line}: ${tail}`;
}
