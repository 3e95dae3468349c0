/**
 * "Nothing stranded", in process: a run that ends on an API failure or a failed phase leaves the
 * agent's work in the tree, and the next run resumes the phase from its checkpoint and commits that
 * work in the phase, never as the user's; the user's edits since stay out. The whole orchestrator
 * (runPlan, real git) with the in-process agent (test/support/in-process-run.ts).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../src/errors/index.js';
import { done, LoopProject, ofType, script, type ScriptStep, success, touch, useLoopStateDir } from '../support/in-process-run.js';

useLoopStateDir();

const badKey: ScriptStep = { apiError: 401, errorType: 'authentication_error', text: 'API Error: 401 {"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}' };

describe.concurrent('work a run leaves in the tree is carried by the next run', () => {
  it('a 401 after the agent edited a tracked file, then a resume without the key: the next run resumes from the checkpoint and commits the edit in the phase', async () => {
    const project = LoopProject.create([{ id: '1', title: 'Bad key' }], { git: true, files: { 'src/app.txt': 'version one\n' } });
    try {
      const first = await project.run([script({ call: 20_000 }, touch('src/app.txt', 'version two, by the agent\n'), { progress: 'rewrote src/app.txt' }, badKey)]);
      expect(first.exitCode).toBe(EXIT_CODES.prerequisites.code);
      expect(readFileSync(path.join(project.dir, 'src/app.txt'), 'utf8')).toBe('version two, by the agent\n');
      expect(ofType(first.events, 'recovery')).toMatchObject([{ failureClass: 'authentication', action: 'abort' }]);

      // A first resume in a terminal without the key fails the same way, and strands nothing either.
      const second = await project.run([script(badKey)]);
      expect(second.exitCode).toBe(EXIT_CODES.prerequisites.code);
      expect(ofType(second.events, 'recovery')).toMatchObject([{ failureClass: 'authentication', action: 'abort' }]);

      const third = await project.run([script({ call: 20_000 }, done, success)]);
      expect(third.exitCode).toBe(EXIT_CODES.success.code);
      expect(ofType(third.events, 'attempt_started')[0]?.kind).toBe('resume');
      expect(ofType(third.events, 'phase_ended')).toMatchObject([{ phaseId: '1', status: 'completed' }]);
      expect(third.agent.launches.at(-1)?.prompt).toContain('1. rewrote src/app.txt');

      // The edit is the phase's: committed by it, never named as the user's.
      expect(project.committed()).toContain('src/app.txt');
      expect(project.git('show', 'HEAD:src/app.txt')).toBe('version two, by the agent\n');
      expect(third.printed).not.toContain('before the phase began');
      expect(third.printed).not.toContain('changed while debussy was stopped');
      expect(project.git('status', '--porcelain', '--untracked-files=no')).toBe('');
    } finally {
      project.cleanup();
    }
  });

  it("a failed phase's work stays in the tree (commit_on_failure off) and is carried: the next run resumes the phase and commits it; the user's edit since stays out", async () => {
    const project = LoopProject.create([{ id: '1', title: 'Fails once' }], { git: true, files: { 'mine.txt': "the user's\n" } });
    try {
      const first = await project.run([script(
        { call: 20_000 }, touch('feature.txt', 'half a feature\n'), { progress: 'wrote half of feature.txt' },
        { done: 'failed', reason: 'cannot finish today' }, success,
      )], { config: { max_retries: 0 } });
      expect(first.exitCode).toBe(EXIT_CODES.failed.code);
      expect(project.committed()).toEqual([]);
      expect(ofType(first.events, 'uncommitted_at_stop')).toMatchObject([{ files: [{ path: 'feature.txt' }] }]);

      project.write('mine.txt', 'edited by the user while debussy was stopped\n');
      const second = await project.run([script({ call: 20_000 }, done, success)], { config: { max_retries: 0 } });
      expect(second.exitCode).toBe(EXIT_CODES.success.code);
      expect(ofType(second.events, 'attempt_started')[0]?.kind).toBe('resume');
      expect(second.agent.launches.at(-1)?.prompt).toContain('1. wrote half of feature.txt');
      expect(project.committed()).toContain('feature.txt');
      expect(project.committed()).not.toContain('mine.txt');
      expect(readFileSync(path.join(project.dir, 'mine.txt'), 'utf8')).toBe('edited by the user while debussy was stopped\n');
      expect(second.printed).toContain('mine.txt (changed while debussy was stopped)');
    } finally {
      project.cleanup();
    }
  });
});
