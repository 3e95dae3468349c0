/**
 * Where debussy learns about other processes: their parent, process group, start time, whether
 * they have exited, and whether their environment carries a marker. Two backends answer the same
 * questions: procfs (Linux: reads /proc, no child process) and ps (macOS, the BSDs, any system
 * without /proc: one `ps` call per question). The choice is made here and nowhere else.
 *
 * `DEBUSSY_PROCESS_BACKEND=ps` (or `procfs`) forces a backend. It is a test and diagnostic switch
 * (the tests use it to run the portable path on Linux), not a setting: left unset, debussy uses
 * procfs wherever /proc is mounted and ps everywhere else.
 */
import { existsSync } from 'node:fs';
import { procfsTable } from './procfs-table.js';
import { psTable } from './ps-table.js';
import type { ProcessBackend, ProcessTable } from './process-entry.js';

export const PROCESS_BACKEND_VAR = 'DEBUSSY_PROCESS_BACKEND';

export type { ListedProcess, ProcessBackend, ProcessEntry, ProcessMarker, ProcessTable } from './process-entry.js';

/** The backend to use: forced by DEBUSSY_PROCESS_BACKEND, else procfs where /proc is mounted. */
export function chooseProcessBackend(forced: string | undefined, hasProcfs: boolean): ProcessBackend {
  if (forced === 'ps' || forced === 'procfs') return forced;
  return hasProcfs ? 'procfs' : 'ps';
}

let procfsMounted: boolean | undefined;

export function processTable(env: NodeJS.ProcessEnv = process.env): ProcessTable {
  procfsMounted ??= existsSync('/proc/self/stat');
  return chooseProcessBackend(env[PROCESS_BACKEND_VAR], procfsMounted) === 'ps' ? psTable : procfsTable;
}
