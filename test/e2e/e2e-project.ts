/**
 * An end-to-end world for one test: a temp git repo holding a plan, the scripted model server, an
 * isolated claude config dir, and a way to run the built `debussy` binary against them. Everything
 * it starts is stopped by `dispose()`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { journalEventOf, listRuns, NotARecord, type JournalEvent, readJournal } from '../../src/state/index.js';
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
    return eventsWritten(path.join(newest.dir, 'journal.ndjson'));
  }

  async allJournals(): Promise<JournalEvent[][]> {
    const runs = await listRuns(this.dir);
    return Promise.all(runs.reverse().map(async (run) => eventsWritten(path.join(run.dir, 'journal.ndjson'))));
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

/**
 * The events of a journal debussy wrote, each line checked against its event's schema
 * (state/events.ts): every e2e test checks at run time what the compiler checks of the writers. A
 * line that does not fit (a NaN written as null) or holds a field the schema does not name (one a
 * writer spread in, which readers would drop) fails the test.
 */
async function eventsWritten(file: string): Promise<JournalEvent[]> {
  const problems: string[] = [];
  let written: string;
  try {
    written = readFileSync(file, 'utf8');
  } catch (error) {
    // A run that is starting: its folder is made before its journal (a clean-clone CI polled in between).
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  written.split('\n').forEach((text, index) => {
    let line: unknown;
    try {
      line = JSON.parse(text);
    } catch {
      return; // torn by a kill: the readers' own matter (ndjson.ts)
    }
    const event = journalEventOf(line);
    if (event instanceof NotARecord) problems.push(`line ${index + 1}: ${event.problem}`);
    else if (event !== undefined) problems.push(...fieldsNotRead(line, event, `line ${index + 1}: ${event.type}`));
  });
  if (problems.length > 0) throw new Error(`journal lines that do not fit their schema:\n${problems.join('\n')}`);
  return (await readJournal(file)).events;
}

/** The fields of `written` (a line's JSON) that reading it dropped from `read`, with where. */
function fieldsNotRead(written: unknown, read: unknown, at: string): string[] {
  if (typeof written !== 'object' || written === null || typeof read !== 'object' || read === null) return [];
  return Object.entries(written).flatMap(([key, value]) =>
    key in read ? fieldsNotRead(value, (read as Record<string, unknown>)[key], `${at}.${key}`) : [`${at}: ${key} is not in the schema`]);
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
