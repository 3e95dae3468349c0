/** The files of a plan for tests: a master plan whose table links one phase file per phase, each with its gates. */
export interface PhaseSpec {
  id: string;
  title: string;
  dependsOn?: string[];
  gates?: { name: string; command: string }[];
  body?: string;
  /** Tell the phase to write notes/NOTES_<id>.md (checked after it signals). */
  notes?: boolean;
}

export function planFiles(name: string, phases: PhaseSpec[]): Record<string, string> {
  const rows = phases.map((p) => `| ${p.id} | [${p.title}](phase-${p.id}.md) | Pending | ${p.dependsOn?.join(', ') ?? '-'} |`);
  const files: Record<string, string> = {
    'plans/e2e/MASTER_PLAN.md': `# ${name} - Master Plan\n\n| Phase | Title | Status | Depends On |\n|---|---|---|---|\n${rows.join('\n')}\n`,
  };
  for (const p of phases) {
    const gates = (p.gates ?? [{ name: 'check', command: 'true' }]).map((g) => `- ${g.name}: passes (command: \`${g.command}\`)`);
    files[`plans/e2e/phase-${p.id}.md`] = [
      `# Phase ${p.id}: ${p.title}`, '', '**Status:** Pending', '', '## Tasks', p.body ?? `- [ ] ${p.id}.1: do the work`, '',
      ...(p.notes ? [`- [ ] Write \`notes/NOTES_${p.id}.md\``, ''] : []), '## Gates', ...gates, '',
    ].join('\n');
  }
  return files;
}
