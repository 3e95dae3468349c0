/**
 * `debussy plan import`: read another tool's plan, give its phases debussy ids, render the plan's
 * files, and write them into plans/<name>/ without ever overwriting a file the user edited (see
 * import-record.ts). A re-import after the source changed updates the files it wrote. A phase
 * the plan has as Completed stays Completed even when the source does not say so: that is a run's
 * (or the user's) progress, and the source cannot take it back.
 */
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseMasterPlan } from '../plan/master-plan.js';
import type { ForeignFormat } from '../plan/foreign-format.js';
import { UsageError } from '../errors/index.js';
import { errorCode } from '../errors/error-code.js';
import { validatePlanName } from '../scaffold/new-plan.js';
import { cannotWrite } from '../scaffold/write-scaffold-file.js';
import { assignPhaseIds, type PlannedPhases } from './assign-phase-ids.js';
import { decideWrites, fileHash, parseRecord, RECORD_FILE, renderRecord, type ImportRecord } from './import-record.js';
import { ImportError } from './imported-plan.js';
import { readSource } from './read-source.js';
import { importCommand, MASTER_FILE, renderImportedPlan } from './render-plan.js';

export interface ImportRequest {
  /** Absolute path of the file or folder to import. */
  source: string;
  name?: string;
  tag?: string;
  projectRoot: string;
  /** Absolute folder the plan's folder goes in, e.g. `<root>/plans`. */
  plansDir: string;
  force: boolean;
  /** For messages: paths are shown relative to it. */
  cwd: string;
}

export type ImportedFileOutcome = 'created' | 'updated' | 'unchanged' | 'removed';

export interface ImportReport {
  format: ForeignFormat;
  /** Absolute path of the file read. */
  sourceFile: string;
  /** Which part of it was read, when that needs saying: `tag master`. */
  sourceDetail: string | undefined;
  name: string;
  dir: string;
  masterPath: string;
  files: { path: string; outcome: ImportedFileOutcome }[];
  /** Decisions the import took, for the user: dependencies dropped, ids renumbered, statuses kept. */
  notices: string[];
  leftOut: string[];
  /** Nothing needed writing: the plan already matched the source. */
  upToDate: boolean;
}

const posix = (file: string): string => file.split(path.sep).join('/');

export async function importPlan(request: ImportRequest): Promise<ImportReport> {
  const source = await readSource(request.source, {
    projectName: path.basename(request.projectRoot),
    cwd: request.cwd,
    ...(request.tag === undefined ? {} : { tag: request.tag }),
  });
  const name = planName(request.name ?? source.plan.suggestedName, request.name === undefined);
  const planned = assignPhaseIds(source.plan);
  if (planned.phases.length === 0) {
    const shown = path.relative(request.cwd, source.file) || source.file;
    throw new ImportError(`${shown} has nothing to import: ${planned.leftOut.length > 0 ? `every entry is left out (${planned.leftOut.join('; ')})` : 'it lists no tasks or phases'}`, 'Add work to it with its own tool first, or write a plan with `debussy plan new`.');
  }
  const dir = path.join(request.plansDir, name);
  const masterPath = path.join(dir, MASTER_FILE);
  const current = await readFolder(dir);
  const recordText = current.get(RECORD_FILE);
  const record = recordText === undefined ? undefined : parseRecord(recordText);
  current.delete(RECORD_FILE);
  const kept = keepCompleted(planned, record === undefined ? undefined : current.get(MASTER_FILE), masterPath);

  const sourcePath = posix(path.relative(request.projectRoot, source.file)) || source.file;
  const rendered = renderImportedPlan({ plan: source.plan, planned, name, sourcePath, masterPath: posix(path.relative(request.projectRoot, masterPath)) });
  const shownDir = path.relative(request.cwd, dir) || dir;
  // Two sources suggesting the same name (two tasks.json files) must not take turns at one plan.
  if (record !== undefined && record.source !== sourcePath && !request.force) {
    throw new UsageError(`${shownDir} was imported from ${record.source}, not from ${sourcePath}`, 'Choose another --name for this source, or pass --force to replace that plan with this one.');
  }
  const decision = decideWrites(current, record, rendered, request.force);
  if (decision.kind === 'refuse') throw refusal(decision, shownDir, importCommand(sourcePath, name, source.plan.sourceDetail));

  const files: ImportReport['files'] = [];
  try {
    await mkdir(dir, { recursive: true });
    for (const file of decision.write) {
      const target = path.join(dir, file.name);
      await writeFile(target, file.content);
      files.push({ path: target, outcome: current.has(file.name) ? 'updated' : 'created' });
    }
    for (const name of decision.remove) {
      await rm(path.join(dir, name), { force: true });
      files.push({ path: path.join(dir, name), outcome: 'removed' });
    }
    const newRecord: ImportRecord = { version: 1, format: source.format, source: sourcePath, files: Object.fromEntries(rendered.map((file) => [file.name, fileHash(file.name, file.content)])) };
    if (recordText !== renderRecord(newRecord)) await writeFile(path.join(dir, RECORD_FILE), renderRecord(newRecord));
  } catch (error) {
    throw cannotWrite(dir, error);
  }
  files.push(...decision.unchanged.map((file) => ({ path: path.join(dir, file), outcome: 'unchanged' as const })));
  files.sort((a, b) => rendered.findIndex((file) => path.join(dir, file.name) === a.path) - rendered.findIndex((file) => path.join(dir, file.name) === b.path));
  return {
    format: source.format,
    sourceFile: source.file,
    sourceDetail: source.plan.sourceDetail,
    name,
    dir,
    masterPath,
    files,
    notices: [...(planned.renumbered ? ["the source's ids are not debussy phase ids: phases are numbered in the source's order (each keeps its source id in view)"] : []), ...source.plan.notices, ...planned.notices, ...kept],
    leftOut: planned.leftOut,
    upToDate: decision.write.length === 0 && decision.remove.length === 0,
  };
}

function planName(name: string, suggested: boolean): string {
  try {
    validatePlanName(name);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    throw new UsageError(suggested ? `the source suggests no usable plan name ("${name}")` : error.message, 'Pass --name NAME: lower-case letters and digits, words joined by - or _ (e.g. --name billing).');
  }
  return name;
}

/** The plan folder's files (name -> text), the record included; empty when the folder does not exist. */
async function readFolder(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return files;
    throw cannotWrite(dir, error);
  }
  for (const entry of entries) if (entry.isFile()) files.set(entry.name, await readFile(path.join(dir, entry.name), 'utf8'));
  return files;
}

/** Phases the current plan has as Completed stay so; each kept status is said. Mutates `planned`. */
function keepCompleted(planned: PlannedPhases, masterText: string | undefined, masterPath: string): string[] {
  if (masterText === undefined) return [];
  const completed = new Set(parseMasterPlan(masterText, masterPath).rows.filter((row) => row.status === 'completed').map((row) => row.id));
  const notices: string[] = [];
  for (const phase of planned.phases) {
    if (phase.status === 'completed' || !completed.has(phase.id)) continue;
    phase.status = 'completed';
    notices.push(`phase ${phase.id} stays Completed as the plan has it (the source says "${phase.statusText}")`);
  }
  return notices;
}

function refusal(decision: Extract<ReturnType<typeof decideWrites>, { kind: 'refuse' }>, shownDir: string, again: string): UsageError {
  if (decision.noRecord) {
    return new UsageError(`${shownDir} already exists and was not written by \`debussy plan import\``, 'Choose another --name, or pass --force to overwrite the files the import writes there.');
  }
  const parts = [
    ...(decision.edited.length > 0 ? [`${decision.edited.join(', ')} ${decision.edited.length === 1 ? 'was' : 'were'} edited since the last import`] : []),
    ...(decision.deleted.length > 0 ? [`${decision.deleted.join(', ')} ${decision.deleted.length === 1 ? 'was' : 'were'} deleted since the last import`] : []),
    ...(decision.theirs.length > 0 ? [`${decision.theirs.join(', ')} ${decision.theirs.length === 1 ? 'exists' : 'exist'} but the import did not write ${decision.theirs.length === 1 ? 'it' : 'them'}`] : []),
  ];
  return new UsageError(
    `not importing over your changes in ${shownDir}: ${parts.join('; ')}`,
    `Move your edits into the source and import again, or pass --force to overwrite them (${again} --force).`,
  );
}
