/** plans/example: the plan a user reads first must audit clean and have gates that really work offline. */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auditPlan } from '../../src/plan/index.js';
import { debussy, REPO_ROOT, tempDir } from '../cli/cli-harness.js';

const MASTER = path.join(REPO_ROOT, 'plans/example/MASTER_PLAN.md');

let dir: string;
let cleanup: () => void;
beforeEach(() => {
  const temp = tempDir('debussy-example-');
  dir = temp.dir;
  cleanup = () => temp.cleanup();
});
afterEach(() => cleanup());

async function gates(): Promise<{ phase: string; command: string }[]> {
  const { plan } = await auditPlan(MASTER);
  return (plan?.phases ?? []).flatMap((phase) => (phase.file?.gates ?? []).map((gate) => ({ phase: phase.id, command: gate.command ?? '' })));
}

function passes(command: string): boolean {
  return spawnSync('sh', ['-c', command], { cwd: dir, stdio: 'ignore' }).status === 0;
}

describe('plans/example', () => {
  it('passes debussy audit --strict from the repository root', async () => {
    const result = await debussy(['audit', 'plans/example/MASTER_PLAN.md', '--strict'], { cwd: REPO_ROOT });
    expect(result.stdout).toContain('audit ok: Example (2 phases): 0 error(s), 0 warning(s)');
    expect(result.code).toBe(0);
  });

  it('has gates that fail before the work is done and pass after it, with nothing but sh and node', async () => {
    const all = await gates();
    expect(all.length).toBe(4);
    for (const gate of all) expect(passes(gate.command), gate.command).toBe(false);

    // What the two phases ask for.
    mkdirSync(path.join(dir, 'notes/example'), { recursive: true });
    writeFileSync(path.join(dir, 'notes/example/greeting.txt'), 'Hello from debussy\n');
    writeFileSync(path.join(dir, 'notes/example/shout.mjs'), "import { readFileSync } from 'node:fs';\nconsole.log(readFileSync('notes/example/greeting.txt', 'utf8').trim().toUpperCase());\n");
    writeFileSync(path.join(dir, 'notes/NOTES_example_phase_1.md'), '# Phase 1\nThe greeting is in notes/example/greeting.txt.\n');
    writeFileSync(path.join(dir, 'notes/NOTES_example_phase_2.md'), '# Phase 2\nRun node notes/example/shout.mjs.\n');
    for (const gate of all) expect(passes(gate.command), gate.command).toBe(true);

    // A script that does not shout fails its gate.
    writeFileSync(path.join(dir, 'notes/example/shout.mjs'), "console.log('hello');\n");
    expect(passes(all.find((gate) => gate.phase === '2' && gate.command.startsWith('node'))?.command ?? 'false')).toBe(false);
  });
});
