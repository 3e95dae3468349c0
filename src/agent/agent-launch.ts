/**
 * What must hold before an agent process can start: a working directory and an executable
 * command that is not Claude Code's npm stub without its native binary (claude-install.ts).
 * Checked up front so a missing `claude` is one clear error instead of a bare ENOENT.
 */
import { statSync } from 'node:fs';
import { findExecutable } from '../process/find-executable.js';
import { AgentProcessError } from '../errors/index.js';
import { isNativeBinaryStub, nativeBinaryMissing } from './claude/claude-install.js';

/** How to install the agent, said when its command is missing: each driver names its own. */
export const CLAUDE_INSTALL_HINT = 'Install Claude Code (npm install -g @anthropic-ai/claude-code) or set claude_command in the config to its full path.';

/** The error that stops the session before it starts, or undefined when it can start. */
export function launchProblem(command: string, cwd: string, searchPath: string | undefined, installHint = CLAUDE_INSTALL_HINT): AgentProcessError | undefined {
  let cwdIsDir = false;
  try {
    cwdIsDir = statSync(cwd).isDirectory();
  } catch {
    cwdIsDir = false;
  }
  if (!cwdIsDir) {
    return new AgentProcessError('E_AGENT_CWD', `The agent's working directory ${cwd} does not exist.`, { exitKind: 'prerequisites' });
  }
  const executable = findExecutable(command, cwd, searchPath);
  if (executable === undefined) return agentNotFound(command, undefined, installHint);
  if (isNativeBinaryStub(executable)) return nativeBinaryMissing(command);
  return undefined;
}

export function agentNotFound(command: string, cause?: unknown, installHint = CLAUDE_INSTALL_HINT): AgentProcessError {
  return new AgentProcessError('E_AGENT_NOT_FOUND', `The agent command "${command}" was not found or is not executable.`, {
    exitKind: 'prerequisites',
    hint: installHint,
    ...(cause === undefined ? {} : { cause }),
  });
}

/** An error from spawn itself (after the checks passed): ENOENT still means "not found". */
export function spawnFailure(command: string, error: unknown, installHint = CLAUDE_INSTALL_HINT): AgentProcessError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return agentNotFound(command, error, installHint);
  return new AgentProcessError('E_AGENT_SPAWN', `The agent command "${command}" could not be started (${code ?? String(error)}).`, {
    exitKind: 'prerequisites',
    hint: installHint,
    cause: error,
  });
}
