/**
 * A context overflow as the Gemini CLI reports it (gemini 0.61.0: a 400 whose words say so; its
 * shape through the real gemini is test/harness/gemini-errors.test.ts): debussy continues the phase
 * in a fresh session whose condensed checkpoint still carries the progress the first one recorded.
 * Moved from test/e2e/gemini-recovery.test.ts: after the session's end, all of it is debussy's own.
 */
import { describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../src/errors/index.js';
import { CHECKPOINT_HEADING } from '../../src/prompt/restart-prompt.js';
import { done, LoopProject, ofType, script, success, touch, useLoopStateDir } from '../support/in-process-run.js';

useLoopStateDir();

describe('a context overflow in a gemini-shaped session', () => {
  it('continues in a fresh session from a condensed checkpoint that keeps the recorded progress, and the phase completes', async () => {
    const project = LoopProject.create([{ id: '1', title: 'Overflowing', gates: [{ name: 'a', command: 'test -f a.txt' }] }]);
    try {
      const overflowing = script(
        { call: 20_000 }, { progress: 'wrote the first file' }, touch('a.txt', 'first\n'),
        // The end the gemini driver reports for it (test/harness/gemini-errors.test.ts).
        { apiError: 400, errorType: 'invalid_request', terminalReason: 'prompt_too_long', text: 'The input token count (1100000) exceeds the maximum number of tokens allowed (1048576).' },
      );
      const out = await project.run([overflowing, script({ call: 20_000 }, done, success)]);
      expect(out.exitCode).toBe(EXIT_CODES.success.code);
      expect(ofType(out.events, 'recovery').map((e) => [e.failureClass, e.action])).toEqual([['context_overflow', 'condensed_session']]);
      expect(ofType(out.events, 'phase_ended')).toMatchObject([{ status: 'completed' }]);
      const fresh = out.agent.launches[1];
      expect(fresh?.resumeSessionId).toBeUndefined();
      expect(fresh?.prompt).toContain(CHECKPOINT_HEADING);
      expect(fresh?.prompt).toMatch(/## Progress recorded so far\n1\. wrote the first file\n/);
    } finally {
      project.cleanup();
    }
  });
});
