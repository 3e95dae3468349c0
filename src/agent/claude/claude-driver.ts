/**
 * Claude Code behind the agent seam (agent-driver.ts): `claude -p --output-format stream-json`
 * with debussy's permissions, hooks and budget flag, the CLAUDE_* environment it reads, the checks
 * before a run, and the `[1m]` resume quirk. The core never builds a claude command line itself.
 */
import { requireAgentCommand, sessionBasicsOf } from '../agent-launch.js';
import type { DebussyConfig } from '../../config/index.js';
import { claudeWarnings } from './claude-warnings.js';
import type { AgentDriver, AgentLaunch, ResumeKeep } from '../agent-driver.js';
import { startAgentSession, type AgentSession } from './claude-session.js';
import { buildClaudeArgs, type ClaudePermissions } from './claude-args.js';
import { settingsError, userSettingsProblem } from './session-settings.js';
import { isNativeBinaryStub, nativeBinaryMissing } from './claude-install.js';
import { sessionEnvFile } from './claude-env-file.js';

/** What of debussy's config the claude driver reads. */
export type ClaudeDriverConfig = Pick<
  DebussyConfig,
  'claude_command' | 'claude_args' | 'claude_max_retries' | 'api_timeout' | 'permission_mode' | 'allowed_tools' | 'disallowed_tools'
>;

export function claudePermissionsOf(config: Pick<DebussyConfig, 'permission_mode' | 'allowed_tools' | 'disallowed_tools'>): ClaudePermissions {
  return { ...(config.permission_mode === undefined ? {} : { mode: config.permission_mode }), allowedTools: config.allowed_tools, disallowedTools: config.disallowed_tools };
}

/**
 * The variables claude reads that debussy decides: CLAUDE_ENV_FILE (sourced before each Bash
 * command: it keeps the shim first on PATH where a shell start-up file resets it), and bounded
 * retries and API timeout (a value left in the shell from elsewhere must not silently change how
 * long a session may hang).
 */
export function claudeEnvironment(config: Pick<DebussyConfig, 'claude_max_retries' | 'api_timeout'>, shimDir: string): Record<string, string> {
  return {
    CLAUDE_ENV_FILE: sessionEnvFile(shimDir),
    CLAUDE_CODE_MAX_RETRIES: String(config.claude_max_retries),
    API_TIMEOUT_MS: String(config.api_timeout),
  };
}

export function createClaudeDriver(config: ClaudeDriverConfig): AgentDriver {
  const permissions = claudePermissionsOf(config);
  return {
    name: 'claude',
    displayName: 'Claude Code',
    capabilities: { perCallUsage: true, gracefulStop: true, resume: true, hooks: true },

    check(root: string, env: NodeJS.ProcessEnv): void {
      const claudePath = requireAgentCommand({ code: 'E_CLAUDE_NOT_FOUND', product: 'Claude Code', command: config.claude_command, configKey: 'claude_command', npmPackage: '@anthropic-ai/claude-code' }, root, env.PATH);
      if (isNativeBinaryStub(claudePath)) throw nativeBinaryMissing(config.claude_command);
      // A user's --settings that claude could not read would fail every session: said before any starts.
      const settingsProblem = userSettingsProblem(config.claude_args, root);
      if (settingsProblem !== undefined) throw settingsError(settingsProblem);
    },

    warnings(root: string, env: NodeJS.ProcessEnv, gateCommands: readonly string[]): string[] {
      return claudeWarnings(config, root, env, gateCommands);
    },

    start(launch: AgentLaunch): AgentSession {
      return startAgentSession({
        command: config.claude_command,
        args: buildClaudeArgs({
          ...(launch.model === undefined ? {} : { model: launch.model }),
          extraArgs: config.claude_args,
          permissions,
          ...(launch.resumeSessionId === undefined ? {} : { resumeSessionId: launch.resumeSessionId }),
          ...(launch.maxBudgetUsd === undefined ? {} : { maxBudgetUsd: launch.maxBudgetUsd }),
        }),
        ...sessionBasicsOf(launch),
        env: { ...launch.env, ...claudeEnvironment(config, launch.shimDir) },
      });
    },

    /**
     * `claude --resume` without `--model` falls back to the plain model (claude-opus-4-8, 200,000
     * tokens) even when the session ran on its 1M variant (claude-opus-4-8[1m]); passing the init
     * model back keeps the variant, and the window keeps the monitor on the same scale (measured
     * with 2.1.197).
     */
    resumeKeep(session): ResumeKeep {
      return {
        ...(session.model === undefined ? {} : { model: session.model }),
        ...(session.contextWindow === undefined ? {} : { contextWindow: session.contextWindow }),
      };
    },
  };
}
