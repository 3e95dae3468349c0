/** Which earlier gates run again, and who is named when one broke. */
import { describe, expect, it } from 'vitest';
import { describeSuspects, endRegressionReason, gateKey, regressionGates, regressionSuspects } from '../../src/verification/regression.js';

const phases = [
  { id: '1', gates: [{ name: 'build', command: 'npm run build' }, { name: 'review', command: undefined }] },
  { id: '2', gates: [{ name: 'tests', command: 'npm test' }, { name: 'build', command: 'npm run build' }] },
  { id: '3', gates: [{ name: 'e2e', command: 'npm run e2e' }, { name: 'tests', command: 'npm test' }] },
];

describe('regressionGates', () => {
  it('the completed phases\' gates in plan order, each command once, under its first phase', () => {
    expect(regressionGates(phases, new Set(['1', '2']))).toEqual([
      { phaseId: '1', name: 'build', command: 'npm run build' },
      { phaseId: '2', name: 'tests', command: 'npm test' },
    ]);
  });
  it('leaves out phases not completed and the commands the phase just verified', () => {
    expect(regressionGates(phases, new Set(['1', '2', '3']), { justVerified: phases[2] })).toEqual([{ phaseId: '1', name: 'build', command: 'npm run build' }]);
    expect(regressionGates(phases, new Set(['2']))).toEqual([
      { phaseId: '2', name: 'tests', command: 'npm test' },
      { phaseId: '2', name: 'build', command: 'npm run build' },
    ]);
  });
  it('leaves out gates tolerated as failing when their phase completed', () => {
    expect(regressionGates(phases, new Set(['1', '2']), { skip: new Set([gateKey('1', 'build')]) })).toEqual([
      { phaseId: '2', name: 'tests', command: 'npm test' },
      { phaseId: '2', name: 'build', command: 'npm run build' },
    ]);
  });
  it('nothing completed: nothing to run', () => {
    expect(regressionGates(phases, new Set())).toEqual([]);
  });
});

describe('regressionSuspects and the end-of-run reason', () => {
  it('the phases completed in this run after the gate\'s phase', () => {
    expect(regressionSuspects('1', ['1', '2', '3'])).toEqual(['2', '3']);
    expect(regressionSuspects('3', ['1', '2', '3'])).toEqual([]);
  });
  it('every phase of this run when the gate\'s phase completed in an earlier run', () => {
    expect(regressionSuspects('0', ['1', '2'])).toEqual(['1', '2']);
  });
  it('names one suspect plainly, several honestly, none as flakiness', () => {
    expect(describeSuspects(['2'])).toBe('phase 2, the only phase completed since, broke it');
    expect(describeSuspects(['2', '3'])).toBe('one of the phases completed since broke it: 2, 3 (the first, 2, most likely; regression_gates: each names the phase)');
    expect(describeSuspects([])).toMatch(/flaky/);
  });
  it('the reason names the gate, its phase and the suspects', () => {
    expect(endRegressionReason([{ phaseId: '1', name: 'build', command: 'x', passed: false, exitCode: 1, outputTail: '', suspects: ['2'] }])).toBe(
      'regression: gate build of phase 1 fails at the end of the run (it passed when phase 1 completed); phase 2, the only phase completed since, broke it',
    );
  });
});
