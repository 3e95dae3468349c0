/**
 * A gemini session resumed by debussy (--resume <id>): the real gemini 0.61.0 sends the saved
 * history with the new prompt, and the resumed session reports only its own calls (the chat file
 * is read from where the earlier session left it). The chats live in the user's ~/.gemini/tmp,
 * through the session home's link, so a later session finds them.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { AgentEvent } from '../../src/agent/agent-events.js';
import { startGeminiSession } from '../../src/agent/gemini/gemini-session.js';
import { GEMINI_BIN, GEMINI_TEST_MODEL, geminiEnv, useGeminiHome, useScriptedGemini } from '../support/gemini.js';
import { userTexts } from '../support/scripted-gemini.js';

describe('resuming a gemini session', () => {
  it('continues the saved chat; the resumed session counts only its own calls', async () => {
    const cwd = mkdtempSync(path.join(tmpdir(), 'debussy-gemini-cwd-'));
    onTestFinished(() => rmSync(cwd, { recursive: true, force: true }));
    const server = await useScriptedGemini({ script: [{ kind: 'text', text: 'First answer.' }, { kind: 'text', text: 'Second answer.' }] });
    const home = useGeminiHome();
    const env = geminiEnv(home, server);
    const run = async (prompt: string, resumeSessionId?: string) => {
      const events: AgentEvent[] = [];
      const session = startGeminiSession({ command: GEMINI_BIN, cwd, env, prompt, model: GEMINI_TEST_MODEL, stopGraceMs: 2_000, onEvent: (event) => events.push(event), ...(resumeSessionId === undefined ? {} : { resumeSessionId }) });
      return { end: await session.ended, events };
    };
    const first = await run('Remember the word APRICOT.');
    expect(first.end.outcome).toBe('completed');
    expect(existsSync(path.join(home, '.gemini', 'tmp'))).toBe(true);
    const second = await run('Which word?', first.end.sessionId);
    expect(second.end).toMatchObject({ outcome: 'completed', sessionId: first.end.sessionId });
    expect(userTexts(server.modelRequests()[1]!)).toEqual(expect.arrayContaining(['Remember the word APRICOT.', 'Which word?']));
    expect(second.events.filter((e) => e.type === 'usage')).toHaveLength(1);
  });
});
