/**
 * Issue 22: a secret the model streams in pieces (claude's --include-partial-messages gives one
 * `text_delta` / `input_json_delta` per few tokens) must not be found in the raw session log by
 * joining the pieces again. The real claude CLI runs against the scripted server, which streams
 * text and tool input in pieces of 7-15 characters, as the real API does.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { E2EProject } from './e2e-project.js';
import { bash, done, scriptBySession, write } from './session-script.js';

// Fixtures of our own in the real formats; none is a live credential.
const ANTHROPIC_KEY = 'sk-ant-api03-Qm7vX2pL9kR4tN8bW1cY6hJ3fD5sA0eG-zU2iO7pL4kM9nB3vC8xZ1qW6eR5tY0uI9oP3aS7dF2gH-AbCdEfAA';
const GITHUB_TOKEN = 'ghp_R8vN1bT6yH3jF5dS0aC2eG8uQ7wX2mZ9pL4k';
const BEARER = 'Tk3.JmQ9xW2vL8pR4nB7cY1hF6dS0aZ5eG3u';

/** The secrets, and the part of each that must never be found (the whole, less the prefix a reader may see). */
const SECRETS: Record<string, string> = {
  'Anthropic key': ANTHROPIC_KEY.slice(0, 24),
  'GitHub token': GITHUB_TOKEN.slice(0, 14),
  'Bearer value': BEARER.slice(0, 12),
};

const SAID = `Found the key ${ANTHROPIC_KEY} in the config, and the token ${GITHUB_TOKEN}; the API wants "Authorization: Bearer ${BEARER}". Moving on.`;
const COMMAND = `curl -s -H "Authorization: Bearer ${BEARER}" -H "x-api-key: ${ANTHROPIC_KEY}" http://127.0.0.1:9/ >/dev/null || true; echo ${GITHUB_TOKEN} | wc -c`;
const NOTES = `deploy notes\nGITHUB_TOKEN=${GITHUB_TOKEN}\nANTHROPIC_API_KEY=${ANTHROPIC_KEY}\n`;

let project: E2EProject | undefined;
afterEach(async () => {
  await project?.dispose();
  project = undefined;
});

interface Joined {
  file: string;
  /** A content block's pieces joined, as the raw log holds them. */
  text: string;
}

/** Every streamed content block of every raw session log, its delta pieces joined again. */
function joinedBlocks(dir: string): Joined[] {
  const runs = path.join(dir, '.debussy/runs');
  const joined: Joined[] = [];
  for (const run of readdirSync(runs)) {
    const sessions = path.join(runs, run, 'sessions');
    for (const file of readdirSync(sessions).filter((name) => name.endsWith('.stream.ndjson'))) {
      const open = new Map<string, string>();
      for (const line of readFileSync(path.join(sessions, file), 'utf8').split('\n')) {
        if (line.trim() === '') continue;
        const record = JSON.parse(line) as { type?: string; event?: { type?: string; index?: number; delta?: { text?: string; partial_json?: string } } };
        if (record.type !== 'stream_event' || record.event === undefined) continue;
        const key = String(record.event.index);
        if (record.event.type === 'content_block_delta') open.set(key, (open.get(key) ?? '') + (record.event.delta?.text ?? record.event.delta?.partial_json ?? ''));
        if (record.event.type === 'content_block_stop' && open.has(key)) {
          joined.push({ file, text: open.get(key) ?? '' });
          open.delete(key);
        }
      }
      for (const text of open.values()) joined.push({ file, text });
    }
  }
  return joined;
}

describe('secrets streamed in pieces', () => {
  it('joining the raw log pieces of text and tool input gives back no secret', async () => {
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Streams' }],
      deltaChars: [7, 15],
      script: scriptBySession({
        fresh: [bash(COMMAND, { text: SAID }), write('notes/deploy.md', NOTES), bash('debussy done --phase 1'), done(`All done; the key was ${ANTHROPIC_KEY}.`)],
      }),
    });
    const result = await project.run(['run', project.planArg]);
    expect(result.code, result.stdout + result.stderr).toBe(0);

    const blocks = joinedBlocks(project.dir);
    // The server really streamed in pieces, and the pieces reached the raw log.
    const rawLog = project.sessionLogs('.stream.ndjson');
    expect(rawLog.split('\n').filter((line) => line.includes('"content_block_delta"')).length).toBeGreaterThan(40);
    expect(blocks.some((block) => block.text.includes('Moving on.')), 'the said text, joined').toBe(true);
    expect(blocks.some((block) => block.text.includes('notes/deploy.md')), 'the Write input, joined').toBe(true);
    const places: [string, string][] = [
      ...blocks.map((block): [string, string] => [`joined block of ${block.file}`, block.text]),
      ['raw logs', rawLog],
      ['readable logs', project.sessionLogs('.log')],
      ['stdout', result.stdout],
      ['stderr', result.stderr],
    ];
    for (const [place, text] of places) {
      for (const [name, secret] of Object.entries(SECRETS)) expect(text, `${name} in ${place}`).not.toContain(secret);
    }
    // What the agent wrote is its own file: the tool really ran with the whole secret.
    expect(project.read('notes/deploy.md')).toContain(GITHUB_TOKEN);
  });
});
