/** The codex driver's checks, warnings and resume rule (its sessions: codex-session.test.ts). */
import { describe, expect, it } from 'vitest';
import { createCodexDriver } from '../../../src/agent/codex/codex-driver.js';

const config = { codex_command: 'codex-not-installed-here', codex_args: [], permission_mode: 'auto' as const, allowed_tools: ['Bash(npm test)'], disallowed_tools: [] };

describe('createCodexDriver', () => {
  it('refuses to start a run when the codex command is missing, with the install hint', () => {
    expect(() => createCodexDriver(config).check('/', { PATH: '/usr/bin:/bin' })).toThrow(/the Codex CLI command "codex-not-installed-here" was not found on PATH/);
  });

  it('warns of what codex cannot do of the settings', () => {
    expect(createCodexDriver(config).warnings('/', {}, [])).toEqual([
      'codex has no per-tool rules: allowed_tools and disallowed_tools do not apply to codex sessions',
      "codex has no classifier mode: permission_mode auto runs as acceptEdits (codex's workspace-write sandbox)",
    ]);
  });

  it("keeps the model and codex's window on resume (the catalog's when the session never reported one)", () => {
    const driver = createCodexDriver(config);
    expect(driver.resumeKeep({ model: 'gpt-5.5', contextWindow: undefined })).toEqual({ model: 'gpt-5.5', contextWindow: 258_400 });
    expect(driver.resumeKeep({ model: undefined, contextWindow: 100_000 })).toEqual({ contextWindow: 100_000 });
  });
});
