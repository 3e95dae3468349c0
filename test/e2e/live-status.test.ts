/**
 * `debussy status` from a second terminal while a run works: the live session's context, tool
 * calls and cost so far, the phase's last progress entry, and what runs next (a phase marked done
 * with `debussy done --verify` is not next). Through the built debussy and the real claude CLI
 * against the scripted server; status runs as a second process, as a person would run it. Its
 * Next line after an interrupted run: test/orchestrator/status-next-after-interrupt.test.ts.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listRuns, liveSessionPath, readLiveSession, type LiveSession } from '../../src/state/index.js';
import { E2EProject } from './e2e-project.js';
import { waitFor } from './processes.js';
import { firstUserText } from '../support/scripted-api.js';
import { assistantTurns, bash, done, write } from './session-script.js';

let project: E2EProject | undefined;
afterEach(async () => {
  await project?.dispose();
  project = undefined;
});

interface StatusJson {
  run: { status: string; phases: Record<string, { progress: { message: string }[] }> };
  next: string;
  live: { phaseId: string; sessionIndex: number; contextTokens: number; contextWindow: number; toolCalls: number; costUsd: number; costEstimated: boolean } | null;
}

/** The running session's figures as the run last wrote them for status (state/live-session.ts). */
async function liveFigures(dir: string): Promise<LiveSession | undefined> {
  const newest = (await listRuns(dir))[0];
  return newest === undefined ? undefined : readLiveSession(liveSessionPath(path.join(newest.dir, 'sessions')));
}

describe('debussy status during a run', () => {
  it('shows the running session, its last progress entry and what runs next', async () => {
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'First' }, { id: '2', title: 'Marked done', dependsOn: ['1'] }, { id: '3', title: 'Last', dependsOn: ['2'] }],
      script: (req) => {
        if (firstUserText(req).includes('executing phase 3 (')) return [bash('debussy done --phase 3'), done()][assistantTurns(req)] ?? done();
        return [
          write('part1.txt', 'part one\n', { usage: { input_tokens: 30_000 } }),
          bash('debussy progress --phase 1 --message "wrote part one"', { usage: { input_tokens: 31_000 } }),
          // The session stays busy while the test looks from a second terminal.
          bash('(sleep 12)', { usage: { input_tokens: 32_000 } }),
          bash('debussy done --phase 1'),
          done(),
        ][assistantTurns(req)] ?? done();
      },
    });
    const p = project;
    // Phase 2 is done and proven (its gates ran): the run skips it, and so must status's Next line.
    const mark = await p.run(['done', '--phase', '2', '--verify', '--plan', p.planArg]);
    expect(mark.code, mark.stdout + mark.stderr).toBe(0);

    const run = p.start(['run', p.planArg]);
    let status: StatusJson | undefined;
    // The run's own figures file (rewritten at most every 2 s) read here first, until it counts the
    // third tool call: each look through `debussy status` starts the binary, which the run's first
    // seconds need not pay for.
    await waitFor('the live figures to count three tool calls', async () => ((await liveFigures(p.dir))?.toolCalls ?? 0) >= 3, 45_000);
    await waitFor('status to show the live session with its progress', async () => {
      const result = await p.run(['status', '--json']);
      if (result.code !== 0) return false;
      status = JSON.parse(result.stdout) as StatusJson;
      return status.live != null && status.live.toolCalls >= 3 && (status.run.phases['1']?.progress.length ?? 0) > 0;
    }, 45_000).catch((error: unknown) => {
      throw new Error(`${String(error)}; last status: ${JSON.stringify(status)?.slice(0, 3000)}`);
    });
    const live = status?.live;
    expect(live).toMatchObject({ phaseId: '1', sessionIndex: 1, contextWindow: 200_000, costEstimated: true });
    expect(live?.contextTokens).toBeGreaterThanOrEqual(31_000);
    expect(live?.costUsd).toBeGreaterThan(0);
    expect(status?.run.status).toBe('running');
    expect(status?.next).toBe('phase 1 is running (session 1); after it, this run goes on with 3');

    const text = await p.run(['status']);
    expect(text.code).toBe(0);
    const sessionLine = text.stdout.split('\n').find((line) => line.startsWith('  1 #1:')) ?? text.stdout;
    expect(sessionLine).toMatch(/^ {2}1 #1: running, context \d+\.\d% \(3\d,\d{3} of 200,000 tokens, limit 160,000\), [3-9] tool calls, ~\$\d+\.\d\d so far, as of \d\d:\d\d:\d\d$/);
    expect(text.stdout).toContain('  1: wrote part one (');
    expect(text.stdout).toContain('Next: phase 1 is running (session 1); after it, this run goes on with 3');
    // The table counts the running session: its tokens, not 0.
    const row = text.stdout.split('\n').find((line) => line.startsWith('1 ')) ?? '';
    expect(row).not.toMatch(/\s0\s+\$0\.00/);

    const result = await run.done;
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const after = JSON.parse((await p.run(['status', '--json'])).stdout) as StatusJson;
    expect(after.live).toBeNull();
    expect(after.next).toBe('nothing: every phase completed');
  }, 120_000);
});
