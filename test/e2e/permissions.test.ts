/**
 * Issue 11: permissions, through the real claude CLI against the scripted model server. A
 * configuration that refuses the agent's tool calls ends the run at once with the refusals named
 * and exit code 7 (no retry, no reminder blaming the prompt); debussy's own `debussy done` is
 * allowed whatever the mode; permission_mode / allowed_tools reach claude as its own flags.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { E2EProject, eventsOf } from './e2e-project.js';
import { bash, done, scriptBySession, write } from './session-script.js';

let project: E2EProject | undefined;
afterEach(async () => {
  await project?.dispose();
  project = undefined;
});

describe('permissions', () => {
  it('a refusing configuration ends the run after one session with the refusals named and exit code 7', async () => {
    let dir = '';
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Needs to act' }, { id: '2', title: 'Later', dependsOn: ['1'] }],
      config: { claude_args: [], permission_mode: 'default', max_retries: 3 },
      script: scriptBySession({ fresh: [write(path.join(dir, 'src', 'x.ts'), 'export const x = 1;\n'), bash('npm test'), done('I was not allowed to write or test.')] }),
    });
    dir = project.dir;
    const dry = await project.run(['run', project.planArg, '--dry-run']);
    expect(dry.stdout).toContain("warning: claude would refuse the agent's file edits (Write, Edit; permission_mode acceptEdits allows them) (permission_mode default");
    const result = await project.run(['run', project.planArg]);
    const output = result.stdout + result.stderr;
    expect(result.code, output).toBe(7);
    expect(output).toContain('claude refused 2 tool calls (Write: src/x.ts, Bash: npm test): allow them with permission_mode / allowed_tools');
    expect(output).toContain('not retried: the run stops');
    expect(output).not.toContain('check that the phase prompt');
    expect(output).not.toContain('ended without signalling completion');
    // The pre-run check saw it coming.
    expect(output).toContain("claude would refuse the agent's file edits (Write, Edit; permission_mode acceptEdits allows them) (permission_mode default");

    const events = await project.journal();
    expect(eventsOf(events, 'session_started')).toHaveLength(1);
    expect(eventsOf(events, 'recovery')).toMatchObject([{ failureClass: 'permissions', action: 'abort' }]);
    expect(eventsOf(events, 'run_ended')).toMatchObject([{ status: 'aborted', exitCode: 7 }]);
    expect(project.api.mainRequests()).toHaveLength(3);
  });

  it("a session that signals done after refusals and then fails its gates stops the run with exit 7, without remediation sessions; debussy's own `debussy done` is allowed in claude's default mode with no rules of the user's", async () => {
    let dir = '';
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Refused, then claims done', gates: [{ name: 'written', command: 'test -f src/z.ts' }] }],
      config: { claude_args: [], permission_mode: 'default', max_retries: 3 },
      script: scriptBySession({ fresh: [write(path.join(dir, 'src', 'z.ts'), 'export const z = 3;\n'), bash('debussy done --phase 1'), done()] }),
    });
    dir = project.dir;
    const result = await project.run(['run', project.planArg]);
    const output = result.stdout + result.stderr;
    expect(result.code, output).toBe(7);
    expect(output).toContain('gate(s) written failed after claude refused 1 tool call (Write: src/z.ts): allow them with permission_mode / allowed_tools');
    const events = await project.journal();
    expect(eventsOf(events, 'session_started')).toHaveLength(1);
    // `debussy done` ran (claude refused only the Write above): the agent's signal reached the run.
    expect(eventsOf(events, 'signal')).toMatchObject([{ phaseId: '1', status: 'completed' }]);
    expect(eventsOf(events, 'gate_result')).toMatchObject([{ name: 'written', passed: false }]);
    expect(eventsOf(events, 'run_ended')).toMatchObject([{ exitCode: 7 }]);
  });

  it.skipIf(process.getuid?.() !== 0)('bypassPermissions as root outside a sandbox: claude will not start, and the run says why with exit code 7', async () => {
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Never starts' }],
      config: { claude_args: [], permission_mode: 'bypassPermissions', max_retries: 3 },
      script: scriptBySession({ fresh: [bash('debussy done --phase 1'), done()] }),
    });
    const result = await project.run(['run', project.planArg], { IS_SANDBOX: '' });
    const output = result.stdout + result.stderr;
    expect(result.code, output).toBe(7);
    expect(output).toContain('claude refused to start: --dangerously-skip-permissions cannot be used with root/sudo privileges');
    expect(output).toContain('IS_SANDBOX=1');
    expect(eventsOf(await project.journal(), 'session_started')).toHaveLength(1);
    expect(project.api.mainRequests()).toHaveLength(0);
  });

  it('--permission-mode and --allowed-tools reach claude; a refusal in a session that signals is a warning, not a failure', async () => {
    let dir = '';
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Allowed', gates: [{ name: 'written', command: 'test -f src/y.ts' }] }],
      config: { claude_args: [] },
      script: scriptBySession({
        fresh: [write(path.join(dir, 'src', 'y.ts'), 'export const y = 2;\n'), bash('echo checked'), bash('npm test'), bash('debussy done --phase 1'), done()],
      }),
    });
    dir = project.dir;
    const result = await project.run(['run', project.planArg, '--permission-mode', 'acceptEdits', '--allowed-tools', 'Bash(echo checked:*)', '--allowed-tools', 'Bash(test -f:*)']);
    const output = result.stdout + result.stderr;
    expect(result.code, output).toBe(0);
    expect(output).not.toContain('claude would refuse');
    expect(output).toContain('claude refused 1 tool call (Bash: npm test); allow them with permission_mode / allowed_tools');
    expect(project.read('src/y.ts')).toContain('y = 2');
    const events = await project.journal();
    expect(eventsOf(events, 'phase_ended')).toMatchObject([{ status: 'completed' }]);
    const results = project.api.mainRequests().map((r) => JSON.stringify(r.body));
    expect(results.some((body) => body.includes('checked'))).toBe(true);
  });
});
