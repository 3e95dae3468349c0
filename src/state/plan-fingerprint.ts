/**
 * A plan fingerprint (plan/fingerprint.ts) read back from a journal line: untrusted, so narrowed
 * field by field. Here, not in plan/, so reading a journal never loads the plan parser.
 */
import type { GateFingerprint, PhaseFingerprint, PlanFingerprint } from '../plan/fingerprint.js';

const isString = (value: unknown): value is string => typeof value === 'string';

/** A fingerprint read back from a journal (untrusted); undefined when it does not have the shape. */
export function asPlanFingerprint(value: unknown): PlanFingerprint | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { masterHash, phases } = value as { masterHash?: unknown; phases?: unknown };
  if (!isString(masterHash) || !Array.isArray(phases)) return undefined;
  const read: PhaseFingerprint[] = [];
  for (const entry of phases as unknown[]) {
    if (typeof entry !== 'object' || entry === null) return undefined;
    const p = entry as Record<string, unknown>;
    if (!isString(p.id) || !isString(p.title) || !isString(p.file) || !(isString(p.fileHash) || p.fileHash === null)) return undefined;
    if (!Array.isArray(p.gates) || !Array.isArray(p.dependsOn)) return undefined;
    const gates = (p.gates as unknown[])
      .filter((g): g is GateFingerprint => typeof g === 'object' && g !== null && isString((g as GateFingerprint).name) && isString((g as GateFingerprint).command))
      .map((g) => ({ name: g.name, command: g.command, ...(isString(g.commandHash) ? { commandHash: g.commandHash } : {}) }));
    read.push({ id: p.id, title: p.title, file: p.file, fileHash: p.fileHash, gates, dependsOn: (p.dependsOn as unknown[]).filter(isString) });
  }
  return { masterHash, phases: read };
}
