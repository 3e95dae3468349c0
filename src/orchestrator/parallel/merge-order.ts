/**
 * The order completed phases merge into the run's branch, one at a time: in the order they
 * completed, ties in plan order. Dependency order follows: a phase starts only once its
 * dependencies are merged, so it cannot complete before them. Pure.
 */
export function nextToMerge(awaiting: readonly { id: string; completedSeq: number }[], planOrder: readonly string[]): string | undefined {
  const rank = (id: string) => {
    const at = planOrder.indexOf(id);
    return at === -1 ? Number.MAX_SAFE_INTEGER : at;
  };
  const sorted = [...awaiting].sort((a, b) => a.completedSeq - b.completedSeq || rank(a.id) - rank(b.id));
  return sorted[0]?.id;
}

export type MergeCheck =
  | { kind: 'clean' }
  | { kind: 'conflict'; files: string[] }
  /** The merged tree fails gates of phases merged so far. */
  | { kind: 'gates_broken'; gates: string[] };

export type MergeDecision =
  | { kind: 'commit' }
  /** The phase gets one remediation session in its worktree, on top of the merged work. */
  | { kind: 'remediate'; reason: string }
  /** Nothing guessed: the run stops, both branches kept. */
  | { kind: 'stop'; reason: string };

/** What to do with a merge's check: commit a clean one; a conflict or a broken gate gets one remediation, then stops the run. */
export function decideMerge(phaseId: string, check: MergeCheck, remediated: boolean): MergeDecision {
  if (check.kind === 'clean') return { kind: 'commit' };
  const what = check.kind === 'conflict'
    ? `merging phase ${phaseId} conflicts in ${check.files.join(', ')}`
    : `merging phase ${phaseId} breaks gate(s) ${check.gates.join(', ')} on the merged tree`;
  return remediated ? { kind: 'stop', reason: `${what}, again after a merge remediation` } : { kind: 'remediate', reason: what };
}
