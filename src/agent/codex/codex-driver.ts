/**
 * The Codex CLI behind the agent seam (agent-driver.ts), chosen with `agent: codex` / `--agent
 * codex`: `codex app-server` with debussy's guard, permissions and model (codex-launch.ts),
 * sessions run by codex-session.ts.
 */
import { requireAgentCommand, sessionBasicsOf } from '../agent-launch.js';
import type { DebussyConfig } from '../../config/index.js';
import type { AgentDriver, AgentLaunch, ResumeKeep } from '../agent-driver.js';
import type { AgentSession } from '../agent-session.js';
import { codexWarnings } from './codex-command.js';
import { codexWindowForModel } from './codex-launch.js';
import { startCodexSession } from './codex-session.js';
import type { PriceCall } from '../call-usage.js';

export interface CodexDriverConfig extends Pick<DebussyConfig, 'permission_mode' | 'allowed_tools' | 'disallowed_tools'> {
  /** `codex` on PATH, or its path. */
  codex_command: string;
  /** The user's own flags for `codex app-server` (`-c key=value`). */
  codex_args: readonly string[];
}

export type CodexDriver = AgentDriver;

export function createCodexDriver(config: CodexDriverConfig, priceCall?: PriceCall): CodexDriver {
  const toolRules = { allowed: config.allowed_tools.length, disallowed: config.disallowed_tools.length };
  return {
    name: 'codex',
    displayName: 'Codex CLI',
    // Hooks: the PreToolUse guard only; codex's compaction cannot be refused (docs/agents.md).
    capabilities: { perCallUsage: true, gracefulStop: true, resume: true, hooks: true },

    check(root: string, env: NodeJS.ProcessEnv): void {
      requireAgentCommand({ code: 'E_CODEX_NOT_FOUND', product: 'Codex CLI', command: config.codex_command, configKey: 'codex_command', npmPackage: '@openai/codex' }, root, env.PATH);
    },

    warnings(): string[] {
      return codexWarnings(config);
    },

    start(launch: AgentLaunch): AgentSession {
      return startCodexSession({
        launch: {
          command: config.codex_command,
          ...(launch.model === undefined ? {} : { model: launch.model }),
          ...(config.permission_mode === undefined ? {} : { permissionMode: config.permission_mode }),
          toolRules,
          extraArgs: config.codex_args,
        },
        ...sessionBasicsOf(launch, priceCall),
        ...(launch.resumeSessionId === undefined ? {} : { resumeThreadId: launch.resumeSessionId }),
      });
    },

    contextWindowFor(model: string | undefined): number | undefined {
      return codexWindowForModel(model)?.window;
    },

    /** thread/resume keeps the thread's model; the window keeps the monitor on codex's scale. */
    resumeKeep(session): ResumeKeep {
      const window = session.contextWindow ?? codexWindowForModel(session.model)?.window;
      return { ...(session.model === undefined ? {} : { model: session.model }), ...(window === undefined ? {} : { contextWindow: window }) };
    },
  };
}
