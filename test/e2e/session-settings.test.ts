/**
 * Issue 11: a user's own `--settings` and debussy's hooks both take effect, and Claude Code's own
 * compaction never acts behind debussy's back. Through the built debussy, the real claude CLI and
 * the scripted server.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { firstUserText, type RecordedRequest, type ScriptedTurn } from '../support/scripted-api.js';
import { E2EProject, eventsOf } from './e2e-project.js';
import { CLAUDE_BIN } from '../support/claude.js';
import { waitFor } from './processes.js';
import { assistantTurns, bash, done, lastUserText, scriptBySession, sessionKind, write } from './session-script.js';

let project: E2EProject | undefined;
let scratch: string | undefined;
afterEach(async () => {
  await project?.dispose();
  project = undefined;
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  scratch = undefined;
});

function scratchDir(): string {
  scratch = mkdtempSync(path.join(tmpdir(), 'debussy-user-settings-'));
  return scratch;
}


/** A claude_command that runs the real claude without the DISABLE_COMPACT=1 debussy sets. */
function claudeWithoutDisableCompact(): string {
  const wrapper = path.join(scratchDir(), 'claude-compacting');
  writeFileSync(wrapper, `#!/bin/sh\nunset DISABLE_COMPACT\nexec '${CLAUDE_BIN}' "$@"\n`, { mode: 0o755 });
  return wrapper;
}

const PROMPT_TOO_LONG: ScriptedTurn = { kind: 'error', status: 400, type: 'invalid_request_error', message: 'prompt is too long: 212000 tokens > 200000 maximum' };
const isSummaryRequest = (req: RecordedRequest) => JSON.stringify(req.body).includes('Respond with TEXT ONLY');

describe("a user's --settings", () => {
  it("a settings file of the user's and debussy's stop guard both take effect", async () => {
    const dir = scratchDir();
    const hookLog = path.join(dir, 'user-hook.log');
    const settingsFile = path.join(dir, 'my-settings.json');
    writeFileSync(settingsFile, JSON.stringify({ hooks: { PostToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: `cat >> '${hookLog}'; echo >> '${hookLog}'` }] }] } }));
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Guarded' }],
      config: { claude_args: ['--dangerously-skip-permissions', '--settings', settingsFile] },
      script: scriptBySession({
        fresh: [
          write('one.txt', 'one\n'),
          // Time for the test to arm the guard between the two tool calls, then to disarm it.
          bash('touch refused.txt', { latencyMs: 4000 }),
          bash('debussy done --phase 1', { latencyMs: 3000 }),
          done(),
        ],
      }),
    });
    const run = project.start(['run', project.planArg]);
    const p = project;
    await waitFor("the user's PostToolUse hook to log the Write", () => existsSync(hookLog) && readFileSync(hookLog, 'utf8').includes('"tool_name":"Write"')).catch((error: unknown) => {
      throw new Error(`${String(error)}; hook log: ${existsSync(hookLog) ? readFileSync(hookLog, 'utf8') : '(none)'}; session logs: ${p.sessionLogs().slice(-3000)}`);
    });
    const marker = eventsOf(await p.journal(), 'session_started')[0]?.marker ?? '';
    expect(marker).not.toBe('');
    const stopFile = path.join(tmpdir(), `debussy-stop-${marker}`);
    writeFileSync(stopFile, ''); // what debussy does when it decides to stop the session
    try {
      await waitFor('the guard to refuse the next tool call', () => p.sessionLogs('.stream.ndjson').includes('this session is stopping'));
    } finally {
      rmSync(stopFile, { force: true });
    }
    const result = await run.done;
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(existsSync(path.join(p.dir, 'one.txt'))).toBe(true);
    expect(existsSync(path.join(p.dir, 'refused.txt'))).toBe(false);
    const logged = readFileSync(hookLog, 'utf8');
    expect(logged).toContain('"tool_name":"Write"');
    expect(logged).toContain('debussy done --phase 1');
    expect(eventsOf(await p.journal(), 'phase_ended')).toMatchObject([{ status: 'completed' }]);
  });

  // One unusable value through the command line; every kind of problem and its line is in
  // test/agent/claude/session-settings.test.ts (readSettingsValue, userSettingsProblem).
  it('a settings file that does not exist: one line naming it, exit 2, no session started', async () => {
    project = await E2EProject.create({ phases: [{ id: '1', title: 'Never starts' }], config: { claude_args: ['--dangerously-skip-permissions', '--settings', 'no-such-settings.json'] }, script: [done()] });
    const result = await project.run(['run', project.planArg]);
    expect(result.code, result.stdout + result.stderr).toBe(2);
    expect(result.stderr).toMatch(/^debussy: the settings file \S*no-such-settings\.json \(--settings in claude_args\) cannot be read \(ENOENT\)/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(project.api.mainRequests()).toHaveLength(0);
    expect(await project.journal()).toEqual([]);
  });
});

describe("Claude Code's own compaction", () => {
  // An auto-compact window of 100,000 tokens (the smallest claude takes): it would summarise past ~67,000.
  // debussy sets DISABLE_COMPACT=1 in its sessions (claude then never tries): neither the user's
  // environment nor a settings file's env sets it back to 0 (measured with 2.1.332). Both try in
  // one run: either one taking effect would show claude's compaction attempt ("compacting") in the
  // stream. A claude that does not get it (a wrapper that unsets it) leaves the refusal to
  // debussy's PreCompact hook.
  it.each<[string, string[], Record<string, string>, boolean]>([
    ["the user's settings whose env says DISABLE_COMPACT=0, and the environment with DISABLE_COMPACT=0", ['--settings', '{"autoCompactWindow": 100000, "env": {"DISABLE_COMPACT": "0"}}'], { CLAUDE_CODE_AUTO_COMPACT_WINDOW: '100000', DISABLE_COMPACT: '0' }, false],
    ["the user's settings, for a claude without DISABLE_COMPACT", ['--settings', '{"autoCompactWindow": 100000}'], {}, true],
  ])("an auto-compact window from %s and a prompt-too-long are both refused; the overflow restarts from a condensed checkpoint", async (_name, args, env, unsetDisableCompact) => {
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Overflowing' }],
      config: { claude_args: ['--dangerously-skip-permissions', ...args], claude_max_retries: 0, ...(unsetDisableCompact ? { claude_command: claudeWithoutDisableCompact() } : {}) },
      script: scriptBySession({
        fresh: [
          write('part1.txt', 'part one\n'),
          bash('debussy progress --phase 1 --message "wrote part one"', { usage: { input_tokens: 90_000 } }),
          bash('echo past the auto-compact window', { usage: { input_tokens: 95_000 } }),
          PROMPT_TOO_LONG,
        ],
        checkpoint: [bash('debussy done --phase 1'), done()],
      }),
    });
    const result = await project.run(['run', project.planArg], env);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const main = project.api.mainRequests();
    // No summary was ever asked for: the PreCompact hook refused both compactions.
    expect(main.filter(isSummaryRequest)).toEqual([]);
    const stream = project.sessionLogs('.stream.ndjson');
    // Every attempt refused: auto-compactions past the window (without one, only the attempt after
    // the overflow is made), then the one after the overflow.
    if (unsetDisableCompact) expect(stream.match(/"status":"compacting"/g)?.length).toBeGreaterThanOrEqual(2);
    else expect(stream).not.toContain('"status":"compacting"');
    expect(stream).not.toContain('compact_boundary');
    const events = await project.journal();
    expect(eventsOf(events, 'compaction')).toEqual([]);
    expect(eventsOf(events, 'recovery').map((e) => [e.failureClass, e.action])).toEqual([['context_overflow', 'condensed_session']]);
    expect(eventsOf(events, 'checkpoint_condensed')).toHaveLength(1);
    const restarted = main.find((r) => sessionKind(r) === 'checkpoint');
    expect(restarted && firstUserText(restarted)).toContain('An earlier session of this phase ended: Prompt is too long');
    expect(restarted && firstUserText(restarted)).toContain('part1.txt');
    expect(eventsOf(events, 'phase_ended')).toMatchObject([{ status: 'completed' }]);
  });

  it('a compaction that happens anyway (hooks turned off, a claude without DISABLE_COMPACT) is recorded, and the session restarts from a checkpoint', async () => {
    const fresh = [write('part1.txt', 'part one\n'), bash('debussy progress --phase 1 --message "wrote part one"'), PROMPT_TOO_LONG];
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Compacted' }],
      config: { claude_args: ['--dangerously-skip-permissions', '--settings', '{"disableAllHooks": true}'], claude_max_retries: 0, claude_command: claudeWithoutDisableCompact() },
      script: (req) => {
        if (isSummaryRequest(req)) return { kind: 'text', text: 'SUMMARY OF WORK' };
        // The request claude re-sends after compacting starts from the summary.
        if (firstUserText(req).startsWith('This session is being continued')) return bash('touch after-summary.txt', { latencyMs: 500 });
        const kind = sessionKind(req);
        if (kind === 'checkpoint') return [bash('debussy done --phase 1'), done()][assistantTurns(req)] ?? done();
        if (lastUserText(req).includes('ended without signalling')) return done();
        return fresh[assistantTurns(req)] ?? done();
      },
    });
    const result = await project.run(['run', project.planArg]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    // One compaction: claude 2.1.332 sends its summary request twice (2.1.197: once).
    expect(project.api.mainRequests().filter(isSummaryRequest).length).toBeGreaterThanOrEqual(1);
    const events = await project.journal();
    const compactions = eventsOf(events, 'compaction');
    expect(compactions).toHaveLength(1);
    expect(compactions[0]).toMatchObject({ phaseId: '1', sessionIndex: 1, stopping: true });
    expect(compactions[0]?.preTokens).toBeGreaterThan(0);
    expect(eventsOf(events, 'restart')).toMatchObject([{ restart: 1, reason: expect.stringMatching(/^claude compacted its context/) as unknown }]);
    expect(eventsOf(events, 'attempt_started').map((a) => a.kind)).toEqual(['initial', 'restart']);
    expect(result.stdout).toContain('claude compacted the context of session 1');
    expect(result.stdout).toContain("--settings in claude_args sets disableAllHooks: debussy's hooks are off in its sessions");
    const restarted = project.api.mainRequests().find((r) => sessionKind(r) === 'checkpoint');
    expect(restarted && firstUserText(restarted)).toContain('wrote part one');
    expect(restarted && firstUserText(restarted)).toContain('An earlier session of this phase ended: claude compacted its context');
    expect(eventsOf(events, 'phase_ended')).toMatchObject([{ status: 'completed' }]);
  });
});
