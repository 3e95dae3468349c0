import { describe, expect, it } from 'vitest';
import { createTerminalNotifier, renderPersistentFailure, sendPersistentFailure, type Notifier, type PersistentFailureNotification } from '../../src/notify/index.js';
import { createRedactor } from '../../src/redact/index.js';

const T0 = Date.UTC(2026, 2, 1, 9, 0, 0);

function crashLoop(): PersistentFailureNotification {
  return {
    title: 'debussy stopped phase 2: 4 agent crashes within 10 min',
    project: 'shop-api',
    runId: 'r-20260301',
    phaseId: '2',
    failures: Array.from({ length: 7 }, (_, i) => ({ class: 'agent_crash', message: `the claude process was killed by SIGKILL (#${i + 1})`, at: T0 + i * 60_000, phaseId: '2' })),
    pattern: { class: 'agent_crash', count: 7, likelyRootCause: 'The claude process keeps dying.' },
    nextSteps: ['Read the session logs: `debussy logs --phase 2`.', 'Fix the cause, then run `debussy run` to resume.'],
    exitCode: 4,
  };
}

describe('renderPersistentFailure', () => {
  it('lists the last failures with class, time and message, the pattern, and what to do', () => {
    const message = renderPersistentFailure(crashLoop());
    expect(message.title).toBe('debussy stopped phase 2: 4 agent crashes within 10 min');
    expect(message.priority).toBe('high');
    expect(message.tags).toEqual(['debussy', 'agent_crash']);
    const lines = message.body.split('\n');
    expect(lines[0]).toBe('shop-api, run r-20260301, phase 2');
    expect(lines).toContain('Exit code: 4');
    expect(lines).toContain('Last failures (5 of 7):');
    expect(lines).toContain('- 2026-03-01T09:02:00.000Z agent_crash [phase 2]: the claude process was killed by SIGKILL (#3)');
    expect(lines).toContain('- 2026-03-01T09:06:00.000Z agent_crash [phase 2]: the claude process was killed by SIGKILL (#7)');
    expect(message.body).not.toContain('(#2)');
    expect(lines).toContain('Recurring: agent_crash 7 times. Likely cause: The claude process keeps dying.');
    expect(lines.slice(-3)).toEqual(['What to do next:', '1. Read the session logs: `debussy logs --phase 2`.', '2. Fix the cause, then run `debussy run` to resume.']);
  });

  it('works with the bare minimum', () => {
    const message = renderPersistentFailure({ title: 'run stopped', failures: [], nextSteps: [], priority: 'urgent' });
    expect(message).toMatchObject({ title: 'run stopped', body: '', priority: 'urgent', tags: ['debussy'] });
  });

  it('flattens long multi-line messages', () => {
    const message = renderPersistentFailure({ title: 't', failures: [{ class: 'unknown', message: `line one\nline two ${'x'.repeat(400)}`, at: T0 }], nextSteps: [] });
    const failureLine = message.body.split('\n').find((l) => l.startsWith('- ')) ?? '';
    expect(failureLine).toContain('line one line two');
    expect(failureLine.length).toBeLessThan(320);
  });
});

describe('sendPersistentFailure', () => {
  it('writes to the terminal, redacted', async () => {
    const written: string[] = [];
    const redact = createRedactor({ ANTHROPIC_API_KEY: 'test-secret-key-123' });
    const notification = crashLoop();
    notification.failures.push({ class: 'authentication', message: 'curl said: x-api-key test-secret-key-123 rejected', at: T0 + 3_600_000 });
    notification.title = 'stopped (key test-secret-key-123)';
    const outcomes = await sendPersistentFailure(notification, [createTerminalNotifier((t) => written.push(t))], { redact });
    expect(outcomes).toEqual([{ notifier: 'terminal', status: 'sent' }]);
    const text = written.join('');
    expect(text).toContain('✖ stopped (key [REDACTED:ANTHROPIC_API_KEY])');
    expect(text).toContain('  - 2026-03-01T10:00:00.000Z authentication: curl said: x-api-key [REDACTED:ANTHROPIC_API_KEY] rejected');
    expect(text).not.toContain('test-secret-key-123');
  });

  it('hands every notifier an inert title and body: no OSC 9/777 or other control sequence from a failure reaches a terminal or notify-send', async () => {
    const sent: { title: string; body: string }[] = [];
    const notifier: Notifier = { name: 'capture', send: (message) => (sent.push(message), Promise.resolve({ notifier: 'capture', status: 'sent' })) };
    const notification = crashLoop();
    notification.title = 'stopped \x1b]9;fake notification\x07phase 2\u202e';
    notification.failures.push({ class: 'tool', message: 'gate printed \x1b]777;notify;T;B\x07\x1b[2J\u009b6n', at: T0 });
    notification.nextSteps.push('see \x1b]52;c;ZXZpbA==\x07 logs');
    await sendPersistentFailure(notification, [notifier]);
    expect(sent[0]?.title).toBe('stopped phase 2');
    expect(sent[0]?.body).toContain('tool: gate printed');
    expect(sent[0]?.body).toMatch(/\n3\. see +logs/);
    // eslint-disable-next-line no-control-regex
    expect(`${sent[0]?.title}${sent[0]?.body}`).not.toMatch(/[\x07\x1b\x7f-\x9f\u202e]/);
  });

  it('a notifier that throws or rejects never stops the others, and its error is redacted', async () => {
    const redact = createRedactor({ HOOK_TOKEN: 'hook-token-value' });
    const seen: string[] = [];
    const throwing: Notifier = { name: 'broken', send: () => Promise.reject(new Error('failed posting to https://x.invalid/hook-token-value')) };
    const recording: Notifier = { name: 'recording', send: (m) => (seen.push(m.data.failures[0]?.message ?? ''), Promise.resolve({ notifier: 'recording', status: 'sent' })) };
    const outcomes = await sendPersistentFailure(
      { title: 't', failures: [{ class: 'network', message: 'token=hook-token-value', at: T0 }], nextSteps: [] },
      [throwing, recording],
      { redact },
    );
    expect(outcomes).toEqual([
      { notifier: 'broken', status: 'failed', detail: 'failed posting to https://x.invalid/[REDACTED:HOOK_TOKEN]' },
      { notifier: 'recording', status: 'sent' },
    ]);
    // The structured data handed to notifiers is redacted too.
    expect(seen).toEqual(['token=[REDACTED:HOOK_TOKEN]']);
  });

  it('a terminal write that throws is reported, not thrown', async () => {
    const outcomes = await sendPersistentFailure({ title: 't', failures: [], nextSteps: [] }, [
      createTerminalNotifier(() => {
        throw new Error('EPIPE');
      }),
    ]);
    expect(outcomes).toEqual([{ notifier: 'terminal', status: 'failed', detail: 'EPIPE' }]);
  });
});
