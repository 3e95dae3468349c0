/**
 * Terminal control sequences in text debussy did not write (plan files, the agent, its tools, gate
 * output) are shown, never executed: through the built binary, the real claude CLI against the
 * scripted server and a real terminal (tmux), no ESC, BEL, C1 control or bidirectional override
 * from that text reaches the terminal or the real session logs. The same through a run in process
 * (--plain, status, logs, history, git log, an API error's message):
 * test/report/untrusted-text-run.test.ts; audit, --dry-run and config of such a plan:
 * test/plan/untrusted-plan-text.test.ts.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEBUSSY_BIN } from '../cli/cli-harness.js';
import { foreignIn, HOSTILE, HOSTILE_PRINTF, hostilePlanFiles } from '../support/hostile-text.js';
import { E2EProject } from '../e2e/e2e-project.js';
import { bash, scriptBySession, write } from '../e2e/session-script.js';
import { outputEnv, runDebussy } from './output-env.js';
import { hasScript } from './pty-script.js';
import { hasTmux, TmuxScreen } from './tmux-screen.js';

/** debussy's own sequences in the live view: colour, cursor hiding, clear to the end, cursor up. */
// eslint-disable-next-line no-control-regex
const OWN_SEQUENCES = /\x1b\[[0-9;]*m|\x1b\[\?25[lh]|\x1b\[J|\x1b\[\d+A/g;

const PLAN = 'plans/e2e/MASTER_PLAN.md';

function expectInert(label: string, text: string): void {
  expect.soft(foreignIn(text).join('\n'), `${label} holds a control character from the hostile text`).toBe('');
}

/**
 * The agent says text with escapes, calls a tool with some in its input (claude refuses it), runs
 * a command whose output holds some (and fails), records progress with some, checks the gates
 * (which fail and print some), fixes, signals.
 */
function hostileSession() {
  return scriptBySession({
    fresh: [
      { kind: 'tool_use', name: 'Grep', input: { pattern: `needle${HOSTILE}` }, text: `Agent says ${HOSTILE} hello` },
      bash(`printf 'tool says ${HOSTILE_PRINTF}\\n'; exit 3`),
      bash(`debussy progress --phase 1 --message "$(printf 'progress ${HOSTILE_PRINTF} noted')"`),
      bash('debussy done --phase 1 --verify'),
      write('fixed.txt', 'fixed\n'),
      bash('debussy done --phase 1'),
      { kind: 'text', text: `Phase finished ${HOSTILE}.` },
    ],
  });
}

let project: E2EProject | undefined;
let screen: TmuxScreen | undefined;
let tempDir: string | undefined;
afterEach(async () => {
  await screen?.dispose();
  screen = undefined;
  await project?.dispose();
  project = undefined;
  if (tempDir) rmSync(tempDir, { recursive: true, force: true });
  tempDir = undefined;
});

describe.runIf(hasTmux() && hasScript())('control sequences in the live view', () => {
  it('the terminal gets only debussy\'s own sequences: no clipboard write, no cleared screen', async () => {
    project = await E2EProject.create({ phases: [{ id: '1', title: 'x' }], files: hostilePlanFiles(), script: hostileSession() });
    tempDir = mkdtempSync(path.join(os.tmpdir(), 'debussy-untrusted-'));
    const raw = path.join(tempDir, 'terminal.raw');
    // script(1) between tmux and debussy keeps every byte debussy wrote; tmux shows what they did.
    const command = [process.execPath, DEBUSSY_BIN, 'run', PLAN].map((part) => `'${part}'`).join(' ');
    screen = await TmuxScreen.start({ command: ['script', '-qfec', command, raw], cwd: project.dir, env: outputEnv(project, {}), width: 110, height: 30, clipboard: true });
    expect(await screen.waitForExit(60_000)).toBe(0);

    const written = readFileSync(raw, 'utf8');
    expect(written).toContain('\x1b[?25l'); // the live view, not plain output
    expectInert('the live view (without its own sequences)', written.replace(OWN_SEQUENCES, ''));
    expect(await screen.pasteBuffers()).toEqual([]);
    expect((await screen.capture(true)).join('\n')).toMatch(/Hostile.*Plan/);

    // The real claude's session logs, as logs shows them (the run's other outputs: test/report/untrusted-text-run.test.ts).
    const env = outputEnv(project, { CI: 'true' });
    for (const args of [['logs'], ['logs', '--raw'], ['logs', '--json']]) {
      const result = await runDebussy(project, args, env);
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
      expectInert(`debussy ${args.join(' ')}`, result.stdout + result.stderr);
    }
    expect((await runDebussy(project, ['logs'], env)).stdout).toMatch(/says: Agent says .*hello/);
  });
});
