/**
 * The whole orchestrator in the test's own process: `runPlan` (the lock, the journal, runPhase,
 * runSession, gates and commits, in a temp project) with the in-process agent
 * (in-process-agent.ts) in place of an agent CLI. A LoopProject is one project a test runs once or
 * several times (a run, then its resume); what only the real CLIs and the built binary can show
 * (their streams, hooks, signals, processes, the command line) stays in test/e2e/.
 *
 * Call `useLoopStateDir()` once at the top of a file: it keeps debussy's per-user state (the
 * journal key) in a temp directory for the file's tests.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { defaultConfig, type DebussyConfig } from '../../src/config/index.js';
import { runPlan, type RunPlanInput } from '../../src/orchestrator/run-plan.js';
import { parsePlan } from '../../src/plan/index.js';
import { PlainReporter } from '../../src/report/plain-reporter.js';
import { combineReporters, type Reporter } from '../../src/report/reporter.js';
import type { JournalEvent, RunState } from '../../src/state/index.js';
import { journalPath, loadRun, readJournal } from '../../src/state/index.js';
import { inProcessAgent, type InProcessAgent, type ScriptStep, type SessionScript } from './in-process-agent.js';
import { planFiles, type PhaseSpec } from './plan-files.js';
import { tempGitRepo, type TempDir } from './temp-git-repo.js';

export type { ScriptStep, SessionScript } from './in-process-agent.js';

let stateDir: string | undefined;
/** A committed repository holding only a .gitignore: each project copies it (a copy costs no git process). */
let template: TempDir | undefined;

/** debussy's per-user state (its journal key) in a temp directory for this file's tests, never the real home. */
export function useLoopStateDir(): void {
  const saved = process.env.DEBUSSY_STATE_DIR;
  beforeAll(async () => {
    stateDir = mkdtempSync(path.join(tmpdir(), 'debussy-loop-state-'));
    process.env.DEBUSSY_STATE_DIR = stateDir;
    template = await tempGitRepo({ '.gitignore': '.debussy/\n' });
  });
  afterAll(async () => {
    if (saved === undefined) delete process.env.DEBUSSY_STATE_DIR;
    else process.env.DEBUSSY_STATE_DIR = saved;
    if (stateDir !== undefined) rmSync(stateDir, { recursive: true, force: true });
    await template?.cleanup();
  });
}

/** Timings small enough for tests: backoffs in milliseconds, a short stop grace, no context cap. */
export const FAST: Partial<DebussyConfig> = { backoff_base: 1, backoff_max: 5, stop_grace: 200, max_context_tokens: 0 };

export interface LoopOutcome {
  exitCode: number;
  runId: string;
  state: RunState;
  /** This run's journal. */
  events: JournalEvent[];
  agent: InProcessAgent;
  /** The reporter's notices (warnings, errors, hints), in order. */
  notices: string[];
  /** What `debussy run --plain` prints on stdout (the plain reporter, without timestamps): its lines and its end table. */
  printed: string;
}

export interface LoopRunOptions {
  config?: Partial<DebussyConfig>;
  /** The model's context window the sessions report (default 200,000). */
  window?: number;
  interrupt?: AbortController;
  only?: string;
  startAt?: string;
  fresh?: boolean;
  trustCompleted?: boolean;
  /** The config file the run was read from (kept and written back like the plan: run-inputs.ts); relative to the project. */
  configFile?: string;
  /** Another reporter the run feeds besides the plain one (e.g. what `debussy run` builds for --json or GitHub Actions: loop-output.ts's commandOutput). */
  reporter?: Reporter;
}

/** The reporters of a loop run: the notices collected, and the plain reporter's output (`printed`). */
function loopReporter(notices: string[], print: (text: string) => void): Required<Reporter> {
  const collect: Reporter = { notice: (_level, message) => notices.push(message) };
  return combineReporters([collect, new PlainReporter(print, { verbose: false, timestamps: false })]);
}

export class LoopProject {
  private constructor(
    readonly dir: string,
    readonly withGit: boolean,
    /** The commit holding the plan (with git): the run's commits are the ones after it. */
    private readonly base: string | undefined,
  ) {}

  /**
   * A project with the plan's files (and `files`): with git, a copy of the committed template with
   * them committed by the test's own hand (they are the user's, never the run's work); without, a
   * plain folder (then runs need auto_commit off, which `run` sets), for the decisions alone.
   */
  static create(phases: PhaseSpec[], options: { git?: boolean; files?: Record<string, string> } = {}): LoopProject {
    if (template === undefined) throw new Error('LoopProject: call useLoopStateDir() at the top of the test file');
    const withGit = options.git === true;
    const dir = mkdtempSync(path.join(tmpdir(), 'debussy-loop-'));
    if (withGit) cpSync(template.dir, dir, { recursive: true });
    for (const [file, content] of Object.entries({ ...planFiles('Loop', phases), ...options.files })) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), content);
    }
    let base: string | undefined;
    if (withGit) {
      execFileSync('git', ['add', '-A'], { cwd: dir });
      execFileSync('git', ['commit', '--quiet', '-m', 'the plan'], { cwd: dir });
      base = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: dir, encoding: 'utf8' }).trim();
    }
    return new LoopProject(dir, withGit, base);
  }

  readonly planPath = 'plans/e2e/MASTER_PLAN.md';

  /** One `debussy run` of the plan, as the run command would start it, with the in-process agent playing `scripts`. */
  async run(scripts: readonly SessionScript[] | InProcessAgent, options: LoopRunOptions = {}): Promise<LoopOutcome> {
    const parsed = await parsePlan(path.join(this.dir, this.planPath));
    if (parsed.plan === undefined) throw new Error(`the test plan did not parse: ${JSON.stringify(parsed)}`);
    const agent = 'start' in scripts ? scripts : inProcessAgent(scripts, options.window === undefined ? {} : { window: options.window });
    const notices: string[] = [];
    let printed = '';
    const input: RunPlanInput = {
      root: this.dir, plan: parsed.plan, config: { ...defaultConfig(), ...FAST, auto_commit: this.withGit, ...options.config },
      reporter: combineReporters([loopReporter(notices, (text) => (printed += text)), ...(options.reporter === undefined ? [] : [options.reporter])]),
      interrupt: (options.interrupt ?? new AbortController()).signal, forceStop: new AbortController().signal,
      env: { ...process.env, ...(stateDir === undefined ? {} : { DEBUSSY_STATE_DIR: stateDir }) }, resumeCommand: `debussy run ${this.planPath}`, agent,
      ...(options.only === undefined ? {} : { only: options.only }),
      ...(options.startAt === undefined ? {} : { startAt: options.startAt }),
      ...(options.fresh === undefined ? {} : { fresh: options.fresh }),
      ...(options.trustCompleted === undefined ? {} : { trustCompleted: options.trustCompleted }),
      ...(options.configFile === undefined ? {} : { configFile: path.join(this.dir, options.configFile) }),
    };
    const result = await runPlan(input);
    const { events } = await readJournal(journalPath(this.dir, result.runId));
    const state = (await loadRun(this.dir, result.runId))?.state;
    if (state === undefined) throw new Error('no run state');
    return { exitCode: result.exitCode, runId: result.runId, state, events, agent, notices, printed };
  }

  /** The subjects of the commits made since the plan's, newest first. */
  commits(): string[] {
    if (this.base === undefined) return [];
    const out = this.git('log', '--format=%s', `${this.base}..HEAD`).trim();
    return out === '' ? [] : out.split('\n');
  }

  /** Every file the commits since the plan's touch. */
  committed(): string[] {
    if (this.base === undefined) return [];
    return this.git('log', '--name-only', '--format=', `${this.base}..HEAD`).split('\n').filter((line) => line !== '');
  }

  git(...args: string[]): string {
    return execFileSync('git', args, { cwd: this.dir, encoding: 'utf8' });
  }

  write(file: string, content: string): void {
    mkdirSync(path.dirname(path.join(this.dir, file)), { recursive: true });
    writeFileSync(path.join(this.dir, file), content);
  }

  cleanup(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Script helpers: a session that plays these steps, whatever its launch. */
export const script = (...steps: ScriptStep[]): SessionScript => () => steps;
export const done: ScriptStep = { done: 'completed' };
export const success: ScriptStep = { end: 'success' };
/** A Write tool call that creates `file` (content "work" unless given). */
export const touch = (file: string, content = 'work\n'): ScriptStep => ({
  tool: 'Write', input: { file_path: file }, run: (cwd) => {
    mkdirSync(path.dirname(path.join(cwd, file)), { recursive: true });
    writeFileSync(path.join(cwd, file), content);
  },
});
export const sessionsOf = (events: readonly JournalEvent[]): number => events.filter((e) => e.type === 'session_started').length;
export const ofType = <T extends JournalEvent['type']>(events: readonly JournalEvent[], type: T): Extract<JournalEvent, { type: T }>[] =>
  events.filter((e): e is Extract<JournalEvent, { type: T }> => e.type === type);
