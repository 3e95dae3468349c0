/**
 * `debussy doctor`: one line per check of what a run needs (the agent CLI and its version: claude, or codex / gemini with agent: codex / gemini; credentials,
 * git identity, permissions, whether Claude Code's hooks are on, the config, notification targets), with the fix for each that is not
 * fine. Exit 0 when nothing fails (warnings included), 3 (prerequisites) otherwise.
 */
import path from 'node:path';
import {
  checkAuth,
  checkClaude,
  checkCodex,
  checkCodexAuth,
  checkGemini,
  checkGeminiAuth,
  checkConfig,
  checkGit,
  checkHooks,
  checkNotify,
  checkPermissions,
  gatherAuth,
  gatherClaude,
  gatherCodex,
  gatherCodexAuth,
  gatherGemini,
  gatherGeminiAuth,
  gatherConfig,
  gatherGit,
  gatherNotify,
  gatherPermissions,
  type DoctorCheck,
} from '../../doctor/index.js';
import { EXIT_CODES } from '../../errors/index.js';
import { findProjectRoot } from '../../state/index.js';
import { hooksOffSources } from '../../agent/claude/hooks-off.js';

interface DoctorOptions {
  json?: boolean;
  config?: string;
}

const MARKS: Record<DoctorCheck['status'], string> = { pass: 'ok  ', warn: 'warn', fail: 'FAIL' };

export default async function doctorCommand(options: DoctorOptions): Promise<number> {
  const root = await findProjectRoot(process.cwd());
  const env = process.env;
  const { facts: configFacts, config } = await gatherConfig(root, options.config === undefined ? undefined : path.resolve(options.config));
  const [git, notify] = await Promise.all([gatherGit(root, config, env), gatherNotify(config)]);
  // The agent's own checks: Claude Code's (its version, login, permissions, hooks) the Codex CLI's or the Gemini CLI's.
  let checks: DoctorCheck[];
  if (config.agent === 'codex') {
    checks = [checkCodex(await gatherCodex(config.codex_command, env)), checkCodexAuth(gatherCodexAuth(env)), checkGit(git), checkConfig(configFacts), checkNotify(notify)];
  } else if (config.agent === 'gemini') {
    checks = [checkGemini(await gatherGemini(config.gemini_command, env)), checkGeminiAuth(gatherGeminiAuth(env)), checkGit(git), checkConfig(configFacts), checkNotify(notify)];
  } else {
    const [claude, auth] = await Promise.all([gatherClaude(config.claude_command, env), gatherAuth(env)]);
    checks = [checkClaude(claude), checkAuth(auth), checkGit(git), checkPermissions(gatherPermissions(root, config, env)), checkHooks({ off: hooksOffSources(config.claude_args, root, env) }), checkConfig(configFacts), checkNotify(notify)];
  }
  const failed = checks.filter((check) => check.status === 'fail').length;
  const warned = checks.filter((check) => check.status === 'warn').length;
  const code = failed > 0 ? EXIT_CODES.prerequisites.code : EXIT_CODES.success.code;

  if (options.json) {
    process.stdout.write(`${JSON.stringify({ ok: failed === 0, project: root, failed, warnings: warned, checks })}\n`);
    return code;
  }
  for (const check of checks) {
    process.stdout.write(`${MARKS[check.status]}  ${check.message}\n`);
    if (check.fix !== undefined) process.stdout.write(`      fix: ${check.fix}\n`);
  }
  process.stdout.write(failed > 0 ? `${failed} check(s) failed${warned > 0 ? `, ${warned} warning(s)` : ''}.\n` : warned > 0 ? `Ready to run, with ${warned} warning(s).\n` : 'Ready to run.\n');
  return code;
}
