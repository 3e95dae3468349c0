/**
 * The agent's done/progress from inside a session take the lean path in bin/debussy.js
 * (src/agent-signals/in-session-signal.ts). Each well-formed call must record and print exactly what the
 * full command does; every other call must reach the full CLI and its explanation.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendEvent, journalPath } from '../../src/state/index.js';
import { debussy, expectNoStack, git, initRepo, REPO_ROOT, runCommand, tempDir, type CliResult } from './cli-harness.js';

const VALID_PLAN = path.join(REPO_ROOT, 'test/fixtures/plans/valid');
const FULL_CLI = path.join(REPO_ROOT, 'dist/cli/start.js');
const RUN_ID = '20261122-101500-ab12';
const ATTEMPT_ID = '1-a1';

let work: { dir: string; cleanup(): void };
let journal: string;
let sessionEnv: Record<string, string>;

beforeEach(() => {
  work = tempDir();
  initRepo(work.dir);
  cpSync(VALID_PLAN, path.join(work.dir, 'plans/valid'), { recursive: true });
  git(work.dir, 'add', '-A');
  git(work.dir, 'commit', '-qm', 'init');
  journal = journalPath(work.dir, RUN_ID);
  appendEvent(journal, { type: 'run_started', runId: RUN_ID, planPath: path.join(work.dir, 'plans/valid/MASTER_PLAN.md'), planName: 'Greeting Service', phaseIds: ['1', '2', '3'], options: {} });
  sessionEnv = { DEBUSSY_PROJECT_ROOT: work.dir, DEBUSSY_RUN_ID: RUN_ID, DEBUSSY_ATTEMPT_ID: ATTEMPT_ID, DEBUSSY_PHASE_ID: '1', SERVICE_TOKEN: 'tok-0123456789abcdef' };
});
afterEach(() => work.cleanup());

/** The full CLI, bypassing bin/debussy.js and its lean path. */
function fullCli(args: string[], env: Record<string, string>): Promise<CliResult> {
  return runCommand(process.execPath, [FULL_CLI, ...args], { cwd: work.dir, env: { ...process.env, ...env } });
}

/** The journal's events after run_started, without what differs between any two writes. */
function recorded(): Record<string, unknown>[] {
  return readFileSync(journal, 'utf8')
    .split('\n')
    .filter(Boolean)
    .slice(1)
    .map((line) => {
      const { ts: _ts, pid: _pid, ...rest } = JSON.parse(line) as Record<string, unknown>;
      return rest;
    });
}

function truncateToRunStarted(): void {
  writeFileSync(journal, `${readFileSync(journal, 'utf8').split('\n')[0]}\n`);
}

const WELL_FORMED: string[][] = [
  ['done', '--phase', '1'],
  ['done', '--phase=2', '--status=failed', '--reason', 'the tests need a database'],
  ['done', '--phase', '1', '--status', 'blocked'],
  ['done', '--phase', '3', '--report', '{"tests": 42, "api_key": "abcdef123456"}'],
  ['done', '--phase', '1', '--status', 'blocked', '--reason', 'need access, token=tok-0123456789abcdef'],
  ['progress', '--phase', '1', '--message', 'wrote the scaffold'],
  ['progress', '--phase=2', '--step', '  endpoint half done  '],
  ['progress', '--phase', '1', '--message', 'used password=hunter2hunter2 for the fixture'],
];

/** The id a call's --phase names. */
function phaseArg(args: readonly string[]): string {
  const at = args.findIndex((arg) => arg.startsWith('--phase'));
  const arg = args[at] ?? '';
  return arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : (args[at + 1] ?? '');
}

describe('debussy done/progress inside a session', () => {
  it.each(WELL_FORMED.map((args) => [args.join(' '), args] as const))('%s records and prints what the full command does', async (_name, args) => {
    // Each call from a session of the phase it names.
    const env = { ...sessionEnv, DEBUSSY_PHASE_ID: phaseArg(args) };
    const lean = await debussy(args, { cwd: work.dir, env });
    const leanEvents = recorded();
    truncateToRunStarted();
    const full = await fullCli(args, env);
    const fullEvents = recorded();

    expect(lean).toEqual(full);
    expect(lean.code).toBe(0);
    expect(leanEvents).toHaveLength(1);
    expect(leanEvents).toEqual(fullEvents);
    expect(leanEvents[0]).toMatchObject({ attemptId: ATTEMPT_ID });
    expect(JSON.stringify(leanEvents)).not.toMatch(/tok-0123456789abcdef|hunter2|abcdef123456/);
  });

  it('takes the lean path: a broken config file does not stop the signal of a running session', async () => {
    // The run read its config when it started; the full command would re-read it and fail.
    mkdirSync(path.join(work.dir, '.debussy'), { recursive: true });
    writeFileSync(path.join(work.dir, '.debussy/config.yaml'), 'context_threshold: [oops\n');
    const full = await fullCli(['done', '--phase', '1'], sessionEnv);
    expect(full.code).toBe(2);
    const lean = await debussy(['done', '--phase', '1'], { cwd: work.dir, env: sessionEnv });
    expect(lean.code).toBe(0);
    expect(recorded()).toEqual([{ type: 'signal', phaseId: '1', status: 'completed', attemptId: ATTEMPT_ID, v: 1 }]);
  });

  it.each([
    [['done', '--phase', '9'], 2, /unknown phase "9"/],
    [['progress', '--phase', '9', '--message', 'x'], 2, /unknown phase "9"/],
    [['done', '--phase', '1', '--report', '{not json'], 2, /--report is not valid JSON/],
    [['done', '--phase', '1', '--status', 'finished'], 2, /Allowed choices are completed, blocked, failed/],
    [['done', '--phase', '1', '--frobnicate'], 2, /unknown option '--frobnicate'/],
    [['done'], 2, /required option '--phase <id>' not specified/],
    [['progress', '--phase', '1'], 2, /progress needs a message/],
    [['progress', '--phase', '1', '--message', '   '], 2, /progress needs a message/],
  ] as const)('%j goes to the full CLI and its explanation (exit %i), recording nothing', async (args, code, message) => {
    const result = await debussy([...args], { cwd: work.dir, env: sessionEnv });
    expect(result.code).toBe(code);
    expect(result.stderr).toMatch(message);
    expectNoStack(result);
    expect(recorded()).toEqual([]);
  });

  it.each([
    [['done', '--phase', '2'], 'this session runs phase 1, not phase 2: `debussy done --phase 1` signals it; nothing was recorded'],
    [['done', '--phase=3', '--status', 'blocked'], 'this session runs phase 1, not phase 3: `debussy done --phase 1` signals it; nothing was recorded'],
    [['progress', '--phase', '2', '--message', 'x'], 'this session runs phase 1, not phase 2: `debussy progress --phase 1 --message ...` records its progress; nothing was recorded'],
  ] as const)('%j from a session of phase 1 is answered with the running phase, exit 2, on both paths; nothing recorded', async (args, message) => {
    const lean = await debussy([...args], { cwd: work.dir, env: sessionEnv });
    expect(recorded()).toEqual([]);
    const full = await fullCli([...args], sessionEnv);
    expect(recorded()).toEqual([]);
    expect(lean).toEqual(full);
    expect(lean.code).toBe(2);
    expect(lean.stdout).toBe('');
    expect(lean.stderr).toContain(`debussy: ${message}\n`);
  });

  it('done --verify for another phase is answered before any gate runs', async () => {
    const result = await debussy(['done', '--phase', '2', '--verify'], { cwd: work.dir, env: sessionEnv });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('debussy: this session runs phase 1, not phase 2: `debussy done --phase 1` signals it; nothing was recorded\n');
    expect(recorded()).toEqual([]);
  });

  it('--help is the full help', async () => {
    const result = await debussy(['done', '--help'], { cwd: work.dir, env: sessionEnv });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('--verify');
  });

  it('a journal that is not this run\'s goes to the full CLI', async () => {
    writeFileSync(journal, `${JSON.stringify({ type: 'run_started', runId: 'another-run', planPath: 'x', planName: 'x', phaseIds: ['1'], options: {}, v: 1, ts: new Date().toISOString(), pid: 1 })}\n`);
    const lean = await debussy(['progress', '--phase', '1', '--message', 'x'], { cwd: work.dir, env: sessionEnv });
    const full = await fullCli(['progress', '--phase', '1', '--message', 'x'], sessionEnv);
    expect(lean.code).toBe(full.code);
    expect(lean.stderr).toBe(full.stderr);
  });
});
