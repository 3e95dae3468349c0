/**
 * Crash-loop limit, per phase: more than `max_crashes` agent crashes within `crash_window` and
 * debussy stops restarting that phase automatically (and notifies). Crashes older than the window
 * are forgotten, so a phase that crashes now and then keeps going. Injected clock; plain snapshot.
 */
import type { Clock } from './circuit-breaker.js';

export interface CrashLoopConfig {
  max_crashes: number;
  /** ms */
  crash_window: number;
}

/** From the worker-crash-recovery design: 3 crashes in 10 minutes. */
export const DEFAULT_CRASH_LOOP_CONFIG: Readonly<CrashLoopConfig> = { max_crashes: 3, crash_window: 600_000 };

export interface CrashRecord {
  /** epoch ms */
  at: number;
  message: string;
}

export interface CrashLoopSnapshot {
  version: 1;
  /** Phase id to its recent crashes, oldest first. */
  phases: Record<string, CrashRecord[]>;
}

export interface CrashLoopStatus {
  phaseId: string;
  /** Crashes of this phase inside the window, oldest first. */
  crashes: CrashRecord[];
  crashesInWindow: number;
  /** True once crashesInWindow exceeds max_crashes: no more automatic restarts. */
  looping: boolean;
  maxCrashes: number;
  windowMs: number;
}

export function parseCrashLoopSnapshot(value: unknown): CrashLoopSnapshot | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (v.version !== 1 || typeof v.phases !== 'object' || v.phases === null || Array.isArray(v.phases)) return undefined;
  const phases: Record<string, CrashRecord[]> = {};
  for (const [phaseId, list] of Object.entries(v.phases as Record<string, unknown>)) {
    if (!Array.isArray(list)) return undefined;
    const records: CrashRecord[] = [];
    for (const item of list as unknown[]) {
      if (typeof item !== 'object' || item === null) return undefined;
      const { at, message } = item as Record<string, unknown>;
      if (typeof at !== 'number' || !Number.isFinite(at) || typeof message !== 'string') return undefined;
      records.push({ at, message });
    }
    phases[phaseId] = records;
  }
  return { version: 1, phases };
}

export class CrashLoopGuard {
  readonly config: Readonly<CrashLoopConfig>;
  private readonly clock: Clock;
  private phases = new Map<string, CrashRecord[]>();

  constructor(config: Partial<CrashLoopConfig> = {}, clock: Clock = Date.now, snapshot?: CrashLoopSnapshot) {
    this.config = { ...DEFAULT_CRASH_LOOP_CONFIG, ...config };
    this.clock = clock;
    for (const [phaseId, records] of Object.entries(snapshot?.phases ?? {})) this.phases.set(phaseId, records.map((r) => ({ ...r })));
  }

  /** Rebuilds a guard from a journaled snapshot; a malformed one starts empty. */
  static fromSnapshot(value: unknown, config: Partial<CrashLoopConfig> = {}, clock: Clock = Date.now): CrashLoopGuard {
    return new CrashLoopGuard(config, clock, parseCrashLoopSnapshot(value));
  }

  private recent(phaseId: string, now: number): CrashRecord[] {
    const since = now - this.config.crash_window;
    return (this.phases.get(phaseId) ?? []).filter((r) => r.at > since && r.at <= now);
  }

  /** Records an agent crash of `phaseId` and says whether the phase is now crash-looping. */
  recordCrash(phaseId: string, message: string): CrashLoopStatus {
    const now = this.clock();
    this.phases.set(phaseId, [...this.recent(phaseId, now), { at: now, message }]);
    return this.status(phaseId);
  }

  status(phaseId: string): CrashLoopStatus {
    const crashes = this.recent(phaseId, this.clock());
    return {
      phaseId,
      crashes,
      crashesInWindow: crashes.length,
      looping: crashes.length > this.config.max_crashes,
      maxCrashes: this.config.max_crashes,
      windowMs: this.config.crash_window,
    };
  }

  /** Forgets a phase's crashes (e.g. when the user resumes it by hand after fixing the cause). */
  clear(phaseId: string): void {
    this.phases.delete(phaseId);
  }

  toJSON(): CrashLoopSnapshot {
    const now = this.clock();
    const phases: Record<string, CrashRecord[]> = {};
    for (const phaseId of this.phases.keys()) {
      const recent = this.recent(phaseId, now);
      if (recent.length > 0) phases[phaseId] = recent;
    }
    return { version: 1, phases };
  }
}
