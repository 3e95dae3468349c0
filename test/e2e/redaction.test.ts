/**
 * Issue 12: no secret reaches output, logs, the journal or a prompt, even where debussy cuts text
 * short (a tool summary, a line of the readable log, the last-activity lines) and in the webhook
 * warning. The real claude CLI runs against the scripted server; the webhook is a loopback server
 * that fails.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { firstUserText, type RecordedRequest } from '../support/scripted-api.js';
import { E2EProject, eventsOf } from './e2e-project.js';
import { bash, done, scriptBySession, sessionKind } from './session-script.js';

// Fixtures of our own in the real formats; none is a live credential.
const GITHUB_IN_SUMMARY = 'ghp_Q7wX2mZ9pL4kR8vN1bT6yH3jF5dS0aC2eG8u';
const GITHUB_IN_OUTPUT = 'ghp_Z1xC2vB3nM4aS5dF6gH7jK8lP9oI0uY1tR2e';
const GITHUB_IN_TEXT = 'ghp_M9nB8vC7xZ6lK5jH4gF3dS2aP1oI0uY9tR8e';
const GITHUB_FROM_GATE_SUFFIX = 'W4qE5rT6yU7iO8pA9sD0fG1hJ2kL3zX4cV5b';
const ENV_SECRET = 'env-secret-value-0123456789';
const WEBHOOK_PASSWORD = 'hunter2-webhook-pass';
const WEBHOOK_AUTH = 'QWxhZGRpbjpvcGVuc2VzYW1l';
// Printed by a tool as a JSON file, so the raw stream log holds it JSON-escaped (`\"db_password\": \"...\"`);
// the command has it in two halves, so only the tool's output holds it whole.
const DB_PASSWORD = ['hunter2-db-', '0123456789'] as const;
const PRINT_CONFIG = `printf '{\\n  "db_password": "%s%s",\\n  "user": "bob"\\n}\\n' ${DB_PASSWORD[0]} ${DB_PASSWORD[1]}`;

/**
 * What must appear nowhere: the start of each secret that a cut before redaction would leave (a
 * `ghp_` token needs 20 characters after its prefix to be known, an env value its whole length).
 */
const FORBIDDEN = [
  GITHUB_IN_SUMMARY.slice(0, 12),
  GITHUB_IN_OUTPUT.slice(0, 12),
  GITHUB_IN_TEXT.slice(0, 12),
  `ghp_${GITHUB_FROM_GATE_SUFFIX.slice(0, 8)}`,
  ENV_SECRET.slice(0, 11),
  WEBHOOK_PASSWORD.slice(0, 9),
  WEBHOOK_AUTH.slice(0, 8),
  DB_PASSWORD.join('').slice(0, 14),
];

// Placed so that each secret straddles a cut: the tool summary keeps 117 characters of the
// command, the readable log 157 of a tool's output and 297 of the model's text, the last-activity
// lines 157 of it.
const ECHO = `echo ${'a'.repeat(89)} ${GITHUB_IN_SUMMARY} ${'b'.repeat(13)} ${GITHUB_IN_OUTPUT}`;
const FINAL_TEXT = `${'c'.repeat(145)} ${ENV_SECRET} ${'d'.repeat(110)} ${GITHUB_IN_TEXT} done.`;
const GATE = { name: 'deploy', command: `printf 'deploy failed for ghp_%s\\n' ${GITHUB_FROM_GATE_SUFFIX}; echo "using $DEPLOY_TOKEN"; exit 1` };

let project: E2EProject | undefined;
let hook: Server | undefined;
afterEach(async () => {
  await project?.dispose();
  project = undefined;
  await new Promise<void>((resolve) => (hook ? hook.close(() => resolve()) : resolve()));
  hook = undefined;
});

/** A webhook receiver on 127.0.0.1 that answers every POST with HTTP 500. */
async function failingWebhook(): Promise<{ url: string; requests: { url: string; headers: IncomingHttpHeaders }[] }> {
  const requests: { url: string; headers: IncomingHttpHeaders }[] = [];
  hook = createServer((req, res) => {
    requests.push({ url: req.url ?? '', headers: req.headers });
    req.resume();
    req.on('end', () => res.writeHead(500).end('down'));
  });
  await new Promise<void>((resolve) => hook?.listen(0, '127.0.0.1', resolve));
  const { port } = hook.address() as AddressInfo;
  return { url: `http://alerts:${WEBHOOK_PASSWORD}@127.0.0.1:${port}/deploys?auth=${WEBHOOK_AUTH}`, requests };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? filesUnder(file) : [file];
  });
}

describe('secrets are redacted before any cut', () => {
  it('tool summaries, log lines, last activity, the remediation prompt and the webhook warning hold no secret', async () => {
    const webhook = await failingWebhook();
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Leaky', gates: [GATE] }],
      config: { max_retries: 1, notify_desktop: false, notify_webhook: webhook.url },
      script: scriptBySession({
        fresh: [bash(ECHO), bash(PRINT_CONFIG), bash('debussy done --phase 1'), done(FINAL_TEXT)],
        remediation: [bash('debussy done --phase 1'), done()],
      }),
    });
    const base = (await project.git('rev-parse', 'HEAD')).trim();
    const result = await project.run(['run', project.planArg], { DEPLOY_TOKEN: ENV_SECRET });
    expect(result.code, result.stdout + result.stderr).toBe(1);

    // The run did what the test needs: the cut lines exist, a remediation session ran, the webhook failed.
    const remediation = project.api.mainRequests().find((r) => sessionKind(r) === 'remediation');
    expect(remediation, `a remediation session:\n${result.stdout}${result.stderr}`).toBeDefined();
    const remediationPrompt = firstUserText(remediation as RecordedRequest);
    expect(remediationPrompt).toContain('deploy failed for [REDACTED]');
    expect(remediationPrompt).toContain('using [REDACTED:DEPLOY_TOKEN]');
    expect(webhook.requests.length).toBeGreaterThan(0);
    expect(webhook.requests[0]?.headers.authorization).toBe(`Basic ${Buffer.from(`alerts:${WEBHOOK_PASSWORD}`).toString('base64')}`);
    expect(result.stdout).toMatch(/notification via webhook \(ntfy\) failed: HTTP 500/);
    const events = await project.journal();
    expect(eventsOf(events, 'gate_result').length).toBe(2);

    const places: [string, string][] = [
      ['stdout', result.stdout],
      ['stderr', result.stderr],
      ['remediation prompt', remediationPrompt],
      ['commits of the run', await project.git('log', '-p', `${base}..HEAD`)],
      // Everything debussy wrote (the config file holding the webhook URL is the user's own).
      ...filesUnder(path.join(project.dir, '.debussy')).filter((file) => path.basename(file) !== 'config.yaml').map((file): [string, string] => [path.relative(project?.dir ?? '', file), readFileSync(file, 'utf8')]),
    ];
    const logs = places.filter(([name]) => name.endsWith('.log'));
    expect(logs.length, 'readable session logs').toBeGreaterThan(0);
    expect(logs.map(([, text]) => text).join('\n')).toContain('tool Bash: echo aaaa');
    // The JSON file reached the raw stream log (its name, escaped, with the value redacted).
    const rawLogs = places.filter(([name]) => name.endsWith('.stream.ndjson')).map(([, text]) => text).join('\n');
    expect(rawLogs).toContain('\\"db_password\\": \\"[REDACTED]\\"');
    for (const [name, text] of places) {
      for (const forbidden of FORBIDDEN) expect(text, `${forbidden} in ${name}`).not.toContain(forbidden);
    }
  });
});
