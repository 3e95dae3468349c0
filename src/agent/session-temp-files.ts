/**
 * What an agent session keeps in the temporary directory, each named by the session's marker (a
 * random UUID, recorded in the journal's session_started): its stop guard's files and, for gemini,
 * the session's gemini home. The session removes them as it ends; after debussy itself was killed
 * (kill -9), the next run removes those of the sessions the dead run left unended
 * (orchestrator/reclaim-dead-run.ts).
 */
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface SessionTempFiles {
  /** The stop guard's file: once it exists, the guard refuses tool calls (stop-guard.ts). */
  stopFile: string;
  /** Made by the session's SessionStart hook: its hooks run. */
  answerFile: string;
  /** A gemini session's GEMINI_CLI_HOME (gemini/gemini-home.ts). */
  geminiHome: string;
}

export function sessionTempFiles(marker: string): SessionTempFiles {
  return {
    stopFile: path.join(tmpdir(), `debussy-stop-${marker}`),
    answerFile: path.join(tmpdir(), `debussy-hooks-${marker}`),
    geminiHome: path.join(tmpdir(), `debussy-gemini-${marker}`),
  };
}

/** What the stop guard keeps beside its stop file: the list being written (renamed over it), and the tokens of the entries let through. */
export function besideStopFile(stopFile: string): { next: string; tokens: string } {
  return { next: `${stopFile}.next`, tokens: `${stopFile}.d` };
}

/** Every path of the stop guard's (stop-guard.ts removes them as its session ends). */
export function stopGuardPaths(files: Pick<SessionTempFiles, 'stopFile' | 'answerFile'>): string[] {
  const beside = besideStopFile(files.stopFile);
  return [files.stopFile, beside.next, beside.tokens, files.answerFile];
}

/** Every path of `files`, with what the stop guard writes beside its stop file. */
export function sessionTempPaths(files: SessionTempFiles): string[] {
  return [...stopGuardPaths(files), files.geminiHome];
}

/** What a session's marker looks like (randomUUID's shape, or another plain name): never a path. */
const PLAIN_MARKER = /^[A-Za-z0-9][A-Za-z0-9-]*$/;

/**
 * Removes what a session of `marker` kept in the temporary directory; what is gone already is no
 * error. The marker comes from a journal: one that is not a plain name (a path, `..`) removes nothing.
 */
export function removeSessionTempFiles(marker: string): void {
  if (!PLAIN_MARKER.test(marker)) return;
  for (const file of sessionTempPaths(sessionTempFiles(marker))) {
    try {
      rmSync(file, { recursive: true, force: true });
    } catch {
      // Not ours to remove (another user's file of the same name): left alone.
    }
  }
}
