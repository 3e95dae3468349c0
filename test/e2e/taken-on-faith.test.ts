/**
 * "Nothing taken on faith", where only the real claude CLI can show it (its permission denials in
 * the stream), through the built debussy and the scripted server: a gate-less phase whose session
 * was refused its tool calls is not completed on the agent's word (exit 7). A done for another
 * phase, inherited failures told apart by what fails, audit errors of unselected phases and the
 * audit's note on a gate-less phase are shown in process: test/verification/taken-on-faith-run.test.ts.
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

describe('a gate-less phase is not completed on the word of a session that was refused', () => {
  it('claude refused the edits and the agent signalled done: exit 7 naming the refused calls, the phase not completed', async () => {
    let dir = '';
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'No gates', gates: [] }],
      config: { claude_args: [], permission_mode: 'default', max_retries: 3 },
      script: scriptBySession({ fresh: [write(path.join(dir, 'src', 'x.ts'), 'export const x = 1;\n'), bash('debussy done --phase 1'), done('Done.')] }),
    });
    dir = project.dir;

    const result = await project.run(['run', project.planArg]);
    const output = result.stdout + result.stderr;
    expect(result.code, output).toBe(7);
    expect(output).toContain('no gates check this phase, and claude refused 1 tool call (Write: src/x.ts) in the session that signalled it done: allow them with permission_mode / allowed_tools, and give the phase gates');
    const events = await project.journal();
    expect(eventsOf(events, 'session_started')).toHaveLength(1);
    expect(eventsOf(events, 'signal')).toMatchObject([{ phaseId: '1', status: 'completed' }]);
    expect(eventsOf(events, 'phase_ended')).toMatchObject([{ phaseId: '1', status: 'failed' }]);
    expect(eventsOf(events, 'run_ended')).toMatchObject([{ exitCode: 7 }]);
    expect(await project.git('log', '--format=%s')).not.toMatch(/phase 1.*complete/i);
  });
});
