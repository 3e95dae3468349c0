/**
 * A restart's checkpoint tells the next session which files are the phase's work and which the
 * user had changed before the phase began. Found by reading a restart prompt after `run
 * --allow-dirty`: the user's own edits were listed as "files changed since the phase started",
 * and counted as the phase's uncommitted work, inviting the next session to treat them as its own.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { firstUserText } from '../support/scripted-api.js';
import { E2EProject } from './e2e-project.js';
import { bash, done, scriptBySession, sessionKind, write } from './session-script.js';

const CROSSING_USAGE = { input_tokens: 165_000 }; // 82.5% of a 200,000-token window

let project: E2EProject | undefined;
afterEach(async () => {
  await project?.dispose();
  project = undefined;
});

describe('the checkpoint of a restart', () => {
  it("lists the phase's files as its work and the user's earlier edits apart, as theirs", async () => {
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Restart with user edits' }],
      script: scriptBySession({
        fresh: [write('agent-part.txt', 'agent\n', { usage: CROSSING_USAGE }), bash('touch never.txt', { latencyMs: 1500 }), done()],
        checkpoint: [bash('debussy done --phase 1'), done()],
      }),
    });
    project.write('user-notes.md', 'tracked\n');
    await project.git('add', 'user-notes.md');
    await project.git('commit', '-q', '-m', 'user file');
    project.write('user-notes.md', 'tracked\nthe user was here\n');
    project.write('user-scratch.txt', 'untracked, the user\'s\n');

    const result = await project.run(['run', project.planArg, '--allow-dirty']);
    expect(result.code, result.stdout + result.stderr).toBe(0);

    const restart = project.api.mainRequests().find((r) => sessionKind(r) === 'checkpoint');
    expect(restart, 'a checkpoint session ran').toBeDefined();
    const prompt = firstUserText(restart!);
    const phaseFiles = /## Files changed since the phase started\n([\s\S]*?)\n\n##/.exec(prompt)?.[1] ?? '';
    expect(phaseFiles).toContain('agent-part.txt');
    expect(phaseFiles).not.toContain('user-notes.md');
    expect(phaseFiles).not.toContain('user-scratch.txt');
    const usersFiles = /## Files the user had changed before the phase started[^\n]*\n([\s\S]*?)(\n\n##|$)/.exec(prompt)?.[1] ?? '';
    expect(usersFiles).toContain('- user-notes.md');
    expect(usersFiles).toContain('- user-scratch.txt');
    // The user's files stay uncommitted and unchanged.
    expect(project.read('user-notes.md')).toBe('tracked\nthe user was here\n');
    expect(await project.git('status', '--porcelain', '--', 'user-notes.md', 'user-scratch.txt')).toBe(' M user-notes.md\n?? user-scratch.txt\n');
  });
});
