import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isNativeBinaryStub, saysNativeBinaryMissing } from '../../../src/agent/claude/claude-install.js';

describe('saysNativeBinaryMissing', () => {
  it.each([
    ['Error: claude native binary not installed.\n\nEither postinstall did not run', true],
    ['[@anthropic-ai/claude-code] Could not find native binary package "@anthropic-ai/claude-code-linux-x64".', true],
    ['[@anthropic-ai/claude-code] Native binaries for linux-riscv64 are not available on this release channel.', true],
    ['[@anthropic-ai/claude-code] Failed to execute native binary at /x/claude', true],
    ['API Error: 500 server error', false],
    ['', false],
  ])('%j -> %s', (stderr, missing) => {
    expect(saysNativeBinaryMissing(stderr)).toBe(missing);
  });
});

describe('isNativeBinaryStub', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('a small text file with the message is the stub; a script without it, a big file or no file is not', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'debussy-stub-'));
    const file = (name: string, text: string) => {
      writeFileSync(path.join(dir ?? '', name), text);
      return path.join(dir ?? '', name);
    };
    expect(isNativeBinaryStub(file('stub', 'echo "Error: claude native binary not installed." >&2\nexit 1\n'))).toBe(true);
    expect(isNativeBinaryStub(file('script', '#!/bin/sh\nexec claude "$@"\n'))).toBe(false);
    expect(isNativeBinaryStub(file('big', `${'x'.repeat(5000)}claude native binary not installed`))).toBe(false);
    expect(isNativeBinaryStub(path.join(dir, 'missing'))).toBe(false);
  });
});
