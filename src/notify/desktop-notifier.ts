/**
 * A desktop notification where one can be shown: notify-send on Linux, osascript on macOS. Where
 * the tool is not on PATH (a server, CI, a container) it is skipped without a word.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { findExecutable } from '../process/find-executable.js';
import { cutText } from '../redact/redact-then-cut.js';
import type { NotificationMessage } from './notification.js';
import type { Notifier, NotifierOutcome } from './notifier.js';
import { errorMessage } from '../errors/error-message.js';

export interface DesktopNotifierOptions {
  platform?: NodeJS.Platform;
  /** Where PATH comes from (and the environment the tool runs with). */
  env?: Readonly<Record<string, string | undefined>>;
  timeoutMs?: number;
}

/** Desktop notifications are glanced at: the first lines are enough. */
const MAX_BODY_CHARS = 600;

function shortBody(body: string): string {
  return cutText(body, MAX_BODY_CHARS, '…');
}

/** An AppleScript string literal. */
function appleScriptString(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

interface Command {
  tool: string;
  args: string[];
}

function commandFor(platform: NodeJS.Platform, message: NotificationMessage): Command | undefined {
  const body = shortBody(message.body);
  if (platform === 'darwin') {
    return { tool: 'osascript', args: ['-e', `display notification ${appleScriptString(body)} with title ${appleScriptString(message.title)}`] };
  }
  if (platform === 'linux' || platform === 'freebsd' || platform === 'openbsd') {
    const urgency = message.priority === 'default' ? 'normal' : 'critical';
    return { tool: 'notify-send', args: ['--app-name=debussy', `--urgency=${urgency}`, '--', message.title, body] };
  }
  return undefined;
}

function run(file: string, args: string[], env: Readonly<Record<string, string | undefined>>, timeoutMs: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(file, args, { env, timeout: timeoutMs, windowsHide: true }, (error, _stdout, stderr) => {
      if (error) resolve(`${path.basename(file)} failed: ${stderr.trim() || error.message}`);
      else resolve(undefined);
    });
  });
}

export function createDesktopNotifier(options: DesktopNotifierOptions = {}): Notifier {
  const platform = options.platform ?? process.platform;
  const env = options.env ?? process.env;
  const timeoutMs = options.timeoutMs ?? 5_000;
  return {
    name: 'desktop',
    async send(message: NotificationMessage): Promise<NotifierOutcome> {
      const command = commandFor(platform, message);
      if (!command) return { notifier: 'desktop', status: 'skipped', detail: `no desktop notifications on ${platform}` };
      try {
        const executable = findExecutable(command.tool, process.cwd(), env.PATH ?? env.Path, { platform, ...(env.PATHEXT === undefined ? {} : { pathExt: env.PATHEXT }) });
        if (executable === undefined) return { notifier: 'desktop', status: 'skipped', detail: `${command.tool} is not on PATH` };
        const problem = await run(executable, command.args, env, timeoutMs);
        return problem === undefined ? { notifier: 'desktop', status: 'sent' } : { notifier: 'desktop', status: 'failed', detail: problem };
      } catch (error) {
        return { notifier: 'desktop', status: 'failed', detail: errorMessage(error) };
      }
    },
  };
}
