/**
 * `debussy doctor`'s verdicts: each check is a pure function of facts gathered elsewhere
 * (gather-facts.ts), returning one line's worth: what was found and, when it is not fine, the fix.
 */
import type { PermissionVerdict } from '../permissions/rule-check.js';
import { docFile } from '../install/package-files.js';
import { NATIVE_BINARY_HINT } from '../agent/claude/claude-install.js';
import { HOOKS_OFF_FIX, HOOKS_OFF_MEANING } from '../agent/claude/hooks-off.js';
import { OLDEST_TESTED_CLAUDE_VERSION, TESTED_CLAUDE_VERSIONS_TEXT } from './tested-claude-version.js';

export type CheckStatus = 'pass' | 'warn' | 'fail';

export interface DoctorCheck {
  id: 'claude' | 'codex' | 'gemini' | 'auth' | 'git' | 'permissions' | 'hooks' | 'config' | 'notify';
  status: CheckStatus;
  /** What was found, one line. */
  message: string;
  /** What to do about it; absent when the check passed. */
  fix?: string;
}

export interface ClaudeFacts {
  command: string;
  path: string | undefined;
  /** `claude --version`'s first number, e.g. 2.1.197. */
  version: string | undefined;
  versionError: string | undefined;
  /** An npm install of Claude Code without its native binary (agent/claude-install.ts). */
  nativeBinaryMissing?: boolean;
}

/** -1, 0, 1 as a < b, a == b, a > b, for dotted numbers (2.1.197). */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  return 0;
}

export function checkClaude(facts: ClaudeFacts): DoctorCheck {
  if (facts.path === undefined) {
    return {
      id: 'claude', status: 'fail', message: `claude: "${facts.command}" not found${facts.command.includes('/') ? '' : ' on PATH'}`,
      fix: 'Install Claude Code (npm install -g @anthropic-ai/claude-code), or set claude_command in .debussy/config.yaml to its path.',
    };
  }
  if (facts.nativeBinaryMissing === true) {
    return { id: 'claude', status: 'fail', message: `claude: ${facts.path} is an npm install without its native binary (its postinstall did not run, or its platform package is missing)`, fix: NATIVE_BINARY_HINT };
  }
  if (facts.version === undefined) {
    return { id: 'claude', status: 'fail', message: `claude: ${facts.path} did not tell its version (${facts.versionError ?? 'no version in its output'})`, fix: `Run \`${facts.path} --version\` to see why; reinstall Claude Code if it fails.` };
  }
  if (compareVersions(facts.version, OLDEST_TESTED_CLAUDE_VERSION) < 0) {
    return {
      id: 'claude', status: 'warn', message: `claude ${facts.version} at ${facts.path}, older than every version debussy is tested with: ${TESTED_CLAUDE_VERSIONS_TEXT}`,
      fix: 'Update it: npm install -g @anthropic-ai/claude-code@latest (or `claude update`).',
    };
  }
  return { id: 'claude', status: 'pass', message: `claude ${facts.version} at ${facts.path}; debussy is tested with ${TESTED_CLAUDE_VERSIONS_TEXT}` };
}

export interface AuthFacts {
  /** Names (never values) of the credential variables set in the environment. */
  envVariables: string[];
  /** Where claude keeps a login that was found: a file path or "macOS keychain". */
  loginStore: string | undefined;
  /** A Claude Code settings file with apiKeyHelper. */
  apiKeyHelper: string | undefined;
}

export function checkAuth(facts: AuthFacts): DoctorCheck {
  if (facts.envVariables.length > 0) return { id: 'auth', status: 'pass', message: `credentials: ${facts.envVariables.join(', ')} set` };
  if (facts.loginStore !== undefined) return { id: 'auth', status: 'pass', message: `credentials: logged in to Claude Code (${facts.loginStore})` };
  if (facts.apiKeyHelper !== undefined) return { id: 'auth', status: 'pass', message: `credentials: apiKeyHelper in ${facts.apiKeyHelper}` };
  return {
    id: 'auth', status: 'fail', message: 'credentials: no ANTHROPIC_API_KEY and no Claude Code login found',
    fix: 'Run `claude` once and log in (/login), or set ANTHROPIC_API_KEY in the environment debussy runs in.',
  };
}

export interface GitFacts {
  inRepo: boolean;
  autoCommit: boolean;
  name: string | undefined;
  email: string | undefined;
}

export function checkGit(facts: GitFacts): DoctorCheck {
  if (!facts.inRepo) {
    return facts.autoCommit
      ? { id: 'git', status: 'fail', message: 'git: not inside a git repository, and auto_commit is on', fix: 'Run `git init` and commit your files, or pass --no-auto-commit to `debussy run`.' }
      : { id: 'git', status: 'pass', message: 'git: not a repository; auto_commit is off, so debussy commits nothing' };
  }
  const missing = [facts.name === undefined ? 'user.name' : undefined, facts.email === undefined ? 'user.email' : undefined].filter((key): key is string => key !== undefined);
  if (missing.length > 0) {
    return {
      id: 'git', status: 'warn', message: `git: no ${missing.join(' or ')} configured; debussy's commits would be authored by "debussy <debussy@localhost>"`,
      fix: `Set them: ${missing.map((key) => `git config --global ${key} ${key === 'user.name' ? '"Your Name"' : 'you@example.com'}`).join(' && ')}`,
    };
  }
  return { id: 'git', status: 'pass', message: `git: commits as ${facts.name} <${facts.email}>` };
}

export interface PermissionFacts {
  mode: string | undefined;
  allowedRules: number;
  edits: PermissionVerdict;
  doneSignal: PermissionVerdict;
  /** claude refuses --dangerously-skip-permissions / bypassPermissions as root outside a sandbox. */
  rootWithoutSandbox: boolean;
}

export function checkPermissions(facts: PermissionFacts): DoctorCheck {
  const mode = facts.mode === undefined ? 'permission_mode unset' : `permission_mode ${facts.mode}`;
  if (facts.rootWithoutSandbox) {
    return {
      id: 'permissions', status: 'fail', message: `permissions: running as root with permission checks skipped (${mode}); claude refuses that outside a sandbox`,
      fix: `Set IS_SANDBOX=1 inside a sandbox or container, or run as another user, or choose permission_mode acceptEdits with allowed_tools (${docFile('permissions.md')}).`,
    };
  }
  const refused = [facts.edits === 'refused' ? 'file edits' : undefined, facts.doneSignal === 'refused' ? '`debussy done`' : undefined].filter((x): x is string => x !== undefined);
  if (refused.length > 0) {
    return {
      id: 'permissions', status: 'fail', message: `permissions: claude would refuse the agent's ${refused.join(' and ')} (${mode}, ${facts.allowedRules} allow rule(s) in debussy's and Claude Code's settings)`,
      fix: `Set permission_mode: acceptEdits and allowed_tools for your tools in .debussy/config.yaml (\`debussy init\` writes them; ${docFile('permissions.md')}).`,
    };
  }
  if (facts.edits === 'unknown') {
    return { id: 'permissions', status: 'warn', message: `permissions: ${mode} lets claude decide each call; a refused one fails the phase`, fix: `Prefer permission_mode acceptEdits with allowed_tools for unattended runs (${docFile('permissions.md')}).` };
  }
  return { id: 'permissions', status: 'pass', message: `permissions: ${mode}, ${facts.allowedRules} allowed_tools rule(s); the agent can edit files and signal` };
}

export interface HooksFacts {
  /** What turns Claude Code's hooks off (agent/hooks-off.ts), each said as a person would look for it. */
  off: string[];
}

/** A warning, not a failure: a run works without debussy's hooks, less guarded. */
export function checkHooks(facts: HooksFacts): DoctorCheck {
  if (facts.off.length === 0) {
    return { id: 'hooks', status: 'pass', message: "hooks: nothing turns Claude Code's hooks off; each session checks again that debussy's answer (SessionStart)" };
  }
  return { id: 'hooks', status: 'warn', message: `hooks: ${facts.off.join('; ')}: ${HOOKS_OFF_MEANING}`, fix: `${HOOKS_OFF_FIX.charAt(0).toUpperCase()}${HOOKS_OFF_FIX.slice(1)}.` };
}

export interface ConfigFacts {
  file: string | undefined;
  errors: string[];
  warnings: string[];
}

export function checkConfig(facts: ConfigFacts): DoctorCheck {
  const where = facts.file === undefined ? 'no config file, the defaults are used' : `${facts.file} is valid`;
  if (facts.errors.length > 0) {
    return { id: 'config', status: 'fail', message: `config: ${facts.errors[0]}${facts.errors.length > 1 ? ` (and ${facts.errors.length - 1} more)` : ''}`, fix: `Fix the value (\`debussy config\` shows every problem; ${docFile('configuration.md')}).` };
  }
  if (facts.warnings.length > 0) return { id: 'config', status: 'warn', message: `config: ${facts.warnings[0]}`, fix: `Fix or remove the key (${docFile('configuration.md')}).` };
  return { id: 'config', status: 'pass', message: `config: ${where}` };
}

export interface NotifyFacts {
  /** The webhook's origin only (no path, no credentials), when one is configured. */
  webhook: string | undefined;
  /** Undefined: reachable; else why not. */
  webhookProblem: string | undefined;
}

export function checkNotify(facts: NotifyFacts): DoctorCheck {
  if (facts.webhook === undefined) return { id: 'notify', status: 'pass', message: 'notifications: no webhook configured' };
  if (facts.webhookProblem !== undefined) {
    return { id: 'notify', status: 'fail', message: `notifications: the webhook at ${facts.webhook} is not reachable (${facts.webhookProblem})`, fix: 'Check notify_webhook in .debussy/config.yaml and that the server is up.' };
  }
  return { id: 'notify', status: 'pass', message: `notifications: the webhook at ${facts.webhook} answers` };
}

/** The Codex CLI version debussy's tests run (`@openai/codex`, pinned in package.json). */
export const TESTED_CODEX_VERSION = '0.171.0';

export interface CodexFacts {
  command: string;
  path: string | undefined;
  /** `codex --version`'s first number, e.g. 0.171.0. */
  version: string | undefined;
  versionError: string | undefined;
}

/** agent: codex. */
export function checkCodex(facts: CodexFacts): DoctorCheck {
  if (facts.path === undefined) {
    return {
      id: 'codex', status: 'fail', message: `codex: "${facts.command}" not found${facts.command.includes('/') ? '' : ' on PATH'} (agent: codex)`,
      fix: 'Install the Codex CLI (npm install -g @openai/codex), or set codex_command in .debussy/config.yaml to its path.',
    };
  }
  if (facts.version === undefined) {
    return { id: 'codex', status: 'fail', message: `codex: ${facts.path} did not tell its version (${facts.versionError ?? 'no version in its output'})`, fix: `Run \`${facts.path} --version\` to see why; reinstall the Codex CLI if it fails.` };
  }
  if (facts.version !== TESTED_CODEX_VERSION) {
    return {
      id: 'codex', status: 'warn', message: `codex ${facts.version} at ${facts.path}; debussy is tested with ${TESTED_CODEX_VERSION} (codex's app-server protocol changes between versions)`,
      fix: `If a session fails to start or stops measuring its context, install the tested version: npm install -g @openai/codex@${TESTED_CODEX_VERSION}.`,
    };
  }
  return { id: 'codex', status: 'pass', message: `codex ${facts.version} at ${facts.path}; debussy is tested with ${TESTED_CODEX_VERSION}` };
}

export interface CodexAuthFacts {
  /** OPENAI_API_KEY / CODEX_API_KEY set (names only). */
  envVariables: string[];
  /** $CODEX_HOME/auth.json (a `codex login`) when it exists. */
  loginFile: string | undefined;
  /** $CODEX_HOME/config.toml names a model provider of its own (its key variable is the user's to set). */
  customProvider: boolean;
}

export function checkCodexAuth(facts: CodexAuthFacts): DoctorCheck {
  if (facts.envVariables.length > 0) return { id: 'auth', status: 'pass', message: `credentials: ${facts.envVariables.join(', ')} set` };
  if (facts.loginFile !== undefined) return { id: 'auth', status: 'pass', message: `credentials: logged in to the Codex CLI (${facts.loginFile})` };
  if (facts.customProvider) return { id: 'auth', status: 'warn', message: "credentials: codex's config.toml names a model provider of its own; its key variable must be set where debussy runs", fix: 'Set the variable its env_key names, or run `codex login`.' };
  return { id: 'auth', status: 'fail', message: 'credentials: no OPENAI_API_KEY and no Codex CLI login found', fix: 'Run `codex login`, or set OPENAI_API_KEY in the environment debussy runs in.' };
}

/** The Gemini CLI version debussy's tests run (`@google/gemini-cli`, pinned in package.json). */
export const TESTED_GEMINI_VERSION = '0.61.0';

export type GeminiFacts = CodexFacts;

/** agent: gemini. */
export function checkGemini(facts: GeminiFacts): DoctorCheck {
  if (facts.path === undefined) {
    return {
      id: 'gemini', status: 'fail', message: `gemini: "${facts.command}" not found${facts.command.includes('/') ? '' : ' on PATH'} (agent: gemini)`,
      fix: 'Install the Gemini CLI (npm install -g @google/gemini-cli), or set gemini_command in .debussy/config.yaml to its path.',
    };
  }
  if (facts.version === undefined) {
    return { id: 'gemini', status: 'fail', message: `gemini: ${facts.path} did not tell its version (${facts.versionError ?? 'no version in its output'})`, fix: `Run \`${facts.path} --version\` to see why; reinstall the Gemini CLI if it fails.` };
  }
  if (facts.version !== TESTED_GEMINI_VERSION) {
    return {
      id: 'gemini', status: 'warn', message: `gemini ${facts.version} at ${facts.path}; debussy is tested with ${TESTED_GEMINI_VERSION} (its stream, chat file and hooks change between versions)`,
      fix: `If a session fails to start or stops measuring its context, install the tested version: npm install -g @google/gemini-cli@${TESTED_GEMINI_VERSION}.`,
    };
  }
  return { id: 'gemini', status: 'pass', message: `gemini ${facts.version} at ${facts.path}; debussy is tested with ${TESTED_GEMINI_VERSION}` };
}

export interface GeminiAuthFacts {
  /** GEMINI_API_KEY / GOOGLE_API_KEY / GOOGLE_APPLICATION_CREDENTIALS set (names only). */
  envVariables: string[];
  /** The Google login gemini keeps (~/.gemini/oauth_creds.json) when it exists. */
  loginFile: string | undefined;
  /** security.auth.selectedType of the user's gemini settings. */
  authMethod: string | undefined;
}

export function checkGeminiAuth(facts: GeminiAuthFacts): DoctorCheck {
  if (facts.envVariables.length > 0) return { id: 'auth', status: 'pass', message: `credentials: ${facts.envVariables.join(', ')} set` };
  if (facts.loginFile !== undefined) return { id: 'auth', status: 'pass', message: `credentials: logged in to the Gemini CLI (${facts.loginFile})` };
  if (facts.authMethod !== undefined) return { id: 'auth', status: 'warn', message: `credentials: gemini's settings choose ${facts.authMethod}, but no key or login was found`, fix: 'Set GEMINI_API_KEY, or run `gemini` once and sign in.' };
  return { id: 'auth', status: 'fail', message: 'credentials: no GEMINI_API_KEY and no Gemini CLI login found', fix: 'Set GEMINI_API_KEY in the environment debussy runs in, or run `gemini` once and sign in with Google.' };
}
