/**
 * Recovery of a gemini session through the real binaries: a context overflow (gemini 0.61.0 ends
 * the run with an error result, exit 144) is classified as Claude Code's is and the phase continues
 * in a fresh session from a condensed checkpoint.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import YAML from 'yaml';
import { describe, expect, it, onTestFinished } from 'vitest';
import { CHECKPOINT_HEADING } from '../../src/prompt/restart-prompt.js';
import { latestRun, readJournal } from '../../src/state/index.js';
import { DEBUSSY_BIN } from '../cli/cli-harness.js';
import { GEMINI_BIN, GEMINI_TEST_MODEL, geminiEnv, useGeminiHome, useScriptedGemini } from '../support/gemini.js';
import { planFiles } from '../support/plan-files.js';
import { shellCall, type GeminiTurn, type RecordedGeminiRequest } from '../support/scripted-gemini.js';
import { tempGitRepo } from '../support/temp-git-repo.js';

describe('debussy run --agent gemini: recovery', () => {
  it('a context overflow continues in a fresh session from a condensed checkpoint, and the phase completes', async () => {
    const script = (req: RecordedGeminiRequest): GeminiTurn => {
      const body = JSON.stringify(req.body);
      if (body.includes(CHECKPOINT_HEADING)) return body.includes('call_done') ? { kind: 'text', text: 'Done.' } : { kind: 'calls', calls: [shellCall('debussy done --phase 1', 'call_done')] };
      if (body.includes('call_a')) return { kind: 'http_error', status: 400, message: 'The input token count (1100000) exceeds the maximum number of tokens allowed (1048576).' };
      return { kind: 'calls', calls: [shellCall('debussy progress --phase 1 --message "wrote a.txt" && echo first > a.txt', 'call_a')] };
    };
    const server = await useScriptedGemini({ script });
    const repo = await tempGitRepo({
      ...planFiles('Gemini Plan', [{ id: '1', title: 'Overflowing', gates: [{ name: 'a', command: 'test -f a.txt' }] }]),
      '.gitignore': '.debussy/runs/\n.debussy/run.lock\n.debussy/project.ndjson\n',
      '.debussy/config.yaml': YAML.stringify({ agent: 'gemini', gemini_command: GEMINI_BIN, model: GEMINI_TEST_MODEL, permission_mode: 'bypassPermissions', stop_grace: '3s', backoff_base: '100ms', backoff_max: '1s' }),
    });
    onTestFinished(repo.cleanup);
    const result = await new Promise<{ status: number | null; out: string }>((resolve) => {
      execFile(process.execPath, [DEBUSSY_BIN, 'run', 'plans/e2e/MASTER_PLAN.md', '--plain'], { cwd: repo.dir, env: { ...geminiEnv(useGeminiHome(), server), CI: 'true' }, encoding: 'utf8', timeout: 90_000 }, (error, stdout, stderr) => {
        resolve({ status: error === null ? 0 : typeof error.code === 'number' ? error.code : null, out: stdout + stderr });
      });
    });
    expect(result.status, result.out).toBe(0);
    const run = await latestRun(repo.dir);
    const events = (await readJournal(path.join(run?.dir ?? '', 'journal.ndjson'))).events;
    expect(events.filter((e) => e.type === 'recovery').map((e) => [(e as { failureClass?: string }).failureClass, (e as { action?: string }).action])).toEqual([['context_overflow', 'condensed_session']]);
    expect(events.filter((e) => e.type === 'phase_ended')).toMatchObject([{ status: 'completed' }]);
    // The fresh session's checkpoint carries the progress the first one recorded.
    const fresh = server.modelRequests().find((req) => JSON.stringify(req.body).includes(CHECKPOINT_HEADING));
    expect(JSON.stringify(fresh?.body)).toContain('wrote a.txt');
  });
});
