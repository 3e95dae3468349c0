/**
 * Issue 23: Claude Code's bare mode (`--bare` in claude_args, or CLAUDE_CODE_SIMPLE=1 in the
 * environment) skips every hook, debussy's included: no stop guard, no PreCompact refusal. Measured
 * with claude 2.1.332 before the fix: nothing was said, and a prompt-too-long made claude summarise
 * the session's history behind debussy's back. Now debussy says so before the run, notices in the
 * session that its SessionStart hook did not answer, and claude's compaction stays off anyway.
 * Through the built debussy, the real claude CLI and the scripted server.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { firstUserText, type RecordedRequest, type ScriptedTurn } from '../support/scripted-api.js';
import { E2EProject, eventsOf } from './e2e-project.js';
import { assistantTurns, bash, done, sessionKind, write } from './session-script.js';

let project: E2EProject | undefined;
afterEach(async () => {
  await project?.dispose();
  project = undefined;
});

const PROMPT_TOO_LONG: ScriptedTurn = { kind: 'error', status: 400, type: 'invalid_request_error', message: 'prompt is too long: 212000 tokens > 200000 maximum' };
const isSummaryRequest = (req: RecordedRequest) => JSON.stringify(req.body).includes('Respond with TEXT ONLY');
const HOOKS_DID_NOT_ANSWER = "debussy's hooks did not answer in session 1 of phase 1";

describe("Claude Code's bare mode turns debussy's hooks off", () => {
  it.each<[string, string[], Record<string, string>, RegExp | undefined]>([
    ['--bare in claude_args', ['--bare'], {}, /--bare in claude_args \(Claude Code's bare mode\): debussy's hooks are off in its sessions/],
    ['CLAUDE_CODE_SIMPLE=1 in the environment', [], { CLAUDE_CODE_SIMPLE: '1' }, /CLAUDE_CODE_SIMPLE=1 in the environment \(Claude Code's bare mode\): debussy's hooks are off in its sessions/],
    ['neither (hooks on)', [], {}, undefined],
  ])('%s: said before the run and in the session; a prompt-too-long restarts from a checkpoint, never a summary', async (_name, args, env, warning) => {
    const fresh = [write('part1.txt', 'part one\n'), bash('debussy progress --phase 1 --message "wrote part one"'), PROMPT_TOO_LONG];
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Overflowing' }],
      config: { claude_args: ['--dangerously-skip-permissions', ...args], claude_max_retries: 0 },
      script: (req) => {
        if (isSummaryRequest(req)) return { kind: 'text', text: 'SUMMARY OF WORK' };
        if (firstUserText(req).startsWith('This session is being continued')) return bash('touch after-summary.txt');
        if (sessionKind(req) === 'checkpoint') return [bash('debussy done --phase 1'), done()][assistantTurns(req)] ?? done();
        return fresh[assistantTurns(req)] ?? done();
      },
    });
    const result = await project.run(['run', project.planArg], env);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const events = await project.journal();
    const notices = eventsOf(events, 'notice').map((n) => n.message);
    if (warning === undefined) {
      expect(notices.filter((n) => /hooks (are off|did not answer)/.test(n))).toEqual([]);
    } else {
      // Before the run, from what debussy can see; then from the session itself, once a run.
      expect(result.stdout).toMatch(warning);
      expect(notices.filter((n) => n.startsWith("debussy's hooks did not answer"))).toEqual([expect.stringContaining(HOOKS_DID_NOT_ANSWER) as unknown]);
      expect(project.sessionLogs()).toContain("debussy's hooks did not answer (SessionStart)");
    }
    // claude never summarised the history: debussy restarted the phase from its checkpoint.
    expect(project.api.mainRequests().filter(isSummaryRequest)).toEqual([]);
    expect(project.sessionLogs('.stream.ndjson')).not.toContain('compact_boundary');
    expect(eventsOf(events, 'compaction')).toEqual([]);
    expect(eventsOf(events, 'recovery').map((e) => [e.failureClass, e.action])).toEqual([['context_overflow', 'condensed_session']]);
    const restarted = project.api.mainRequests().find((r) => sessionKind(r) === 'checkpoint');
    expect(restarted && firstUserText(restarted)).toContain('wrote part one');
    expect(eventsOf(events, 'phase_ended')).toMatchObject([{ status: 'completed' }]);
  });
});
