/**
 * Everything the user sees goes through reporters: the orchestrator reports, it never prints.
 * Each hook is optional; built-ins live beside this file.
 */
import type { AgentEvent } from '../agent/index.js';
import type { ContextSnapshot } from '../context/index.js';
import type { Phase, Plan } from '../plan/types.js';
import type { JournalEvent, RunState } from '../state/index.js';

export interface RunStartInfo {
  runId: string;
  plan: Plan;
  /** Phases this run will execute, in order. */
  phases: Phase[];
  /** Phases skipped as already complete, with why. */
  alreadyComplete: { id: string; why: string }[];
  maxRestarts: number;
  contextThreshold: number;
  resumedFrom: string | undefined;
}

export interface Reporter {
  runStarted?(info: RunStartInfo): void;
  /** Every journal event, as it is written. */
  journal?(event: JournalEvent): void;
  /** Live agent activity with the context figures after the event. */
  agent?(phaseId: string, event: AgentEvent, context: ContextSnapshot): void;
  /** A line for the user that is not an event (a notice, a wait). */
  notice?(level: 'info' | 'warning' | 'error', message: string): void;
  runFinished?(state: RunState, resumeCommand: string | undefined): void;
  close?(): void;
}

/** Fans out to several reporters; a throwing reporter never breaks the run. */
export function combineReporters(reporters: Reporter[]): Required<Reporter> {
  const each = <K extends keyof Reporter>(hook: K) =>
    ((...args: unknown[]) => {
      for (const reporter of reporters) {
        const fn = reporter[hook] as ((...a: unknown[]) => void) | undefined;
        try {
          fn?.apply(reporter, args);
        } catch {
          // A display problem must never stop an agent run.
        }
      }
    }) as Required<Reporter>[K];
  return {
    runStarted: each('runStarted'),
    journal: each('journal'),
    agent: each('agent'),
    notice: each('notice'),
    runFinished: each('runFinished'),
    close: each('close'),
  };
}
