/**
 * The I/O behind `debussy doctor`: what is on this machine and in this project, read without
 * changing anything and without reading a secret's value (only whether one is there).
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfigFile, resolveConfig, type DebussyConfig } from '../config/index.js';
import { isGitRepo } from '../git/index.js';
import { runGit } from '../git/run-git.js';
import { webhookTarget } from '../notify/webhook-notifier.js';
import { findExecutable } from '../process/find-executable.js';
import { isNativeBinaryStub, saysNativeBinaryMissing } from '../agent/claude/claude-install.js';
import { permissionSettingsOf } from '../agent/claude/claude-permissions.js';
import { bashVerdict, editVerdict } from '../permissions/rule-check.js';
import type { AuthFacts, ClaudeFacts, CodexAuthFacts, CodexFacts, ConfigFacts, GeminiAuthFacts, GeminiFacts, GitFacts, NotifyFacts, PermissionFacts } from './checks.js';
import { errorMessage } from '../errors/error-message.js';

const VERSION_TIMEOUT_MS = 15_000;
const WEBHOOK_PROBE_TIMEOUT_MS = 5_000;
/** Variables that give claude credentials (names only are reported). */
const CREDENTIAL_VARIABLES = ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'CLAUDE_CODE_OAUTH_TOKEN', 'CLAUDE_CODE_USE_BEDROCK', 'CLAUDE_CODE_USE_VERTEX'];

export async function gatherClaude(command: string, env: NodeJS.ProcessEnv): Promise<ClaudeFacts> {
  const found = findExecutable(command, process.cwd(), env.PATH);
  if (found === undefined) return { command, path: undefined, version: undefined, versionError: undefined };
  if (isNativeBinaryStub(found)) return { command, path: found, version: undefined, versionError: undefined, nativeBinaryMissing: true };
  return new Promise((resolve) => {
    execFile(found, ['--version'], { env, timeout: VERSION_TIMEOUT_MS, encoding: 'utf8' }, (error, stdout, stderr) => {
      const version = /\b(\d+\.\d+\.\d+)\b/.exec(stdout)?.[1];
      const nativeBinaryMissing = version === undefined && saysNativeBinaryMissing(stderr);
      resolve({ command, path: found, version, versionError: error ? error.message.split('\n')[0] : undefined, ...(nativeBinaryMissing ? { nativeBinaryMissing } : {}) });
    });
  });
}

export function gatherCodex(command: string, env: NodeJS.ProcessEnv): Promise<CodexFacts> {
  return gatherCliVersion(command, env);
}

export function gatherGemini(command: string, env: NodeJS.ProcessEnv): Promise<GeminiFacts> {
  return gatherCliVersion(command, { ...env, GEMINI_CLI_NO_RELAUNCH: 'true' });
}

/** An agent CLI's path and `--version`. */
function gatherCliVersion(command: string, env: NodeJS.ProcessEnv): Promise<CodexFacts> {
  const found = findExecutable(command, process.cwd(), env.PATH);
  if (found === undefined) return Promise.resolve({ command, path: undefined, version: undefined, versionError: undefined });
  return new Promise((resolve) => {
    execFile(found, ['--version'], { env, timeout: VERSION_TIMEOUT_MS, encoding: 'utf8' }, (error, stdout) => {
      resolve({ command, path: found, version: /\b(\d+\.\d+\.\d+)\b/.exec(stdout)?.[1], versionError: error ? error.message.split('\n')[0] : undefined });
    });
  });
}

/** The Codex CLI's credentials: OPENAI_API_KEY / CODEX_API_KEY, or a login in $CODEX_HOME (~/.codex). Names and paths only. */
export function gatherCodexAuth(env: NodeJS.ProcessEnv): CodexAuthFacts {
  const envVariables = ['OPENAI_API_KEY', 'CODEX_API_KEY'].filter((name) => (env[name] ?? '').trim() !== '');
  const home = env.CODEX_HOME ?? path.join(env.HOME ?? os.homedir(), '.codex');
  const loginFile = existsSync(path.join(home, 'auth.json')) ? path.join(home, 'auth.json') : undefined;
  let customProvider = false;
  try {
    customProvider = /^\s*model_provider\s*=/m.test(readFileSync(path.join(home, 'config.toml'), 'utf8'));
  } catch {
    customProvider = false;
  }
  return { envVariables, loginFile, customProvider };
}

/** Claude Code's config folder: CLAUDE_CONFIG_DIR, else ~/.claude (its .claude.json beside it, in the home folder). */
export function gatherAuth(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): Promise<AuthFacts> {
  const envVariables = CREDENTIAL_VARIABLES.filter((name) => (env[name] ?? '').trim() !== '');
  const home = env.HOME ?? os.homedir();
  const configDir = env.CLAUDE_CONFIG_DIR ?? path.join(home, '.claude');
  const globalConfig = env.CLAUDE_CONFIG_DIR ? path.join(env.CLAUDE_CONFIG_DIR, '.claude.json') : path.join(home, '.claude.json');
  const credentials = path.join(configDir, '.credentials.json');
  let loginStore: string | undefined;
  if (existsSync(credentials)) loginStore = credentials;
  else if (readJsonKey(globalConfig, 'oauthAccount') !== undefined) loginStore = globalConfig;
  const settings = path.join(configDir, 'settings.json');
  const apiKeyHelper = readJsonKey(settings, 'apiKeyHelper') === undefined ? undefined : settings;
  const facts: AuthFacts = { envVariables, loginStore, apiKeyHelper };
  if (loginStore !== undefined || platform !== 'darwin') return Promise.resolve(facts);
  // On macOS claude keeps its login in the keychain; `security` without -w does not print the secret.
  return new Promise((resolve) => {
    execFile('security', ['find-generic-password', '-s', 'Claude Code-credentials'], { timeout: 5_000 }, (error) => {
      resolve(error ? facts : { ...facts, loginStore: 'macOS keychain' });
    });
  });
}

function readJsonKey(file: string, key: string): unknown {
  try {
    const value = (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>)[key];
    return value === null ? undefined : value;
  } catch {
    return undefined;
  }
}

export async function gatherGit(root: string, config: DebussyConfig, env: NodeJS.ProcessEnv): Promise<GitFacts> {
  const inRepo = await isGitRepo(root);
  const get = async (key: string, envName: string): Promise<string | undefined> => {
    // GIT_AUTHOR_* in the environment win over the config, as git itself has it.
    const fromEnv = env[envName]?.trim();
    if (fromEnv) return fromEnv;
    const result = await runGit(root, ['config', '--get', key]);
    const value = result.stdout.trim();
    return result.exitCode === 0 && value !== '' ? value : undefined;
  };
  return { inRepo, autoCommit: config.auto_commit, name: await get('user.name', 'GIT_AUTHOR_NAME'), email: await get('user.email', 'GIT_AUTHOR_EMAIL') };
}

/** Claude Code's own permission settings (user, project, local): what they allow adds to debussy's. */
function claudeSettingsPermissions(root: string, env: NodeJS.ProcessEnv): { allow: string[]; deny: string[]; defaultMode: string | undefined } {
  const configDir = env.CLAUDE_CONFIG_DIR ?? path.join(env.HOME ?? os.homedir(), '.claude');
  const files = [path.join(configDir, 'settings.json'), path.join(root, '.claude', 'settings.json'), path.join(root, '.claude', 'settings.local.json')];
  const merged = { allow: [] as string[], deny: [] as string[], defaultMode: undefined as string | undefined };
  for (const file of files) {
    const permissions = readJsonKey(file, 'permissions') as { allow?: unknown; deny?: unknown; defaultMode?: unknown } | undefined;
    if (typeof permissions !== 'object') continue;
    if (Array.isArray(permissions.allow)) merged.allow.push(...permissions.allow.filter((rule): rule is string => typeof rule === 'string'));
    if (Array.isArray(permissions.deny)) merged.deny.push(...permissions.deny.filter((rule): rule is string => typeof rule === 'string'));
    if (typeof permissions.defaultMode === 'string') merged.defaultMode = permissions.defaultMode;
  }
  return merged;
}

export function gatherPermissions(root: string, config: DebussyConfig, env: NodeJS.ProcessEnv, uid: number | undefined = process.getuid?.()): PermissionFacts {
  const own = permissionSettingsOf(config);
  const claude = claudeSettingsPermissions(root, env);
  const settings = {
    ...own,
    mode: own.mode ?? claude.defaultMode,
    allowedTools: [...own.allowedTools, ...claude.allow],
    disallowedTools: [...own.disallowedTools, ...claude.deny],
  };
  const skips = settings.skipsChecks || settings.mode === 'bypassPermissions';
  return {
    mode: settings.mode,
    allowedRules: config.allowed_tools.length + claude.allow.length,
    edits: editVerdict(settings),
    doneSignal: bashVerdict(settings, 'debussy done'),
    rootWithoutSandbox: uid === 0 && skips && (env.IS_SANDBOX ?? '') === '',
  };
}

export async function gatherConfig(root: string, explicitPath: string | undefined): Promise<{ facts: ConfigFacts; config: DebussyConfig }> {
  let file: string | undefined;
  let raw: unknown;
  const loadErrors: string[] = [];
  try {
    ({ file, raw } = await loadConfigFile(root, explicitPath));
  } catch (error) {
    loadErrors.push(errorMessage(error));
  }
  // With a file that cannot be read, the other checks look at the defaults.
  const resolved = resolveConfig({ file, raw: loadErrors.length > 0 ? undefined : raw });
  return { facts: { file, errors: [...loadErrors, ...resolved.errors], warnings: resolved.warnings }, config: resolved.config };
}

/** Any HTTP answer counts as reachable (a HEAD a server does not serve still proves it is up). */
export async function gatherNotify(config: DebussyConfig): Promise<NotifyFacts> {
  if (config.notify_webhook === undefined) return { webhook: undefined, webhookProblem: undefined };
  let origin: string;
  try {
    origin = new URL(config.notify_webhook).origin;
  } catch {
    return { webhook: 'notify_webhook', webhookProblem: 'not a URL' };
  }
  const target = webhookTarget(config.notify_webhook);
  try {
    await fetch(target.url, {
      method: 'HEAD',
      headers: target.authorization ? { authorization: target.authorization } : {},
      signal: AbortSignal.timeout(Math.min(WEBHOOK_PROBE_TIMEOUT_MS, config.notify_webhook_timeout)),
    });
    return { webhook: origin, webhookProblem: undefined };
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    const code = error instanceof Error ? (error.cause as { code?: unknown } | undefined)?.code : undefined;
    return { webhook: origin, webhookProblem: timedOut ? 'no answer in time' : typeof code === 'string' ? code : 'the request failed' };
  }
}

/** The Gemini CLI's credentials: GEMINI_API_KEY / GOOGLE_API_KEY, a Google login, or an auth method in its settings. Names and paths only. */
export function gatherGeminiAuth(env: NodeJS.ProcessEnv): GeminiAuthFacts {
  const envVariables = ['GEMINI_API_KEY', 'GOOGLE_API_KEY', 'GOOGLE_APPLICATION_CREDENTIALS'].filter((name) => (env[name] ?? '').trim() !== '');
  const dir = path.join(env.GEMINI_CLI_HOME !== undefined && env.GEMINI_CLI_HOME !== '' ? env.GEMINI_CLI_HOME : (env.HOME ?? os.homedir()), '.gemini');
  const loginFile = existsSync(path.join(dir, 'oauth_creds.json')) ? path.join(dir, 'oauth_creds.json') : undefined;
  let authMethod: string | undefined;
  try {
    authMethod = /"selectedType"\s*:\s*"([^"]+)"/.exec(readFileSync(path.join(dir, 'settings.json'), 'utf8'))?.[1];
  } catch {
    authMethod = undefined;
  }
  return { envVariables, loginFile, authMethod };
}
