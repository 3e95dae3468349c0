/**
 * A real pseudo-terminal for tests: a private tmux server (its own socket in a temp dir, no user
 * config) running one command in a pane of a fixed size. `capture()` returns what the screen
 * shows, after tmux interpreted every escape sequence, so tests assert on what a person would see.
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { liveProcesses, processStartTime, type ProcessIdentity } from '../../src/process/identity.js';

const run = promisify(execFile);

export function hasTmux(): boolean {
  return spawnSync('tmux', ['-V'], { encoding: 'utf8' }).status === 0;
}

/** Single-quoted for sh. */
function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

// The pane sets these itself (TERM from tmux) or they describe the outer terminal.
const NOT_EXPORTED = new Set(['TERM', 'TMUX', 'TMUX_PANE', 'COLUMNS', 'LINES', 'TERMCAP']);

/** The pane's shell as it wrote its PID at its start (within 5 s), with its start time; else undefined. */
async function paneShell(pidFile: string): Promise<ProcessIdentity | undefined> {
  for (const deadline = Date.now() + 5_000; Date.now() < deadline; ) {
    const pid = Number(readFileSync(pidFile, { encoding: 'utf8', flag: 'a+' }).trim());
    if (Number.isInteger(pid) && pid > 0) {
      const startTime = processStartTime(pid);
      return startTime === undefined ? undefined : { pid, startTime };
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return undefined;
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Already gone.
  }
}

export class TmuxScreen {
  private constructor(
    private readonly dir: string,
    private readonly socket: string,
    readonly exitCodeFile: string,
    /** The pane's shell, which ends in `sleep 600` (see dispose). */
    private readonly paneShell: ProcessIdentity | undefined,
  ) {}

  /**
   * Starts `command` (argv) in `cwd` with exactly `env` (plus the TERM tmux gives the pane) in a
   * width x height pane. The pane stays open after the command ends, so its last screen can be read.
   * With `clipboard`, tmux takes clipboard writes (OSC 52) into its paste buffers (pasteBuffers()).
   */
  static async start(options: { command: string[]; cwd: string; env: Record<string, string | undefined>; width: number; height: number; clipboard?: boolean }): Promise<TmuxScreen> {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'debussy-tmux-'));
    const socket = path.join(dir, 'tmux.sock');
    const exitCodeFile = path.join(dir, 'exit-code');
    const exports = Object.entries(options.env)
      .filter((entry): entry is [string, string] => entry[1] !== undefined && !NOT_EXPORTED.has(entry[0]) && /^[A-Za-z_][A-Za-z0-9_]*$/.test(entry[0]))
      .map(([key, value]) => `export ${key}=${shellQuote(value)}`);
    const script = [
      // The pane's shell, for dispose(): it ends in `sleep 600`, which a hang-up test leaves with no
      // tmux server to end it.
      `echo $$ > ${shellQuote(path.join(dir, 'pane-pid'))}`,
      ...exports,
      `cd ${shellQuote(options.cwd)}`,
      // Ctrl-C in the pane, and a hang-up of the pane, are for the command; this shell stays to
      // record how it ended (a trap with a command, unlike an ignored signal, is not inherited).
      "trap 'true' INT HUP",
      // The inner shell records its pid and becomes the command, in the foreground of the pane.
      `sh -c 'echo $$ > "$0"; exec "$@"' ${shellQuote(path.join(dir, 'pid'))} ${options.command.map(shellQuote).join(' ')}`,
      `echo $? > ${shellQuote(exitCodeFile)}`,
      'exec sleep 600',
    ].join('\n');
    const scriptFile = path.join(dir, 'run.sh');
    writeFileSync(scriptFile, `${script}\n`);
    const config = path.join(dir, 'tmux.conf');
    writeFileSync(config, options.clipboard === true ? 'set-option -s set-clipboard on\n' : '');
    // env -i: the pane's environment is the script's, not this test process's.
    await run('tmux', ['-S', socket, '-f', config, 'new-session', '-d', '-s', 'debussy', '-x', String(options.width), '-y', String(options.height), `env -i PATH=${shellQuote(process.env.PATH ?? '/usr/bin:/bin')} HOME=${shellQuote(os.homedir())} sh ${shellQuote(scriptFile)}`]);
    return new TmuxScreen(dir, socket, exitCodeFile, await paneShell(path.join(dir, 'pane-pid')));
  }

  /** Types keys into the pane, as tmux send-keys names them (`C-c` is Ctrl-C). */
  async sendKeys(...keys: string[]): Promise<void> {
    await run('tmux', ['-S', this.socket, 'send-keys', '-t', 'debussy', ...keys]);
  }

  async resize(width: number, height: number): Promise<void> {
    await run('tmux', ['-S', this.socket, 'resize-window', '-t', 'debussy', '-x', String(width), '-y', String(height)]);
  }

  /** The visible screen, one string per row, trailing spaces trimmed. */
  async capture(history = false): Promise<string[]> {
    const { stdout } = await run('tmux', ['-S', this.socket, 'capture-pane', '-p', '-t', 'debussy', ...(history ? ['-S', '-100'] : [])]);
    return stdout.split('\n').map((line) => line.trimEnd());
  }

  /** The contents of tmux's paste buffers, newest first: what clipboard writes reached the terminal. */
  async pasteBuffers(): Promise<string[]> {
    const { stdout } = await run('tmux', ['-S', this.socket, 'list-buffers', '-F', '#{buffer_name}']);
    const names = stdout.split('\n').filter((name) => name !== '');
    return Promise.all(names.map(async (name) => (await run('tmux', ['-S', this.socket, 'show-buffer', '-b', name])).stdout));
  }

  /** The command's exit code, once it ended. */
  exitCode(): number | undefined {
    try {
      const text = readFileSync(this.exitCodeFile, 'utf8').trim();
      return text === '' ? undefined : Number(text);
    } catch {
      return undefined;
    }
  }

  /** Captures until `test` accepts a screen or the command ended; returns every screen seen. */
  async watch(test: (screen: string[]) => boolean, options: { timeoutMs: number; intervalMs?: number }): Promise<{ matched: string[] | undefined; screens: string[][] }> {
    const screens: string[][] = [];
    const deadline = Date.now() + options.timeoutMs;
    while (Date.now() < deadline) {
      const ended = this.exitCode() !== undefined;
      const screen = await this.capture();
      screens.push(screen);
      if (test(screen)) return { matched: screen, screens };
      if (ended) break;
      await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 100));
    }
    return { matched: undefined, screens };
  }

  async waitForExit(timeoutMs: number): Promise<number | undefined> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const code = this.exitCode();
      if (code !== undefined) return code;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return undefined;
  }

  /** PID of the command (recorded by the pane before it started it). */
  commandPid(): number | undefined {
    const pid = Number(readFileSync(path.join(this.dir, 'pid'), { encoding: 'utf8', flag: 'a+' }).trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  }

  /** Closes the terminal under the command, as closing its window does: the pty is gone (a hang-up). */
  async hangUp(): Promise<void> {
    await run('tmux', ['-S', this.socket, 'kill-server']).catch(() => undefined);
  }

  /** Stops the command if it still runs, ends the tmux server and removes the temp dir. */
  async dispose(): Promise<void> {
    const pid = Number(readFileSync(path.join(this.dir, 'pid'), { encoding: 'utf8', flag: 'a+' }).trim());
    if (this.exitCode() === undefined && Number.isInteger(pid) && pid > 0) {
      signal(pid, 'SIGTERM');
      if ((await this.waitForExit(15_000)) === undefined) signal(pid, 'SIGKILL');
    }
    await run('tmux', ['-S', this.socket, 'kill-server']).catch(() => undefined);
    // After a hang-up (hangUp(): the server is gone) the pane's shell goes on to its `sleep 600`,
    // which nothing else would end: it is ended here if it is still that process.
    if (this.paneShell !== undefined) for (const pane of liveProcesses([this.paneShell])) signal(pane.pid, 'SIGKILL');
    rmSync(this.dir, { recursive: true, force: true });
  }
}
