/**
 * What must hold before an agent process can start: a working directory and an executable
 * command. Checked up front so a missing `claude` is one clear error instead of a bare ENOENT.
 */
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import { AgentProcessError } from '../errors/index.js';

const INSTALL_HINT = 'Install Claude Code (npm install -g @anthropic-ai/claude-code) or set claude_command in the config to its full path.';

function isExecutableFile(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Resolves `command` the way spawn does: a path (relative to cwd) or a name looked up on PATH. */
export function findExecutable(command: string, cwd: string, searchPath: string | undefined): string | undefined {
  if (command === '') return undefined;
  if (command.includes('/')) {
    const file = path.resolve(cwd, command);
    return isExecutableFile(file) ? file : undefined;
  }
  for (const dir of (searchPath ?? '').split(path.delimiter)) {
    const file = path.resolve(cwd, dir === '' ? '.' : dir, command);
    if (isExecutableFile(file)) return file;
  }
  return undefined;
}

/** The error that stops the session before it starts, or undefined when it can start. */
export function launchProblem(command: string, cwd: string, searchPath: string | undefined): AgentProcessError | undefined {
  let cwdIsDir = false;
  try {
    cwdIsDir = statSync(cwd).isDirectory();
  } catch {
    cwdIsDir = false;
  }
  if (!cwdIsDir) {
    return new AgentProcessError('E_AGENT_CWD', `The agent's working directory ${cwd} does not exist.`, { exitKind: 'prerequisites' });
  }
  if (findExecutable(command, cwd, searchPath) === undefined) return agentNotFound(command);
  return undefined;
}

export function agentNotFound(command: string, cause?: unknown): AgentProcessError {
  return new AgentProcessError('E_AGENT_NOT_FOUND', `The agent command "${command}" was not found or is not executable.`, {
    exitKind: 'prerequisites',
    hint: INSTALL_HINT,
    ...(cause === undefined ? {} : { cause }),
  });
}

/** An error from spawn itself (after the checks passed): ENOENT still means "not found". */
export function spawnFailure(command: string, error: unknown): AgentProcessError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return agentNotFound(command, error);
  return new AgentProcessError('E_AGENT_SPAWN', `The agent command "${command}" could not be started (${code ?? String(error)}).`, {
    exitKind: 'prerequisites',
    hint: INSTALL_HINT,
    cause: error,
  });
}
