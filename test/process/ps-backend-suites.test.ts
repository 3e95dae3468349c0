/**
 * The process-tree and run-lock suites again, with /proc bypassed: every question goes to `ps`
 * (DEBUSSY_PROCESS_BACKEND=ps, read at each call), as on macOS.
 */
import { afterAll, expect, it } from 'vitest';
import { processStartTime, startClockOf } from '../../src/process/identity.js';
import { processTable, PROCESS_BACKEND_VAR } from '../../src/process/process-table.js';

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

await import('../agent/process-tree.test.js');
await import('../state/lock.test.js');
