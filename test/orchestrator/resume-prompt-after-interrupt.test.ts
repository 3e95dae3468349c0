/**
 * Issue 11, "Resume and restart carry everything", in process: after an interrupt (Ctrl-C: the
 * run's AbortController), the first prompt of the next run holds what the interrupted run recorded
 * (progress entries, the last activity, the phase's commits) and says rightly whether the work is
 * committed or still in the working tree. The whole orchestrator (runPlan, real git) with the
 * in-process agent; test/e2e/resume-prompt.test.ts keeps the resume after kill -9 of the built
 * debussy, whose last activity only the real session log holds.
 */
import { describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../src/errors/index.js';
import { done, LoopProject, ofType, script, type ScriptStep, success, touch, useLoopStateDir } from '../support/in-process-run.js';

useLoopStateDir();

/** The phase's first session: it writes part one, records two progress entries and is interrupted while its Bash `command` runs. */
function interruptedSession(command: string, interrupt: AbortController): ScriptStep[] {
  return [
    { call: 20_000 }, touch('part1.txt', 'part one\n'),
    { call: 22_000 }, { progress: 'wrote part one' },
    { call: 24_000 }, { progress: 'started part two' },
    { call: 26_000 }, { tool: 'Bash', input: { command }, run: () => interrupt.abort() },
    { hang: true },
  ];
}

async function interruptedThenResumed(command: string, config: { auto_commit?: boolean } = {}) {
  const project = LoopProject.create([{ id: '1', title: 'Interrupted' }], { git: true });
  try {
    const interrupt = new AbortController();
    const first = await project.run([() => interruptedSession(command, interrupt)], { interrupt, config });
    expect(first.exitCode).toBe(EXIT_CODES.interrupted.code);
    const resumed = await project.run([script({ call: 20_000 }, done, success)], { config });
    expect(resumed.exitCode).toBe(EXIT_CODES.success.code);
    expect(ofType(resumed.events, 'phase_ended')).toMatchObject([{ phaseId: '1', status: 'completed' }]);
    return { first, prompt: resumed.agent.launches[0]?.prompt ?? '' };
  } finally {
    project.cleanup();
  }
}

describe.concurrent('interrupted, then resumed', () => {
  it('the first prompt holds the progress, the last activity and the commits; the work is committed', async () => {
    const { first, prompt } = await interruptedThenResumed('(sleep 27)');
    const commit = ofType(first.events, 'commit').find((c) => c.purpose === 'interrupted');
    expect(commit).toBeDefined();
    expect(prompt).toContain('1. wrote part one');
    expect(prompt).toContain('2. started part two');
    expect(prompt).not.toContain('(none recorded');
    expect(prompt).toContain('## What the previous session was doing last');
    expect(prompt).toContain('sleep 27');
    expect(prompt).toContain(commit?.sha.slice(0, 10) ?? 'no commit');
    expect(prompt).toContain('Its work is committed');
    expect(prompt).toContain('part1.txt');
  });

  it('with auto_commit off, the prompt says the work is in the working tree', async () => {
    const { first, prompt } = await interruptedThenResumed('(sleep 28)', { auto_commit: false });
    expect(ofType(first.events, 'commit')).toEqual([]);
    expect(prompt).toContain('1. wrote part one');
    expect(prompt).toContain('sleep 28');
    expect(prompt).toContain('not committed: it is in the working tree');
    expect(prompt).not.toContain('## Commits made in this phase');
  });
});
