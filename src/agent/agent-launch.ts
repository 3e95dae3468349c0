/**
 * What must hold before an agent process can start: a working directory and an executable
 * command that is not Claude Code's npm stub without its native binary (claude-install.ts).
 * Checked up front so a missing `claude` is one clear error instead of a bare ENOENT.
 */
import { statSync } from 'node:fs';
import { findExecutable } from '../process/find-executable.js';
import { AgentProcessError, PrerequisiteError } from '../errors/index.js';
import { isNativeBinaryStub, nativeBinaryMissing } from './claude/claude-install.js';
import type { AgentLaunch } from './agent-driver.js';
import type { SessionBasics } from './agent-session.js';
import type { PriceCall } from './call-usage.js';

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

/** What a driver says of its command: its product name, the config key naming it, and its npm package. */
export interface AgentCommand {
  code: 'E_CLAUDE_NOT_FOUND' | 'E_CODEX_NOT_FOUND' | 'E_GEMINI_NOT_FOUND';
  product: string;
  command: string;
  configKey: string;
  npmPackage: string;
}

/** The agent's command resolved before a run (a driver's check()): its path, or one line saying how to install it. */
export function requireAgentCommand(agent: AgentCommand, root: string, searchPath: string | undefined): string {
  const found = findExecutable(agent.command, root, searchPath);
  if (found !== undefined) return found;
  throw new PrerequisiteError(
    agent.code,
    `the ${agent.product} command "${agent.command}" was not found${agent.command.includes('/') ? '' : ' on PATH'}`,
    `Install it (npm install -g ${agent.npmPackage}), or set ${agent.configKey} in .debussy/config.yaml to its path.`,
  );
}

/** The basics of a session as the run launches it, for any agent's session options. */
export function sessionBasicsOf(launch: AgentLaunch, priceCall?: PriceCall): SessionBasics {
  return {
    cwd: launch.cwd,
    env: launch.env,
    prompt: launch.prompt,
    rawLogPath: launch.rawLogPath,
    readableLogPath: launch.readableLogPath,
    stopGraceMs: launch.stopGraceMs,
    redact: launch.redact,
    ...(launch.onLogFailure === undefined ? {} : { onLogFailure: launch.onLogFailure }),
    ...(priceCall === undefined ? {} : { priceCall }),
  };
}
