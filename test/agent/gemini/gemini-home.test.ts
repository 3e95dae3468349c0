import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createGeminiHome } from '../../../src/agent/gemini/gemini-home.js';

function userHome(files: Record<string, string>): string {
  const home = mkdtempSync(path.join(tmpdir(), 'debussy-gemini-user-'));
  onTestFinished(() => rmSync(home, { recursive: true, force: true }));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(home, name)), { recursive: true });
    writeFileSync(path.join(home, name), text);
  }
  return home;
}

describe('the gemini session home', () => {
  it("holds the user's settings with debussy's added, links the rest of the user's .gemini, and never writes the user's settings", () => {
    const userSettings = '{\n  // mine\n  "security": { "auth": { "selectedType": "oauth-personal" } },\n  "hooksConfig": { "enabled": false }\n}\n';
    const home = userHome({ '.gemini/settings.json': userSettings, '.gemini/oauth_creds.json': '{}', '.env': 'X=1\n' });
    const session = createGeminiHome({ env: { HOME: home }, marker: randomUUID(), stopFile: '/tmp/debussy-stop-x', compressionThreshold: 0.9 });
    onTestFinished(() => session.dispose());
    const settings = JSON.parse(readFileSync(path.join(session.geminiDir, 'settings.json'), 'utf8')) as Record<string, unknown>;
    expect(settings).toMatchObject({ security: { auth: { selectedType: 'oauth-personal' } }, model: { compressionThreshold: 0.9 }, hooks: { BeforeTool: [{ matcher: '.*' }] } });
    expect(lstatSync(path.join(session.geminiDir, 'oauth_creds.json')).isSymbolicLink()).toBe(true);
    // gemini's chats folder is made in the user's .gemini and linked: a later session can resume.
    expect(realpathSync(path.join(session.geminiDir, 'tmp'))).toBe(realpathSync(path.join(home, '.gemini', 'tmp')));
    expect(lstatSync(path.join(session.dir, '.env')).isSymbolicLink()).toBe(true);
    expect(session.notes).toEqual([expect.stringContaining("turns gemini's hooks off")]);
    expect(readFileSync(path.join(home, '.gemini', 'settings.json'), 'utf8')).toBe(userSettings);
    session.dispose();
    expect(existsSync(session.dir)).toBe(false);
    expect(existsSync(path.join(home, '.gemini', 'oauth_creds.json'))).toBe(true);
  });

  it("says so when the user's settings cannot be read, and when there is no .gemini to keep the chats", () => {
    const broken = userHome({ '.gemini/settings.json': '{ nope' });
    const a = createGeminiHome({ env: { HOME: broken }, marker: randomUUID(), stopFile: '/tmp/s' });
    onTestFinished(() => a.dispose());
    expect(a.notes).toEqual([expect.stringContaining("could not read")]);
    const empty = userHome({});
    const b = createGeminiHome({ env: { HOME: empty }, marker: randomUUID(), stopFile: '/tmp/s' });
    onTestFinished(() => b.dispose());
    expect(b.notes).toEqual([expect.stringContaining('cannot be resumed')]);
    expect(existsSync(path.join(empty, '.gemini'))).toBe(false);
  });

  it('follows the GEMINI_CLI_HOME the user set', () => {
    const home = userHome({ 'alt/.gemini/settings.json': '{"model": {"name": "gemini-2.5-flash"}}' });
    const session = createGeminiHome({ env: { HOME: '/nonexistent', GEMINI_CLI_HOME: path.join(home, 'alt') }, marker: randomUUID(), stopFile: '/tmp/s' });
    onTestFinished(() => session.dispose());
    expect(JSON.parse(readFileSync(path.join(session.geminiDir, 'settings.json'), 'utf8'))).toMatchObject({ model: { name: 'gemini-2.5-flash' } });
  });
});
