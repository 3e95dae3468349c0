/**
 * What changed between two fingerprints of a plan (fingerprint.ts): phases added, removed,
 * renumbered, renamed; a gate or a dependency changed; a phase file edited. Pure.
 *
 * Phases are matched by id. A phase that vanished under one id and appeared under another with
 * the same phase-file content is one phase renumbered, not one removed and one added.
 */
import type { GateFingerprint, PhaseFingerprint, PlanFingerprint } from './fingerprint.js';

export type PlanChange =
  | { kind: 'added'; id: string; title: string }
  | { kind: 'removed'; id: string; title: string }
  | { kind: 'renumbered'; from: string; id: string; title: string }
  | { kind: 'renamed'; id: string; from: string; to: string }
  | { kind: 'gates_changed'; id: string; added: GateFingerprint[]; removed: GateFingerprint[]; changed: { name: string; from: string; to: string }[] }
  | { kind: 'dependencies_changed'; id: string; from: string[]; to: string[] }
  /** The phase file's text changed (beyond its status line and checkboxes) in a way no other change names. */
  | { kind: 'file_changed'; id: string; file: string }
  | { kind: 'master_changed' };

export type PlanChangeKind = PlanChange['kind'];

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && [...a].sort().every((value, index) => value === [...b].sort()[index]);
}

const REDACTION = /\[REDACTED(?::[A-Za-z0-9_]+)?\]/;

/**
 * A recorded command without a hash (an older journal) holds the command as it was shown, with
 * its secrets redacted: it is the same command when the command now reads the same where the two
 * can be compared, each redaction standing for any text.
 */
function sameAsShown(shown: string, command: string): boolean {
  if (shown === command) return true;
  if (!REDACTION.test(shown)) return false;
  const parts = shown.split(REDACTION).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('[\\s\\S]*?')}$`).test(command);
}

/** The same gate command before and after: by the hashes of what the plans said, else as sameAsShown. */
function sameCommand(before: GateFingerprint, after: GateFingerprint): boolean {
  if (before.commandHash !== undefined && after.commandHash !== undefined) return before.commandHash === after.commandHash;
  return sameAsShown(before.command, after.command);
}

function gateChanges(id: string, before: GateFingerprint[], after: GateFingerprint[]): PlanChange | undefined {
  const byName = (gates: GateFingerprint[]) => new Map(gates.map((gate) => [gate.name, gate]));
  const old = byName(before);
  const now = byName(after);
  const added = after.filter((gate) => !old.has(gate.name));
  const removed = before.filter((gate) => !now.has(gate.name));
  const changed = after.flatMap((gate) => {
    const from = old.get(gate.name);
    return from !== undefined && !sameCommand(from, gate) ? [{ name: gate.name, from: from.command, to: gate.command }] : [];
  });
  return added.length + removed.length + changed.length === 0 ? undefined : { kind: 'gates_changed', id, added, removed, changed };
}

/** The changes of one phase present in both fingerprints (under `id` now). */
function phaseChanges(id: string, before: PhaseFingerprint, after: PhaseFingerprint): PlanChange[] {
  const changes: PlanChange[] = [];
  if (before.title !== after.title) changes.push({ kind: 'renamed', id, from: before.title, to: after.title });
  const gates = gateChanges(id, before.gates, after.gates);
  if (gates) changes.push(gates);
  if (!sameList(before.dependsOn, after.dependsOn)) changes.push({ kind: 'dependencies_changed', id, from: before.dependsOn, to: after.dependsOn });
  // A changed gate or dependency line changes the file too; say "edited" only when nothing else explains it.
  if (before.fileHash !== after.fileHash && gates === undefined && sameList(before.dependsOn, after.dependsOn)) {
    changes.push({ kind: 'file_changed', id, file: after.file });
  }
  return changes;
}

export function diffPlans(before: PlanFingerprint, after: PlanFingerprint): PlanChange[] {
  const oldById = new Map(before.phases.map((phase) => [phase.id, phase]));
  const newIds = new Set(after.phases.map((phase) => phase.id));
  const gone = before.phases.filter((phase) => !newIds.has(phase.id));
  const changes: PlanChange[] = [];
  for (const phase of after.phases) {
    const old = oldById.get(phase.id);
    if (old) {
      changes.push(...phaseChanges(phase.id, old, phase));
      continue;
    }
    const moved = phase.fileHash === null ? -1 : gone.findIndex((candidate) => candidate.fileHash === phase.fileHash);
    const from = gone[moved];
    if (from) {
      gone.splice(moved, 1);
      changes.push({ kind: 'renumbered', from: from.id, id: phase.id, title: phase.title });
      changes.push(...phaseChanges(phase.id, from, phase).filter((change) => change.kind !== 'file_changed'));
      continue;
    }
    changes.push({ kind: 'added', id: phase.id, title: phase.title });
  }
  for (const phase of gone) changes.push({ kind: 'removed', id: phase.id, title: phase.title });
  const structural = changes.some((change) => change.kind === 'added' || change.kind === 'removed' || change.kind === 'renumbered' || change.kind === 'renamed' || change.kind === 'dependencies_changed');
  // The master table's rows are the phases: a change there is already named. Other edits of the master plan are said once.
  if (before.masterHash !== after.masterHash && !structural) changes.push({ kind: 'master_changed' });
  return changes;
}

const code = (text: string) => (text === '' ? '(no command)' : `\`${text}\``);
const ids = (list: readonly string[]) => (list.length === 0 ? 'none' : list.join(', '));

/** One line per change, for the run's start, the journal and `debussy status`. */
export function describePlanChange(change: PlanChange): string {
  switch (change.kind) {
    case 'added':
      return `phase ${change.id} added (${change.title})`;
    case 'removed':
      return `phase ${change.id} removed (${change.title}): its record is kept, it is not run`;
    case 'renumbered':
      return `phase ${change.from} is now phase ${change.id} (${change.title}; same phase file content)`;
    case 'renamed':
      return `phase ${change.id} renamed: "${change.from}" -> "${change.to}"`;
    case 'gates_changed': {
      const parts = [
        ...change.changed.map((gate) => `gate ${gate.name} changed: ${code(gate.from)} -> ${code(gate.to)}`),
        ...change.added.map((gate) => `gate ${gate.name} added: ${code(gate.command)}`),
        ...change.removed.map((gate) => `gate ${gate.name} removed`),
      ];
      return `phase ${change.id}: ${parts.join('; ')}`;
    }
    case 'dependencies_changed':
      return `phase ${change.id}: dependencies changed: ${ids(change.from)} -> ${ids(change.to)}`;
    case 'file_changed':
      return `phase ${change.id}: phase file ${change.file} edited`;
    case 'master_changed':
      return 'the master plan was edited (outside its phase rows)';
  }
}
