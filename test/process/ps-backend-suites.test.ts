/**
 * The process-tree and run-lock suites again, with /proc bypassed: every question goes to `ps`
 * (DEBUSSY_PROCESS_BACKEND=ps, read at each call), as on macOS.
 */
import { afterAll, expect, it } from 'vitest';
import { processStartTime, startClockOf } from '../../src/process/identity.js';
import { processTable, PROCESS_BACKEND_VAR } from '../../src/process/process-table.js';
import { processTreeSuite } from '../agent/process-tree-suite.js';
import { runLockSuite } from '../state/lock-suite.js';

const saved = process.env[PROCESS_BACKEND_VAR];
process.env[PROCESS_BACKEND_VAR] = 'ps';
afterAll(() => {
  if (saved === undefined) delete process.env[PROCESS_BACKEND_VAR];
  else process.env[PROCESS_BACKEND_VAR] = saved;
});

it('asks ps, not /proc', () => {
  expect(processTable().backend).toBe('ps');
  expect(startClockOf(processStartTime(process.pid) ?? 0)).toBe('epoch-ms');
});

// Called, not imported: an imported test file registers its tests only in the first file of a
// worker to import it, and this file then ran 8 of its 22 tests in one CI run of two.
processTreeSuite();
runLockSuite();
