/**
 * spec-kit's specs/NNN-feature/tasks.md: each `## Phase N: Title` a phase, its `- [ ] T001 [P] ...`
 * lines its tasks (a phase all of whose tasks are ticked is complete), the "Phase Dependencies"
 * bullets its Depends On (speckit-dependencies.ts). Gates: check commands quoted in tasks that run
 * or verify something ("Run `npm test`"), or in the phase's **Independent Test**; an Independent
 * Test in prose only is a gate without a command. Pure.
 */
import { scanMarkdown, type MarkdownLine } from '../plan/markdown.js';
import { checkCommandsIn, gateNameFor } from './check-commands.js';
import { ImportError, slugName, type ImportedGate, type ImportedPhase, type ImportedPlan, type ImportedTask } from './imported-plan.js';
import { readPhaseDependencies, type SpeckitPhaseRef } from './speckit-dependencies.js';

const PHASE_HEADING = /^Phase\s+([\w.]+)\s*:\s*(.+)$/i;
const TASK = /^\s*[-*]\s+\[([ xX])\]\s+(T\d+)\b\s*(.*)$/;
const FIELD = /^\s*\*\*([^*]+?)\*\*\s*:?\s*(.*)$/;
// "T022 Run `npm run build` — must compile", "Verify `pytest` passes": tasks that check.
const CHECKING_TASK = /^(?:\[[^\]]*\]\s*)*(?:run|verify|check|ensure|confirm|validate)\b/i;

interface PhaseDraft extends SpeckitPhaseRef {
  writtenTitle: string;
  fields: Map<string, string>;
  tasks: { id: string; text: string; done: boolean }[];
}

export function readSpeckit(text: string, options: { featureName: string }): ImportedPlan {
  const lines = scanMarkdown(text);
  const drafts = phaseDrafts(lines);
  if (drafts.length === 0) {
    throw new ImportError('this tasks.md has no phases (no "## Phase 1: Setup" headings)', 'Point `debussy plan import` at the tasks.md spec-kit writes (specs/NNN-feature/tasks.md).');
  }
  const seen = new Set<string>();
  for (const draft of drafts) {
    if (seen.has(draft.id)) throw new ImportError(`phase ${draft.id} appears twice in this tasks.md`, 'Give each phase its own number, then import again.');
    seen.add(draft.id);
  }
  const dependencies = readPhaseDependencies(lines, drafts);
  const phases = drafts.map((draft): ImportedPhase => {
    const done = draft.tasks.filter((task) => task.done).length;
    const status = draft.tasks.length > 0 && done === draft.tasks.length ? 'completed' : done > 0 ? 'in_progress' : 'pending';
    const overview = [draft.fields.get('purpose'), draft.fields.get('goal')].filter((line): line is string => line !== undefined && line !== '').join('\n\n');
    const checkpoint = draft.fields.get('checkpoint');
    return {
      sourceId: draft.id,
      sourceLabel: `Phase ${draft.id}`,
      title: draft.title,
      status,
      statusText: `${done} of ${draft.tasks.length} tasks ticked`,
      dependsOn: dependencies.byPhase.get(draft.id) ?? [],
      overview: overview === '' ? undefined : overview,
      tasks: draft.tasks.map((task): ImportedTask => ({ text: `${task.id} ${task.text}`, done: task.done, notes: [] })),
      gates: gatesOf(draft),
      sections: [
        { heading: 'Independent test', body: draft.fields.get('independent test') ?? '' },
        { heading: 'Checkpoint', body: checkpoint ?? '' },
      ].filter((section) => section.body !== ''),
    };
  });
  const h1 = lines.find((line) => line.heading?.level === 1)?.heading?.text ?? '';
  const title = h1.replace(/^tasks\s*[:\-–—]?\s*/i, '').trim() || options.featureName;
  return {
    format: 'speckit',
    title,
    suggestedName: slugName(options.featureName) || slugName(title) || 'speckit',
    description: undefined,
    sourceDetail: undefined,
    phases,
    notices: dependencies.notices,
  };
}

function phaseDrafts(lines: MarkdownLine[]): PhaseDraft[] {
  const drafts: (PhaseDraft & { level: number })[] = [];
  let current: (PhaseDraft & { level: number }) | undefined;
  for (const line of lines) {
    if (line.inFence) continue;
    const heading = line.heading;
    if (heading !== undefined) {
      const phase = PHASE_HEADING.exec(heading.text.replace(/\*\*/g, '').trim());
      if (current !== undefined && (phase !== null || heading.level <= current.level)) {
        drafts.push(current);
        current = undefined;
      }
      if (phase !== null && heading.level >= 2) {
        const writtenTitle = (phase[2] ?? '').trim();
        current = { id: phase[1] ?? '', title: cleanTitle(writtenTitle), writtenTitle, taskIds: [], fields: new Map(), tasks: [], level: heading.level };
      }
      continue;
    }
    if (current === undefined) continue;
    const task = TASK.exec(line.text);
    if (task !== null) {
      current.tasks.push({ id: task[2] ?? '', text: (task[3] ?? '').trim(), done: task[1] !== ' ' });
      current.taskIds.push(task[2] ?? '');
      continue;
    }
    const field = FIELD.exec(line.text);
    if (field !== null) current.fields.set((field[1] ?? '').replace(/:$/, '').trim().toLowerCase(), (field[2] ?? '').trim());
  }
  if (current !== undefined) drafts.push(current);
  return drafts.map(({ level: _level, ...draft }) => draft);
}

/** `User Story 1 - Word counts (Priority: P1) 🎯 MVP` -> `User Story 1 - Word counts`: the priority and the badge go. */
function cleanTitle(text: string): string {
  return text.replace(/\(Priority:[^)]*\)/i, '').replace(/\s*\p{Extended_Pictographic}.*$/u, '').replace(/[^\p{L}\p{N})\]]+$/u, '').replace(/\s+/g, ' ').trim();
}

function gatesOf(draft: PhaseDraft): ImportedGate[] {
  const gates: ImportedGate[] = [];
  for (const task of draft.tasks) {
    if (!CHECKING_TASK.test(task.text)) continue;
    for (const command of checkCommandsIn(task.text)) gates.push({ name: gateNameFor(command), command, description: `task ${task.id}` });
  }
  const independent = draft.fields.get('independent test');
  if (independent !== undefined && independent !== '') {
    const commands = checkCommandsIn(independent);
    gates.push(...commands.map((command) => ({ name: gateNameFor(command), command, description: 'the phase\'s Independent Test' })));
    if (commands.length === 0 && gates.length === 0) {
      gates.push({ name: 'independent test', command: undefined, description: 'the "Independent test" below says it in words only' });
    }
  }
  const seen = new Set<string>();
  return gates.filter((gate) => gate.command === undefined || (!seen.has(gate.command) && seen.add(gate.command) !== undefined));
}
