/**
 * Carries out a usage-limit decision (recovery/usage-limit.ts): the journal lines, the
 * notifications when the wait starts and when the phase resumes, and the wait itself (a Ctrl-C
 * ends it). The live view counts down from the journal's `usage_limit` line. What the phase does
 * next stays with the phase runner.
 */
import { createDesktopNotifier, createTerminalNotifier, createWebhookNotifier, sendPersistentFailure, type Notifier } from '../notify/index.js';
import { decideUsageLimitWait, formatClock, type UsageLimit } from '../recovery/usage-limit.js';
import type { PhaseContext } from './phase-context.js';

export type UsageLimitOutcome =
  | { kind: 'resumed'; waitedMs: number }
  | { kind: 'interrupted' }
  | { kind: 'beyond_max_wait'; reason: string; hint: string };

export async function waitForUsageLimit(ctx: PhaseContext, phaseId: string, limit: UsageLimit): Promise<UsageLimitOutcome> {
  const now = Date.now();
  const decision = decideUsageLimitWait(limit, now, ctx.config.max_wait);
  const reset = limit.resetAt === undefined ? {} : { resetAt: limit.resetAt };
  if (decision.kind === 'end') {
    ctx.recorder.record({ type: 'usage_limit', phaseId, stage: 'beyond_max_wait', kind: limit.kind, source: limit.source, ...reset });
    const when = decision.resumeAt === undefined ? 'when the limit has reset' : `after ${formatClock(decision.resumeAt)}`;
    return {
      kind: 'beyond_max_wait',
      reason: decision.reason,
      hint: `The work so far is committed. Resume ${when}: ${ctx.resumeCommand} (or raise max_wait to let debussy wait).`,
    };
  }
  // --parallel: a wait another phase started is this phase's too (one wait for the run, not one per phase).
  const joined = ctx.usagePause?.current();
  ctx.recorder.record({ type: 'usage_limit', phaseId, stage: 'started', kind: limit.kind, source: limit.source, ...reset, until: joined?.untilMs ?? decision.untilMs });
  if (joined === undefined) await notify(ctx, phaseId, `debussy is waiting for a usage limit (${limit.kind}) to reset: phase ${phaseId} resumes at ${formatClock(decision.untilMs)}`);
  const sleeping = joined?.ended ?? sleepUnlessInterrupted(decision.delayMs, ctx.interrupt);
  if (joined === undefined) ctx.usagePause?.begin(decision.untilMs, sleeping);
  const waited = (await sleeping) && !ctx.interrupt.aborted;
  if (!waited) return { kind: 'interrupted' };
  const waitedMs = Date.now() - now;
  ctx.recorder.record({ type: 'usage_limit', phaseId, stage: 'ended', kind: limit.kind, source: limit.source, ...reset, waitedMs });
  if (joined === undefined) await notify(ctx, phaseId, `debussy resumes phase ${phaseId}: the usage limit (${limit.kind}) has reset`);
  return { kind: 'resumed', waitedMs };
}

function sleepUnlessInterrupted(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** The terminal (as a warning), the desktop and the webhook, as for a give-up but at normal priority. */
async function notify(ctx: PhaseContext, phaseId: string, title: string): Promise<void> {
  const notifiers: Notifier[] = [createTerminalNotifier((text) => ctx.reporter.notice('warning', text.trimEnd()))];
  if (ctx.config.notify_desktop) notifiers.push(createDesktopNotifier({ env: ctx.env }));
  if (ctx.config.notify_webhook) {
    notifiers.push(createWebhookNotifier({ url: ctx.config.notify_webhook, format: ctx.config.notify_webhook_format, timeoutMs: ctx.config.notify_webhook_timeout }));
  }
  const outcomes = await sendPersistentFailure(
    { title, runId: ctx.runId, phaseId, project: ctx.plan.name, failures: [], nextSteps: [], priority: 'default' },
    notifiers,
    { redact: ctx.recorder.redact },
  );
  for (const outcome of outcomes) {
    if (outcome.status === 'failed') ctx.recorder.record({ type: 'notice', level: 'warning', phaseId, message: `notification via ${outcome.notifier} failed: ${outcome.detail ?? 'unknown error'}` });
  }
}
