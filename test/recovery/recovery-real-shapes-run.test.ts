/**
 * What debussy decides when a session ends the way the real claude 2.1.332 ends it on a 401 and on a
 * 529 (the result texts and error kinds test/harness/claude-errors.test.ts records from the real CLI
 * in test/fixtures/streams/), through the whole orchestrator with the in-process agent. The paths
 * that cross process boundaries (a rate limit resumed with --resume, a stalled stream, a SIGKILLed
 * agent) stay in test/e2e/recovery.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../src/errors/index.js';
import { FAILURE_CLASSES } from '../../src/recovery/index.js';
import { done, LoopProject, ofType, script, type ScriptStep, sessionsOf, success, useLoopStateDir } from '../support/in-process-run.js';

useLoopStateDir();

// The real CLI's last words (test/fixtures/streams/2.1.332/api-error-401.ndjson, api-error-529.ndjson).
const badKey: ScriptStep = { apiError: 401, errorType: 'authentication_failed', text: 'Invalid API key · Fix external API key' };
const overloaded: ScriptStep = { apiError: 529, errorType: 'server_error', text: 'API Error: 529 Overloaded. This is a server-side issue, usually temporary — try again in a moment.' };

describe.concurrent("the real CLI's failure shapes, decided in process", () => {
  it('401: no retry; the run stops with the prerequisites exit code and says to check the key', async () => {
    const project = LoopProject.create([{ id: '1', title: 'Bad key' }]);
    try {
      const out = await project.run([script({ call: 20_000 }, badKey), script({ call: 20_000 }, done, success)], { config: { max_retries: 3 } });
      expect(out.exitCode).toBe(EXIT_CODES.prerequisites.code);
      expect(out.exitCode).toBe(3);
      expect(sessionsOf(out.events)).toBe(1);
      expect(ofType(out.events, 'recovery')).toMatchObject([{ failureClass: 'authentication', action: 'abort' }]);
      // The advice, not the CLI's own words, names the key to check.
      expect(out.printed).toContain(FAILURE_CLASSES.authentication.suggestedAction);
      expect(out.printed).toMatch(/ANTHROPIC_API_KEY/);
    } finally {
      project.cleanup();
    }
  });

  it('529 with fallback_after 1: the first overload switches to the fallback model, which the next session runs on', async () => {
    const project = LoopProject.create([{ id: '1', title: 'Overloaded' }]);
    try {
      const out = await project.run([(launch) => (launch.model?.includes('haiku') === true ? [{ call: 20_000 }, done, success] : [{ call: 20_000 }, overloaded])], {
        config: { model: 'claude-sonnet-4-5', fallback_models: ['haiku'], fallback_after: 1, max_retries: 3 },
      });
      expect(out.exitCode).toBe(EXIT_CODES.success.code);
      expect(out.agent.launches.map((launch) => launch.model)).toEqual(['claude-sonnet-4-5', 'haiku']);
      expect(ofType(out.events, 'recovery').map((e) => [e.failureClass, e.action])).toEqual([['overloaded', 'switch_model']]);
      expect(ofType(out.events, 'phase_ended')).toMatchObject([{ status: 'completed' }]);
    } finally {
      project.cleanup();
    }
  });
});
