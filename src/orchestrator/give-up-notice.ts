/**
 * The persistent-failure notification sent when debussy gives up on a phase or a run: the last
 * failures with their class and message, the recurring pattern if any, and what to do next. It
 * goes to the terminal always, the desktop where one is available, and the configured webhook.
 */
import { createDesktopNotifier, createTerminalNotifier, createWebhookNotifier, sendPersistentFailure, type Notifier } from '../notify/index.js';
import { mainRecurringPattern } from '../recovery/index.js';
import type { PhaseContext } from './phase-context.js';
import type { RunRecovery } from './run-recovery.js';

export async function notifyGiveUp(
  ctx: PhaseContext,
  recovery: RunRecovery,
  input: { phaseId: string; title: string; nextSteps: string[]; exitCode: number; wholeRun: boolean },
): Promise<void> {
  const notifiers: Notifier[] = [createTerminalNotifier((text) => ctx.reporter.notice('error', text.trimEnd()))];
  if (ctx.config.notify_desktop) notifiers.push(createDesktopNotifier({ env: ctx.env }));
  if (ctx.config.notify_webhook) {
    notifiers.push(createWebhookNotifier({ url: ctx.config.notify_webhook, format: ctx.config.notify_webhook_format, timeoutMs: ctx.config.notify_webhook_timeout }));
  }
  const pattern = mainRecurringPattern(recovery.failures);
  const outcomes = await sendPersistentFailure(
    {
      title: input.title,
      runId: ctx.runId,
      phaseId: input.phaseId,
      project: ctx.plan.name,
      failures: recovery.failures.filter((f) => f.phaseId === input.phaseId || input.wholeRun),
      ...(pattern ? { pattern } : {}),
      nextSteps: input.nextSteps,
      exitCode: input.exitCode,
      priority: input.wholeRun ? 'urgent' : 'high',
    },
    notifiers,
    { redact: ctx.recorder.redact },
  );
  for (const outcome of outcomes) {
    if (outcome.status === 'failed') ctx.recorder.record({ type: 'notice', level: 'warning', phaseId: input.phaseId, message: `notification via ${outcome.notifier} failed: ${outcome.detail ?? 'unknown error'}` });
  }
}
