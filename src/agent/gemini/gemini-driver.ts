/**
 * The Gemini CLI behind the agent seam (agent-driver.ts), chosen with `agent: gemini` / `--agent
 * gemini`: `gemini --output-format stream-json` with debussy's guard, permissions, model and a
 * compression threshold above debussy's stop point (gemini-launch.ts), sessions run by
 * gemini-session.ts.
 */
import { requireAgentCommand, sessionBasicsOf } from '../agent-launch.js';
import type { DebussyConfig } from '../../config/index.js';
import type { AgentDriver, AgentLaunch, ResumeKeep } from '../agent-driver.js';
import type { AgentSession } from '../agent-session.js';
import type { PriceCall } from '../call-usage.js';
import { compressionThresholdFor, geminiWarnings, geminiWindowForModel, readProjectSettings, stopTokensFor } from './gemini-launch.js';
import { startGeminiSession } from './gemini-session.js';

export interface GeminiDriverConfig extends Pick<DebussyConfig, 'permission_mode' | 'allowed_tools' | 'disallowed_tools' | 'context_threshold' | 'max_context_tokens' | 'context_window' | 'model'> {
  /** `gemini` on PATH, or its path. */
  gemini_command: string;
  /** The user's own flags for every gemini session. */
  gemini_args: readonly string[];
}

export function createGeminiDriver(config: GeminiDriverConfig, priceCall?: PriceCall): AgentDriver {
  const toolRules = { allowed: config.allowed_tools.length, disallowed: config.disallowed_tools.length };
  const windowOf = (model: string | undefined) => config.context_window ?? geminiWindowForModel(model);
  return {
    name: 'gemini',
    displayName: 'Gemini CLI',
    // Per-call usage from its chat file; the BeforeTool guard; --resume. Its compression cannot be refused, only moved (docs/agents.md).
    capabilities: { perCallUsage: true, gracefulStop: true, resume: true, hooks: true },

    check(root: string, env: NodeJS.ProcessEnv): void {
      requireAgentCommand({ code: 'E_GEMINI_NOT_FOUND', product: 'Gemini CLI', command: config.gemini_command, configKey: 'gemini_command', npmPackage: '@google/gemini-cli' }, root, env.PATH);
    },

    warnings(root: string): string[] {
      return geminiWarnings(config, readProjectSettings(root));
    },

    start(launch: AgentLaunch): AgentSession {
      const window = windowOf(launch.model);
      const compressionThreshold = compressionThresholdFor(stopTokensFor(config, window), window);
      return startGeminiSession({
        ...sessionBasicsOf(launch, priceCall),
        command: config.gemini_command,
        ...(launch.model === undefined ? {} : { model: launch.model }),
        ...(config.permission_mode === undefined ? {} : { permissionMode: config.permission_mode }),
        toolRules,
        ...(compressionThreshold === undefined ? {} : { compressionThreshold }),
        extraArgs: config.gemini_args,
        ...(launch.resumeSessionId === undefined ? {} : { resumeSessionId: launch.resumeSessionId }),
      });
    },

    contextWindowFor(model: string | undefined): number | undefined {
      return geminiWindowForModel(model);
    },

    /** --resume keeps the session's model only when told it again; the window keeps the monitor on gemini's scale. */
    resumeKeep(session): ResumeKeep {
      const window = session.contextWindow ?? geminiWindowForModel(session.model);
      return { ...(session.model === undefined ? {} : { model: session.model }), ...(window === undefined ? {} : { contextWindow: window }) };
    },
  };
}
