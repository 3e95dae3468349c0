/**
 * A Claude Code npm package installed without its native binary (`npm install --ignore-scripts`,
 * or the platform package left out): its launcher only prints an error. That is a prerequisite
 * error, exit 3 at once with the fix, never a crashing agent retried three times; doctor says the
 * same. The launchers are built here from the installed package's own files, minus the binary.
 */
import { chmodSync, copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT, tempDir } from '../cli/cli-harness.js';
import { E2EProject, eventsOf } from './e2e-project.js';
import { bash, done, scriptBySession } from './session-script.js';

const PACKAGE = path.join(REPO_ROOT, 'node_modules', '@anthropic-ai', 'claude-code');

/**
 * What 2.1.332's package ships as bin/claude.exe before its postinstall links the native binary
 * over it (a text file npm marks executable; our own wording of its first line, which is what
 * debussy recognises).
 */
const STUB = [
  'echo "Error: claude native binary not installed." >&2',
  'echo "Either postinstall did not run (--ignore-scripts) or the platform-native optional dependency was not downloaded." >&2',
  'exit 1',
  '',
].join('\n');

let project: E2EProject | undefined;
const cleanups: (() => void)[] = [];
afterEach(async () => {
  await project?.dispose();
  project = undefined;
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** node_modules/@anthropic-ai/claude-code as `npm install --ignore-scripts` leaves it, with no platform package beside it. */
function installWithoutBinary(): { launcher: string; wrapper: string } {
  const temp = tempDir('debussy-claude-install-');
  cleanups.push(() => temp.cleanup());
  const dir = path.join(temp.dir, 'node_modules', '@anthropic-ai', 'claude-code');
  mkdirSync(path.join(dir, 'bin'), { recursive: true });
  for (const file of ['package.json', 'cli-wrapper.cjs', 'install.cjs']) copyFileSync(path.join(PACKAGE, file), path.join(dir, file));
  const launcher = path.join(dir, 'bin', 'claude.exe');
  writeFileSync(launcher, STUB);
  chmodSync(launcher, 0o755);
  // The package's fallback launcher, run as a command of its own (`node cli-wrapper.cjs`).
  const wrapper = path.join(temp.dir, 'claude-wrapper');
  writeFileSync(wrapper, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(dir, 'cli-wrapper.cjs'))} "$@"\n`);
  chmodSync(wrapper, 0o755);
  return { launcher, wrapper };
}

describe('claude installed without its native binary', () => {
  it.each([
    ['the launcher npm leaves without the postinstall', 'launcher'],
    ["the package's fallback launcher without its platform package", 'wrapper'],
  ] as const)('%s: `debussy run` stops at once with exit 3 and the fix; nothing is retried', async (_name, which) => {
    const install = installWithoutBinary();
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Never runs' }],
      config: { claude_command: install[which], max_retries: 3 },
      script: scriptBySession({ fresh: [bash('debussy done --phase 1'), done()] }),
    });
    const result = await project.run(['run', project.planArg]);
    const output = result.stdout + result.stderr;
    expect(result.code, output).toBe(3);
    expect(output).toContain('native binary');
    expect(output).toMatch(/npm install -g @anthropic-ai\/claude-code|npm rebuild @anthropic-ai\/claude-code/);
    expect(output).not.toMatch(/\n\s+at /);
    expect(output).toContain(`debussy: the Claude Code command "${install[which]}" is an npm install without its native binary`);
    const events = await project.journal();
    expect(eventsOf(events, 'recovery')).toEqual([]);
    // The stub is known before the run starts; the wrapper only once it has printed its error.
    expect(eventsOf(events, 'session_started')).toHaveLength(which === 'launcher' ? 0 : 1);
    expect(project.api.mainRequests()).toHaveLength(0);
  });

  it.each(['launcher', 'wrapper'] as const)('doctor names it with the same fix (%s), exit 3', async (which) => {
    const install = installWithoutBinary();
    project = await E2EProject.create({ phases: [{ id: '1', title: 'Never runs' }], config: { claude_command: install[which] }, script: [done()] });
    const result = await project.run(['doctor']);
    expect(result.code, result.stdout + result.stderr).toBe(3);
    expect(result.stdout).toContain(`FAIL  claude: ${install[which]} is an npm install without its native binary`);
    expect(result.stdout).toContain('fix: Reinstall Claude Code with its install script allowed: `npm install -g @anthropic-ai/claude-code`');
  });
});
