/**
 * Terminal control sequences in text debussy did not write (plan files, the agent, its tools, gate
 * output, API errors) are shown, never executed: a whole run in process (the orchestrator, real
 * gates and git, the in-process agent) through the reporters `debussy run --plain --verbose`
 * builds, then status, logs and history as the commands print them, and git log. What needs the
 * built binary and a real terminal (the live view's bytes, the real claude's session logs) stays
 * in test/e2e-output/untrusted-text.test.ts.
 */
import { describe, expect, it } from 'vitest';
import historyCommand from '../../src/cli/commands/history.js';
import logsCommand from '../../src/cli/commands/logs.js';
import { foreignIn, HOSTILE, HOSTILE_PRINTF, hostilePlanFiles } from '../support/hostile-text.js';
import { LoopProject, done, script, success, touch, useLoopStateDir } from '../support/in-process-run.js';
import { commandOutput, commandStdout, statusOutput } from '../support/loop-output.js';

useLoopStateDir();

/** The plan's title, the phase's title, a task and a gate's name all carry HOSTILE. */
function hostileProject(): LoopProject {
  return LoopProject.create([{ id: '1', title: 'x' }], {
    git: true,
    files: hostilePlanFiles(),
  });
}

function expectInert(label: string, text: string): void {
  expect(foreignIn(text).join('\n'), `${label} holds a control character from the hostile text`).toBe('');
}

/**
 * The agent says text with escapes, calls a tool with some in its input (refused), runs a command
 * whose output holds some (and fails), records progress with some and signals; the gate fails and
 * prints some; a remediation session fixes it and signals again.
 */
const hostileSessions = [
  script(
    { call: 20_000 }, { say: `Agent says ${HOSTILE} hello` },
    { tool: 'Grep', input: { pattern: `needle${HOSTILE}` }, result: 'permission denied', isError: true },
    { tool: 'Bash', input: { command: `printf 'tool says ${HOSTILE_PRINTF}\\n'; exit 3` }, result: `tool says ${HOSTILE}\n`, isError: true },
    { progress: `progress ${HOSTILE} noted` }, done, success,
  ),
  script({ call: 25_000 }, touch('fixed.txt', 'fixed\n'), done, { say: `Phase finished ${HOSTILE}.` }, success),
];

/** What the user reads after a run with `status`, `logs` and `history`, each command's stdout by name. */
async function readBack(dir: string, commands: string[]): Promise<Record<string, string>> {
  const run: Record<string, () => Promise<unknown>> = {
    'logs': () => logsCommand(undefined, {}),
    'logs --raw': () => logsCommand(undefined, { raw: true }),
    'logs --json': () => logsCommand(undefined, { json: true }),
    'history': () => historyCommand({ limit: '10' }),
    'history --json': () => historyCommand({ limit: '10', json: true }),
  };
  const out: Record<string, string> = { 'status': await statusOutput(dir), 'status --json': await statusOutput(dir, { json: true }) };
  for (const name of commands) out[name] = await commandStdout(dir, run[name] ?? (() => Promise.reject(new Error(name))), { withStderr: true });
  return out;
}

describe.concurrent('control sequences from plan files, the agent and its tools, through a run', () => {
  it('--plain --verbose, status, logs, history and git log: none reaches the terminal or a commit', async () => {
    const project = hostileProject();
    try {
      const output = await commandOutput({ plain: true, verbose: true }, { CI: 'true' });
      const out = await project.run(hostileSessions, { reporter: output.reporter });
      const printed = output.written();
      expect(out.exitCode, printed).toBe(0);
      expectInert('debussy run --plain', printed);
      // What was said is still shown, only the control sequences are gone.
      expect(printed).toMatch(/Agent says .*hello/);
      expect(printed).toMatch(/Grep: needle/);
      expect(printed).toMatch(/tool error: .*tool says/);
      expect(printed).toMatch(/gate says .* done/);
      expect(printed).toMatch(/progress: progress .*noted/);

      const read = await readBack(project.dir, ['logs', 'logs --raw', 'logs --json', 'history', 'history --json']);
      for (const [name, text] of Object.entries(read)) {
        expect(text, name).not.toBe('');
        expectInert(`debussy ${name}`, text);
      }
      expect(read['history']).toMatch(/Hostile.*Plan/);

      const messages = project.git('log', '--format=%B%n--end--');
      expect(messages).toMatch(/Clip.*board/);
      expectInert('git log', messages);
    } finally {
      project.cleanup();
    }
  });

  it('an API error whose message holds them: the error, the give-up notice, status and logs show none', async () => {
    // A plain plan: the API's message is the only hostile text.
    const project = LoopProject.create([{ id: '1', title: 'Plain' }]);
    try {
      const output = await commandOutput({}, { CI: 'true' });
      const out = await project.run([script({ call: 20_000 }, { apiError: 400, errorType: 'invalid_request_error', text: `bad request ${HOSTILE} here` })], { reporter: output.reporter });
      const printed = output.written();
      expect(out.exitCode, printed).toBe(1);
      expect(printed).toMatch(/API error .*bad request.*here/);
      expect(printed).toMatch(/debussy gave up on phase 1/);
      expectInert('debussy run', printed);
      for (const [name, text] of Object.entries(await readBack(project.dir, ['logs', 'logs --raw']))) expectInert(`debussy ${name}`, text);
    } finally {
      project.cleanup();
    }
  });
});
