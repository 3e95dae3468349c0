/**
 * A session that ends without signalling is continued with a reminder through the real claude
 * CLI's --resume: the reminder reaches the model after the earlier conversation. debussy's own
 * verification decisions (gates re-run, remediation, notes, blocked, a stale signal, --phase and
 * --only) are shown in process: test/verification/gate-verification-run.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../support/scripted-api.js';
import { E2EProject } from './e2e-project.js';
import { assistantTurns, bash, done, lastUserText, scriptBySession, write } from './session-script.js';

let project: E2EProject | undefined;
afterEach(async () => {
  await project?.dispose();
  project = undefined;
});

describe('unsignalled sessions', () => {
  it('a session that ends without a signal is resumed once with a reminder, after its conversation', async () => {
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Forgetful' }],
      script: scriptBySession({ fresh: [write('a.txt', 'a\n'), done('All done, I think.')], reminder: [bash('debussy done --phase 1'), done()] }),
    });
    const result = await project.run(['run', project.planArg]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const reminded = project.api.mainRequests().filter((r) => lastUserText(r).includes('ended without signalling'));
    expect(reminded).toHaveLength(1);
    // --resume re-sends the earlier conversation: the reminder comes after it.
    expect(assistantTurns(reminded[0] as RecordedRequest)).toBeGreaterThanOrEqual(2);
  });
});
