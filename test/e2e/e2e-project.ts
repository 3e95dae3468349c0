/**
 * An end-to-end world for one test: a temp git repo holding a plan, the scripted model server, an
 * isolated claude config dir, and a way to run the built `debussy` binary against them. Everything
 * it starts is stopped by `dispose()`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { listRuns, type JournalEvent, readJournal } from '../../src/state/index.js';
import { planFiles, type PhaseSpec } from '../support/plan-files.js';
import { CLAUDE_BIN, claudeEnv, git, makeClaudeConfigDir, tempGitRepo, type TempDir } from '../support/claude.js';
import { startScriptedApi, type ScriptedApi, type ScriptedApiOptions } from '../support/scripted-api.js';
import { DEBUSSY_BIN } from '../cli/cli-harness.js';

export { planFiles, type PhaseSpec } from '../support/plan-files.js';

export interface DebussyResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export class E2EProject {
  private constructor(
    readonly repo: TempDir,
    readonly api: ScriptedApi,
    private readonly claudeConfig: TempDir,
  ) {}

  static async create(options: { phases: PhaseSpec[]; script: ScriptedApiOptions['script']; config?: Record<string, unknown>; usage?: ScriptedApiOptions['usage']; foreign?: ScriptedApiOptions['foreign']; defaultLatencyMs?: number; deltaChars?: ScriptedApiOptions['deltaChars']; files?: Record<string, string> }): Promise<E2EProject> {
    const files = planFiles('E2E Plan', options.phases);
    files['.gitignore'] = '.debussy/runs/\n.debussy/run.lock\n.debussy/project.ndjson\n';
    files['.debussy/config.yaml'] = YAML.stringify({
      claude_command: CLAUDE_BIN,
      claude_args: ['--dangerously-skip-permissions'],
      model: 'claude-sonnet-4-5',
      stop_grace: '2s',
      ...options.config,
    });
    const repo = await tempGitRepo({ ...files, ...options.files });
    const api = await startScriptedApi({ script: options.script, ...(options.usage ? { usage: options.usage } : {}), ...(options.foreign ? { foreign: options.foreign } : {}), ...(options.defaultLatencyMs === undefined ? {} : { defaultLatencyMs: options.defaultLatencyMs }), ...(options.deltaChars === undefined ? {} : { deltaChars: options.deltaChars }) });
    const claudeConfig = await makeClaudeConfigDir();
    return new E2EProject(repo, api, claudeConfig);
  }

  get dir(): string {
    return this.repo.dir;
  }

  readonly planArg = 'plans/e2e/MASTER_PLAN.md';

  env(extra: Record<string, string> = {}): Record<string, string> {
    return { ...claudeEnv(this.api.url, this.claudeConfig.dir), CI: 'true', ...extra };
  }

  /** Starts `debussy ARGS` in the repo; resolves when it exits. */
  start(args: string[], extraEnv: Record<string, string> = {}): { child: ChildProcess; done: Promise<DebussyResult> } {
    const child = spawn(process.execPath, [DEBUSSY_BIN, ...args], { cwd: this.dir, env: this.env(extraEnv), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const done = new Promise<DebussyResult>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
    return { child, done };
  }

  run(args: string[], extraEnv: Record<string, string> = {}): Promise<DebussyResult> {
    return this.start(args, extraEnv).done;
  }

  async journal(): Promise<JournalEvent[]> {
    const runs = await listRuns(this.dir);
    const newest = runs[0];
    if (!newest) return [];
    return (await readJournal(path.join(newest.dir, 'journal.ndjson'))).events;
  }

  async allJournals(): Promise<JournalEvent[][]> {
    const runs = await listRuns(this.dir);
    return Promise.all(runs.reverse().map(async (run) => (await readJournal(path.join(run.dir, 'journal.ndjson'))).events));
  }

  git(...args: string[]): Promise<string> {
    return git(this.dir, ...args);
  }

  read(file: string): string {
    return readFileSync(path.join(this.dir, file), 'utf8');
  }

  write(file: string, content: string): void {
    mkdirSync(path.dirname(path.join(this.dir, file)), { recursive: true });
    writeFileSync(path.join(this.dir, file), content);
  }

  /** Every session log of the project's runs whose name ends with `suffix` (the readable `.log`, or `.stream.ndjson`), joined. */
  sessionLogs(suffix = '.log'): string {
    const runs = path.join(this.dir, '.debussy/runs');
    const logs: string[] = [];
    for (const run of namesIn(runs)) {
      const sessions = path.join(runs, run, 'sessions');
      for (const file of namesIn(sessions)) if (file.endsWith(suffix)) logs.push(readFileSync(path.join(sessions, file), 'utf8'));
    }
    return logs.join('\n');
  }

  async dispose(): Promise<void> {
    await this.api.close();
    await this.claudeConfig.cleanup();
    await this.repo.cleanup();
  }
}

/** A folder's entries; none when it does not exist (yet). */
function namesIn(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

export function eventsOf<T extends JournalEvent['type']>(events: JournalEvent[], type: T): Extract<JournalEvent, { type: T }>[] {
  return events.filter((e): e is Extract<JournalEvent, { type: T }> => e.type === type);
}
