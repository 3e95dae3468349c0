/**
 * The folder a gemini session runs with as its GEMINI_CLI_HOME (see gemini-launch.ts for why): a
 * `.gemini` whose settings.json is the user's with debussy's added, and a link to every other entry
 * of the user's `.gemini` (credentials, chats under tmp/, projects.json, extensions, ...), so what
 * gemini writes there lands in the user's own folder and a later session can resume. Without a
 * user `.gemini` the session's folder is all gemini has, and goes with the session.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { sessionTempFiles } from '../session-temp-files.js';
import { parseUserSettings, sessionSettings } from './gemini-launch.js';

export interface GeminiHome {
  /** GEMINI_CLI_HOME for the session. */
  dir: string;
  /** `<dir>/.gemini`: where gemini keeps its chats (through the link to the user's tmp/). */
  geminiDir: string;
  /** What could not be carried over, one sentence each. */
  notes: string[];
  dispose(): void;
}

/** The user's gemini folder: `$GEMINI_CLI_HOME/.gemini` when they set one, else `~/.gemini`. */
export function userGeminiDir(env: Record<string, string | undefined>): string {
  const home = env.GEMINI_CLI_HOME !== undefined && env.GEMINI_CLI_HOME !== '' ? env.GEMINI_CLI_HOME : (env.HOME ?? homedir());
  return path.join(home, '.gemini');
}

/** The session's gemini home, named by its marker (a random UUID, so made here alone): a next run can remove it after a kill -9. */
export function createGeminiHome(input: { env: Record<string, string | undefined>; marker: string; stopFile: string; compressionThreshold?: number }): GeminiHome {
  const dir = sessionTempFiles(input.marker).geminiHome;
  mkdirSync(dir, { mode: 0o700 });
  const geminiDir = path.join(dir, '.gemini');
  mkdirSync(geminiDir, { mode: 0o700 });
  const notes: string[] = [];
  const userDir = userGeminiDir(input.env);
  let entries: string[] = [];
  try {
    // gemini's own folder for chats, made as its first run makes it: linked, a session can be resumed later.
    if (existsSync(userDir)) mkdirSync(path.join(userDir, 'tmp'), { recursive: true });
    entries = readdirSync(userDir);
  } catch {
    entries = [];
  }
  if (!entries.includes('tmp')) notes.push(`there is no ${userDir}: the session's chat stays in its own gemini home and goes with it (it cannot be resumed)`);
  for (const entry of entries) {
    if (entry === 'settings.json') continue;
    try {
      symlinkSync(path.join(userDir, entry), path.join(geminiDir, entry));
    } catch (error) {
      notes.push(`could not link ${path.join(userDir, entry)} into the session's gemini home (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    }
  }
  // What gemini looks up in the home itself: its last-resort ~/.env and the global ~/.agents skills.
  for (const entry of ['.env', '.agents']) {
    const source = path.join(path.dirname(userDir), entry);
    try {
      if (existsSync(source)) symlinkSync(source, path.join(dir, entry));
    } catch (error) {
      notes.push(`could not link ${source} into the session's gemini home (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    }
  }
  let user: Record<string, unknown> | undefined;
  const userSettings = path.join(userDir, 'settings.json');
  if (existsSync(userSettings)) {
    const parsed = parseUserSettings(readFileSync(userSettings, 'utf8'));
    if ('problem' in parsed) notes.push(`could not read ${userSettings} (${parsed.problem}): the session runs with debussy's settings only`);
    else {
      user = parsed.settings;
      if (hooksOff(user)) notes.push(`${userSettings} turns gemini's hooks off (hooksConfig.enabled: false): debussy's stop guard does not run, and a stop relies on SIGTERM alone`);
    }
  }
  const settings = sessionSettings(user, { stopFile: input.stopFile, ...(input.compressionThreshold === undefined ? {} : { compressionThreshold: input.compressionThreshold }) });
  writeFileSync(path.join(geminiDir, 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 });
  return { dir, geminiDir, notes, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

function hooksOff(settings: Record<string, unknown>): boolean {
  const config = settings.hooksConfig;
  return typeof config === 'object' && config !== null && (config as { enabled?: unknown }).enabled === false;
}
