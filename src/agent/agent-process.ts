/**
 * Starts the agent's process with execa. Only the agent session imports this module, so execa is
 * loaded by the commands that run sessions (`run`, `resume`) and never by `done`, `progress` or
 * `status`.
 */
import { execa } from 'execa';

export interface AgentProcessOptions {
  cwd: string;
  /** The whole environment of the process (nothing of debussy's own is added). */
  env: Record<string, string>;
  /** Written to stdin, which is then closed. */
  prompt: string;
  /** After a SIGTERM, how long the process has to exit before SIGKILL. */
  graceMs: number;
}

/**
 * The process in its own process group, so a Ctrl-C at the terminal reaches debussy, which stops
 * the session in order, instead of reaching claude directly. stdout and stderr stay streams
 * (never buffered: a session streams for hours); a SIGTERM is followed by SIGKILL after `graceMs`
 * if the process is still there. The result never rejects: how it ended is read from the process.
 */
export function spawnAgentProcess(command: string, args: readonly string[], options: AgentProcessOptions) {
  return execa(command, args, {
    cwd: options.cwd,
    env: options.env,
    extendEnv: false,
    detached: true,
    input: options.prompt,
    buffer: false,
    reject: false,
    killSignal: 'SIGTERM',
    forceKillAfterDelay: options.graceMs,
  });
}

export type AgentProcess = ReturnType<typeof spawnAgentProcess>;
