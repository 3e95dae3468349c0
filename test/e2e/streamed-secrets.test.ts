/**
 * Issue 22: a secret the model streams in pieces (claude's --include-partial-messages gives one
 * `text_delta` / `input_json_delta` per few tokens) must not be found in the raw session log by
 * joining the pieces again. The real claude CLI runs against the scripted server, which streams
 * text and tool input in pieces of 7-15 characters, as the real API does. The same run shows issue
 * 5's: a secret of the environment, printed by a real tool and passed to `debussy progress`, reaches
 * no file debussy writes and no commit.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { shellQuote } from '../../src/text/shell-quote.js';
import { SECRET_FORMS } from '../fixtures/secrets/corpus.js';
import { firstUserText, type RecordedRequest, type ScriptedTurn } from '../support/scripted-api.js';
import { piecesFound, secretPieces } from '../support/secret-pieces.js';
import { E2EProject, eventsOf } from './e2e-project.js';
import { bash, done, scriptBySession, sessionKind, write } from './session-script.js';

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
/** A secret of the environment: known by its variable's name alone (no token format). */
const ENV_SECRET = 'sekrit-value-8c1f5e2a9d';

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
  it('joining the raw log pieces of text and tool input gives back no secret; a secret of the environment reaches neither .debussy/ nor git', async () => {
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Streams' }],
      deltaChars: [7, 15],
      script: scriptBySession({
        fresh: [
          bash('echo "the token is $MY_SERVICE_TOKEN"'),
          bash('debussy progress --phase 1 --message "used $MY_SERVICE_TOKEN"'),
          bash(COMMAND, { text: SAID }), write('notes/deploy.md', NOTES), bash('debussy done --phase 1'), done(`All done; the key was ${ANTHROPIC_KEY}.`),
        ],
      }),
    });
    const result = await project.run(['run', project.planArg], { MY_SERVICE_TOKEN: ENV_SECRET });
    expect(result.code, result.stdout + result.stderr).toBe(0);

    // The environment's secret: the tool really printed it (the model saw it), so redaction had something to do.
    expect(project.api.mainRequests().some((r) => JSON.stringify(r.body).includes(ENV_SECRET))).toBe(true);
    const inDebussy = spawnSync('grep', ['-rl', ENV_SECRET, '.debussy'], { cwd: project.dir, encoding: 'utf8' });
    expect(inDebussy.status, inDebussy.stdout).toBe(1); // grep: no match
    expect(eventsOf(await project.journal(), 'progress').map((e) => e.message)).toEqual(['used [REDACTED:MY_SERVICE_TOKEN]']);
    expect(await project.git('log', '-p', '--all', '--format=%B')).not.toContain(ENV_SECRET);

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

// A private key cut short hides the text to its end: last, so that it cannot hide the forms after it.
const ORDERED = [...SECRET_FORMS.filter((form) => form.name !== 'private key cut short (head)'), ...SECRET_FORMS.filter((form) => form.name === 'private key cut short (head)')];
/** Every form of the corpus, as one file (an agent's `.env`, `cat` by it and by a gate). */
const CORPUS = `${ORDERED.map((form) => form.text).join('\n\n')}\n`;
const CROSSING_USAGE = { input_tokens: 165_000 }; // 82.5% of the 200,000-token window: a checkpoint restart
/** One turn of the model: every form printed by its own Bash call, so each form heads a tool summary. */
const PRINT_EACH: ScriptedTurn = { kind: 'tool_use', uses: ORDERED.map((form) => ({ name: 'Bash', input: { command: `printf '%s\\n' ${shellQuote(form.text)}`, description: 'print a form' } })) };

/** What debussy itself sent to the model: each session's prompt, and the answers to the agent's `debussy` commands. */
function debussysWords(requests: readonly RecordedRequest[]): string {
  const words: string[] = [];
  for (const request of requests) {
    words.push(firstUserText(request));
    const messages = (request.body as { messages?: { content?: unknown }[] }).messages ?? [];
    const blocks = messages.flatMap((message) => (Array.isArray(message.content) ? (message.content as { type?: string; id?: string; tool_use_id?: string; input?: { command?: string }; content?: unknown }[]) : []));
    const ours = new Set(blocks.filter((block) => block.type === 'tool_use' && block.input?.command?.startsWith('debussy ')).map((block) => block.id));
    for (const block of blocks) if (block.type === 'tool_result' && ours.has(block.tool_use_id)) words.push(JSON.stringify(block.content));
  }
  return words.join('\n');
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? filesUnder(path.join(dir, entry.name)) : [path.join(dir, entry.name)]));
}

describe('the whole secret corpus, streamed', () => {
  it('as text and tool input in pieces of 7-15 characters, cat by the agent and a gate, through a restart and a remediation: no piece of a secret anywhere', async () => {
    const started = Date.now();
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Corpus', gates: [{ name: 'env', command: 'test -f verified.flag || { cat .env; exit 1; }' }] }],
      deltaChars: [7, 15],
      script: scriptBySession({
        fresh: [
          write('.env', CORPUS, { text: `Writing the environment:\n${CORPUS}` }),
          bash('cat .env'),
          bash('debussy progress --phase 1 --message "$(head -c 1500 .env)"'),
          { ...PRINT_EACH, usage: CROSSING_USAGE },
          bash('true', { latencyMs: 1500 }),
          bash('debussy done --phase 1'),
          done(),
        ],
        checkpoint: [bash('debussy done --phase 1'), done(`Done; for the record:\n${CORPUS}`)],
        remediation: [bash('touch verified.flag && debussy done --phase 1'), done(`Fixed. The gate printed:\n${CORPUS}`)],
      }),
    });
    const p = project;
    const base = (await p.git('rev-parse', 'HEAD')).trim();
    const result = await p.run(['run', p.planArg]);
    const runMs = Date.now() - started;
    expect(result.code, result.stdout + result.stderr).toBe(0);

    // The run did what the test needs: every session kind, the corpus on disk, pieces in the raw log.
    const requests = p.api.mainRequests();
    expect(new Set(requests.map((request) => sessionKind(request)))).toEqual(new Set(['fresh', 'checkpoint', 'remediation']));
    expect(p.read('.env')).toBe(CORPUS);
    // The prompts carried parts of the corpus: the progress entry (a checkpoint), the gate's output (a remediation).
    for (const kind of ['checkpoint', 'remediation'] as const) expect(firstUserText(requests.find((request) => sessionKind(request) === kind) as RecordedRequest), kind).toContain('[REDACTED');
    const rawLog = p.sessionLogs('.stream.ndjson');
    expect(rawLog.split('\n').filter((line) => line.includes('"content_block_delta"')).length).toBeGreaterThan(2000);
    const blocks = joinedBlocks(p.dir);
    expect(blocks.some((block) => block.text.includes('psql -h db.internal')), 'the said text, joined, still reads').toBe(true);

    const commands = await Promise.all([['status'], ['status', '--json'], ['logs'], ['logs', '--raw'], ['logs', '--json']].map(async (args): Promise<[string, string]> => {
      const shown = await p.run(args);
      expect(shown.code, `${args.join(' ')}: ${shown.stderr}`).toBe(0);
      return [`debussy ${args.join(' ')}`, shown.stdout + shown.stderr];
    }));
    const places: [string, string][] = [
      ['stdout', result.stdout],
      ['stderr', result.stderr],
      ...commands,
      ['commits of the run', await p.git('log', '-p', '--format=%H%n%B', `${base}..HEAD`)],
      ["debussy's words to the model", debussysWords(requests)],
      ...blocks.map((block): [string, string] => [`joined block of ${block.file}`, block.text]),
      // Everything debussy wrote: the journal, both session logs, the checkpoint (the config is the user's).
      ...filesUnder(path.join(p.dir, '.debussy')).filter((file) => path.basename(file) !== 'config.yaml').map((file): [string, string] => [path.relative(p.dir, file), readFileSync(file, 'utf8')]),
    ];
    expect(places.map(([place]) => place).filter((place) => place.endsWith('journal.ndjson'))).toHaveLength(1);
    const pieces = secretPieces(SECRET_FORMS);
    const leaks = places.flatMap(([place, text]) => piecesFound(text, pieces).map((found) => `${place}: ${found}`));
    expect(leaks).toEqual([]);
    console.log(`corpus e2e: ${SECRET_FORMS.length} forms, ${CORPUS.length} chars, ${requests.length} model turns, ${blocks.length} streamed blocks, run ${runMs} ms`);
  });
});
