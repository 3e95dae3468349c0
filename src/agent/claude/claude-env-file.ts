/**
 * The file Claude Code sources before every Bash command (CLAUDE_ENV_FILE), written beside the
 * agent's `debussy` shim: it puts the shim first on PATH even where a shell start-up file resets
 * PATH (orchestrator/agent-environment.ts writes it).
 */
import path from 'node:path';

export function sessionEnvFile(shimDir: string): string {
  return path.join(shimDir, 'session-env.sh');
}
