/**
 * The default cap (max_context_tokens 160,000) stops a session on a 1M-token model long before 80%
 * of its window, and the phase restarts from a checkpoint: through the whole orchestrator with the
 * in-process agent, whose init names the CLI's 1M variant (`[1m]`) as the real claude's does. That
 * the real claude 2.1.332's default model is such a 1M variant is shown through the real CLI in
 * test/e2e/context-truth.test.ts ("--max-context-tokens stops a 1M session at the cap").
 */
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/index.js';
import { EXIT_CODES } from '../../src/errors/index.js';
import { done, LoopProject, ofType, script, success, touch, useLoopStateDir } from '../support/in-process-run.js';

useLoopStateDir();

describe('the default context cap', () => {
  it('a 1M session restarts at the default cap of 160,000 tokens', async () => {
    expect(defaultConfig().max_context_tokens).toBe(160_000);
    const project = LoopProject.create([{ id: '1', title: 'Default cap' }]);
    try {
      const out = await project.run([script({ call: 165_000 }, touch('after-cap.txt'), { call: 166_000 }, done, success), script({ call: 20_000 }, done, success)], {
        window: 1_000_000,
        config: { model: 'claude-sonnet-4-5[1m]', max_context_tokens: defaultConfig().max_context_tokens },
      });
      expect(out.exitCode).toBe(EXIT_CODES.success.code);
      expect(ofType(out.events, 'context_crossed')).toMatchObject([{ phaseId: '1', trigger: 'context', contextWindow: 1_000_000, limit: { tokens: 160_000, source: 'max_context_tokens' }, stopping: true }]);
      expect(ofType(out.events, 'restart')).toMatchObject([{ phaseId: '1', restart: 1 }]);
      expect(ofType(out.events, 'phase_ended')).toMatchObject([{ phaseId: '1', status: 'completed' }]);
    } finally {
      project.cleanup();
    }
  });
});
