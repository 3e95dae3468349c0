import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, extname, join, relative, resolve } from 'node:path';
import { detectFormat, foreignFormatMessage, foreignPlanFileIn, type ForeignFormat } from './foreign-format.js';
import { linkResolver, parseMasterPlan, type PhaseRow } from './master-plan.js';
import { parsePhaseFile } from './phase-file.js';
import { unique } from './phase-ids.js';
import type { AuditFinding, DependencyRef, Phase, Plan } from './types.js';
import { errorCode } from '../errors/error-code.js';
import { errorMessage } from '../errors/error-message.js';

export interface PlanOptions {
  /** The config's `gates:` map, gate name -> command, used when a gate bullet names no command. */
  gateCommands?: Record<string, string>;
}

export interface ParsedPlan {
  /** Undefined only when the master plan is missing, unreadable or has no phase table. */
  plan: Plan | undefined;
  findings: AuditFinding[];
}

/**
 * Reads a master plan and every phase file it links. Parts that cannot be read become findings
 * (an unparseable row, an unknown status, a missing phase file); structural checks are the audit's.
 */
export async function parsePlan(masterPath: string, options: PlanOptions = {}): Promise<ParsedPlan> {
  const located = await locateMasterPlan(resolve(masterPath));
  if (typeof located !== 'string') return { plan: undefined, findings: [located] };
  const path = located;
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    return { plan: undefined, findings: [{ severity: 'error', code: 'missing-master-plan', message: `cannot read the master plan: ${reason(error)}`, file: path }] };
  }

  const master = parseMasterPlan(text, path);
  // Another tool's plan (a JSON file, a GSD roadmap whose progress table links no files): say
  // which, and how to convert it, instead of asking for a phase table.
  const format = master.rows.length === 0 ? detectFormat(path, text) : undefined;
  if (format !== undefined) return { plan: undefined, findings: [foreignFormatFinding(format, path)] };
  const findings = [...master.findings];
  if (!master.hasPhaseTable) {
    findings.push({
      severity: 'error',
      code: 'no-phase-table',
      message: 'no phase table: add a table whose header has a "Phase" column and whose rows link each phase file as [Title](phase-file.md)',
      file: path,
    });
    return { plan: undefined, findings };
  }

  const phases = await Promise.all(master.rows.map((row) => readPhase(row, { path, rows: master.rows, options, findings })));
  const name = master.name !== undefined && master.name !== '' ? master.name : basename(path, extname(path));
  const plan: Plan = { name, path, phases };
  return { plan, findings: sortFindings(plan, findings) };
}

interface ReadContext {
  /** The master plan's path: a missing file is reported at the row that links it. */
  path: string;
  rows: PhaseRow[];
  options: PlanOptions;
  findings: AuditFinding[];
}

async function readPhase(row: PhaseRow, { path, rows, options, findings }: ReadContext): Promise<Phase> {
  const { titleFromTable, ...phase } = row;
  let text: string;
  try {
    text = await readFile(row.path, 'utf8');
  } catch (error) {
    const missing = errorCode(error) === 'ENOENT';
    findings.push({
      severity: 'error',
      code: missing ? 'missing-phase-file' : 'unreadable-phase-file',
      message: missing ? `phase ${row.id}: phase file ${row.link} does not exist` : `phase ${row.id}: cannot read phase file ${row.link}: ${reason(error)}`,
      file: path,
      line: row.line,
      phaseId: row.id,
    });
    return { ...phase, file: undefined };
  }
  const parsed = parsePhaseFile(text, row.path, {
    linkToId: linkResolver(rows, dirname(row.path)),
    ...(options.gateCommands === undefined ? {} : { gateCommands: options.gateCommands }),
  });
  findings.push(...parsed.findings.map((finding) => ({ ...finding, message: `phase ${row.id}: ${finding.message}`, phaseId: row.id })));
  return {
    ...phase,
    title: titleFromTable || parsed.file.title === undefined ? row.title : parsed.file.title,
    // Prose such as "this phase (Phase 3) needs Phase 2" names the phase itself; that is no dependency.
    ...mergeDependencies(row, parsed.file.dependencyRefs.filter((ref) => ref.id !== row.id)),
    file: parsed.file,
  };
}

function mergeDependencies(row: PhaseRow, fromFile: DependencyRef[]): Pick<Phase, 'dependsOn' | 'dependencyRefs'> {
  const dependencyRefs = [...row.dependencyRefs, ...fromFile];
  return { dependsOn: unique(dependencyRefs.map((ref) => ref.id)), dependencyRefs };
}

/**
 * The master plan file. A folder is accepted when it holds exactly one `*MASTER_PLAN*.md`, so
 * `debussy audit plans/x` works as well as naming the file.
 */
async function locateMasterPlan(path: string): Promise<string | AuditFinding> {
  const missing = (message: string): AuditFinding => ({ severity: 'error', code: 'missing-master-plan', message, file: path });
  let isDirectory: boolean;
  try {
    isDirectory = (await stat(path)).isDirectory();
  } catch (error) {
    return missing(errorCode(error) === 'ENOENT' ? 'master plan not found' : `cannot read the master plan: ${reason(error)}`);
  }
  if (!isDirectory) return path;
  const candidates = (await readdir(path)).filter((entry) => /master[\s_-]?plan.*\.md$/i.test(entry)).sort();
  const only = candidates[0];
  if (candidates.length === 1 && only !== undefined) return join(path, only);
  const foreign = candidates.length === 0 ? await foreignPlanFileIn(path) : undefined;
  if (foreign !== undefined && detectFormat(foreign.path, await readFile(foreign.path, 'utf8').catch(() => '')) === foreign.format) {
    return foreignFormatFinding(foreign.format, foreign.path);
  }
  return missing(
    candidates.length === 0
      ? 'this folder holds no *MASTER_PLAN*.md; name the master plan file'
      : `this folder holds several master plans (${candidates.join(', ')}); name one`,
  );
}

function foreignFormatFinding(format: ForeignFormat, path: string): AuditFinding {
  const shown = relative(process.cwd(), path) || path;
  return { severity: 'error', code: 'foreign-plan-format', message: foreignFormatMessage(format, shown), file: path, format };
}

function reason(error: unknown): string {
  const code = errorCode(error);
  if (code === 'EISDIR') return 'it is a folder';
  if (code === 'EACCES') return 'permission denied';
  return errorMessage(error);
}

/** Master plan first, then phase files in table order; by line within a file. */
export function sortFindings(plan: Plan, findings: AuditFinding[]): AuditFinding[] {
  const fileRank = new Map<string, number>([[plan.path, 0]]);
  plan.phases.forEach((phase, index) => {
    if (!fileRank.has(phase.path)) fileRank.set(phase.path, index + 1);
  });
  const rankOf = (finding: AuditFinding): number => (finding.file === undefined ? -1 : (fileRank.get(finding.file) ?? fileRank.size));
  // Array.prototype.sort is stable, so findings on the same line keep the order they were made in.
  return [...findings].sort((a, b) => rankOf(a) - rankOf(b) || (a.line ?? 0) - (b.line ?? 0));
}
