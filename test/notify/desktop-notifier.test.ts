import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDesktopNotifier, renderPersistentFailure } from '../../src/notify/index.js';
import { findExecutable } from '../../src/process/find-executable.js';

const message = renderPersistentFailure({
  title: 'debussy stopped phase 1: "quoted" \\ title',
  failures: [{ class: 'network', message: 'ECONNRESET', at: Date.UTC(2026, 0, 1) }],
  nextSteps: ['Check the network.'],
});

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'debussy-desktop-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A stand-in for notify-send / osascript: records its arguments, one per line, then exits with `code`. */
async function fakeTool(name: string, code = 0): Promise<string> {
  const record = path.join(dir, `${name}.args`);
  const script = `#!/bin/sh\nfor a in "$@"; do printf '%s\\n' "$a" >> '${record}'; done\n${code === 0 ? '' : "echo 'cannot connect to the session bus' >&2\n"}exit ${code}\n`;
  await writeFile(path.join(dir, name), script);
  await chmod(path.join(dir, name), 0o755);
  return record;
}

describe('desktop notifier', () => {
  it('is skipped silently when notify-send is not on PATH', async () => {
    const notifier = createDesktopNotifier({ platform: 'linux', env: { PATH: dir } });
    await expect(notifier.send(message)).resolves.toEqual({ notifier: 'desktop', status: 'skipped', detail: 'notify-send is not on PATH' });
  });

  it('is skipped with an empty PATH and on platforms without a notifier', async () => {
    await expect(createDesktopNotifier({ platform: 'linux', env: {} }).send(message)).resolves.toMatchObject({ status: 'skipped' });
    await expect(createDesktopNotifier({ platform: 'win32', env: { PATH: dir } }).send(message)).resolves.toMatchObject({ status: 'skipped', detail: 'no desktop notifications on win32' });
  });

  it('runs notify-send with the title and body on Linux', async () => {
    const record = await fakeTool('notify-send');
    const outcome = await createDesktopNotifier({ platform: 'linux', env: { PATH: `/nonexistent${path.delimiter}${dir}` } }).send(message);
    expect(outcome).toEqual({ notifier: 'desktop', status: 'sent' });
    const args = (await readFile(record, 'utf8')).split('\n');
    expect(args.slice(0, 4)).toEqual(['--app-name=debussy', '--urgency=critical', '--', 'debussy stopped phase 1: "quoted" \\ title']);
    expect(args.slice(4).join('\n')).toContain('network: ECONNRESET');
  });

  it('runs osascript with an escaped AppleScript on macOS', async () => {
    const record = await fakeTool('osascript');
    const outcome = await createDesktopNotifier({ platform: 'darwin', env: { PATH: dir } }).send(message);
    expect(outcome.status).toBe('sent');
    const args = await readFile(record, 'utf8');
    expect(args.startsWith('-e\ndisplay notification "')).toBe(true);
    expect(args).toContain('with title "debussy stopped phase 1: \\"quoted\\" \\\\ title"');
  });

  it('reports a failing tool instead of throwing', async () => {
    await fakeTool('notify-send', 1);
    const outcome = await createDesktopNotifier({ platform: 'linux', env: { PATH: dir } }).send(message);
    expect(outcome.status).toBe('failed');
    expect(outcome.detail).toMatch(/notify-send failed: cannot connect to the session bus/);
  });

  it('findExecutable ignores files that are not executable', async () => {
    await writeFile(path.join(dir, 'notify-send'), '#!/bin/sh\n');
    await chmod(path.join(dir, 'notify-send'), 0o644);
    expect(findExecutable('notify-send', dir, dir, { platform: 'linux' })).toBeUndefined();
    await chmod(path.join(dir, 'notify-send'), 0o755);
    expect(findExecutable('notify-send', dir, dir, { platform: 'linux' })).toBe(path.join(dir, 'notify-send'));
  });
});
