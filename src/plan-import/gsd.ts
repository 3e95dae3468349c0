/**
 * GSD's .planning/ folder: ROADMAP.md's phases, each with its PLAN.md files as tasks; `Depends on`
 * (and a plan's `depends_on` naming another phase's plan) its dependencies; each task's
 * `<verify><automated>` command a gate; a phase ticked in the roadmap, or all of whose plans are
 * ticked (or have their SUMMARY.md), complete. Pure: the files' texts in, an ImportedPlan out.
 */
import { checkCommandsIn } from './check-commands.js';
import { parseGsdPlanFile, type GsdPlanFile, type GsdTask } from './gsd-plan-file.js';
import { gsdDependencies, normalizeGsdId, parseRoadmap, type RoadmapPhase } from './gsd-roadmap.js';
import { ImportError, slugName, type ImportedGate, type ImportedPhase, type ImportedPlan, type ImportedTask } from './imported-plan.js';

export interface GsdSource {
  roadmap: string;
  /** Every file under .planning/phases/, relative to .planning (`phases/01-setup/01-01-PLAN.md`), with the text of the plan files. */
  files: { path: string; text?: string }[];
}

interface PlanEntry {
  /** As written: `01-02`. */
  id: string;
  /** Matching key: `1-2`. */
  key: string;
  phase: string;
  path: string | undefined;
  file: GsdPlanFile | undefined;
  description: string;
  done: boolean;
}

const PLAN_FILE = /(?:^|\/)(?:[^/]*-)?PLAN(?:-[^/]*)?\.md$/i;
const LEADING_ID = /^(\d+(?:\.\d+)*)/;

function planKey(id: string): string {
  const [phase = '', plan = ''] = id.split(/-(?=\d+$)/);
  return `${normalizeGsdId(phase)}-${normalizeGsdId(plan)}`;
}

/** The plan files with their phase and id, from the frontmatter or, failing that, the folder and file names. */
function planFilesOf(source: GsdSource): PlanEntry[] {
  const fileNames = new Set(source.files.map((file) => file.path));
  return source.files
    .filter((file) => PLAN_FILE.test(file.path) && !/-OUTLINE\.md$/i.test(file.path) && file.text !== undefined)
    .map((file) => {
      const parsed = parseGsdPlanFile(file.text ?? '');
      const segments = file.path.split('/');
      const name = segments[segments.length - 1] ?? '';
      const folder = segments[segments.length - 2] ?? '';
      const phaseWritten = LEADING_ID.exec(parsed.phase ?? '')?.[1] ?? LEADING_ID.exec(folder)?.[1] ?? LEADING_ID.exec(name)?.[1] ?? '';
      const id = /^(\d+(?:\.\d+)*-\d+)/.exec(name)?.[1] ?? (parsed.plan === undefined ? name.replace(/\.md$/i, '') : `${phaseWritten}-${parsed.plan}`);
      const summary = file.path.replace(/PLAN(?=[^/]*\.md$)/i, 'SUMMARY');
      return {
        id, key: planKey(id), phase: normalizeGsdId(phaseWritten), path: file.path, file: parsed,
        description: parsed.objective?.split('\n')[0]?.trim() ?? '', done: summary !== file.path && fileNames.has(summary),
      };
    });
}

export function readGsd(source: GsdSource, options: { projectName: string }): ImportedPlan {
  const roadmap = parseRoadmap(source.roadmap);
  if (roadmap.phases.length === 0) {
    throw new ImportError('this ROADMAP.md has no phases (no "### Phase 1: Name" headings)', 'Point `debussy plan import` at the .planning/ROADMAP.md GSD writes, with its phase sections.');
  }
  const seen = new Set<string>();
  for (const phase of roadmap.phases) {
    if (seen.has(phase.id)) throw new ImportError(`phase ${phase.writtenId} appears twice in this ROADMAP.md`, 'Give each phase its own number, then import again.');
    seen.add(phase.id);
  }
  const files = planFilesOf(source);
  const notices: string[] = [];
  const order = roadmap.phases.map((phase) => phase.id);
  const phases = roadmap.phases.map((phase, index): ImportedPhase => {
    const plans = plansOf(phase, files);
    const deps = gsdDependencies(phase.dependsOn, order.slice(0, index));
    if (deps.unclear) notices.push(`phase ${phase.writtenId}: "Depends on: ${phase.dependsOn ?? ''}" names no phase; it is imported without dependencies`);
    const crossPhase = plans.flatMap((plan) => (plan.file?.dependsOn ?? []).map((dep) => /^(\d+(?:\.\d+)*)-\d+/.exec(dep)?.[1]).filter((dep): dep is string => dep !== undefined).map(normalizeGsdId));
    const done = plans.filter((plan) => plan.done).length;
    const status = phase.checked || (plans.length > 0 && done === plans.length) ? 'completed' : done > 0 ? 'in_progress' : 'pending';
    const gates = plans.flatMap((plan) => gatesOfPlan(plan, notices));
    return {
      sourceId: phase.id,
      sourceLabel: `phase ${phase.writtenId}`,
      title: phase.name,
      status,
      statusText: phase.checked ? 'ticked in the roadmap' : `${done} of ${plans.length} plans done`,
      dependsOn: [...new Set([...deps.ids, ...crossPhase.filter((dep) => dep !== phase.id)])],
      overview: phase.goal,
      tasks: plans.map((plan) => taskOfPlan(plan)),
      gates: uniqueCommands(gates),
      sections: [
        { heading: 'Success criteria', body: phase.successCriteria.map((line, position) => `${position + 1}. ${line}`).join('\n') },
        { heading: 'Requirements', body: phase.requirements ?? '' },
      ].filter((section) => section.body !== ''),
    };
  });
  const silent = roadmap.phases.filter((phase, index) => index > 0 && phase.dependsOn === undefined).map((phase) => phase.writtenId);
  if (silent.length > 0) notices.push(`phase ${silent.join(', ')}: no "**Depends on**:" line, so imported without dependencies (they run in roadmap order)`);
  const title = roadmap.title ?? options.projectName;
  return { format: 'gsd', title, suggestedName: slugName(title) || 'gsd', description: roadmap.overview, sourceDetail: undefined, phases, notices };
}

/** The roadmap's plans of a phase, with their files; plan files the roadmap does not list come after. */
function plansOf(phase: RoadmapPhase, files: PlanEntry[]): PlanEntry[] {
  const own = files.filter((file) => file.phase === phase.id);
  const listed = phase.plans.map((plan): PlanEntry => {
    const file = own.find((candidate) => candidate.key === planKey(plan.id));
    return {
      id: plan.id, key: planKey(plan.id), phase: phase.id, path: file?.path, file: file?.file,
      description: plan.description || file?.description || '', done: plan.checked || file?.done === true,
    };
  });
  const keys = new Set(listed.map((plan) => plan.key));
  return [...listed, ...own.filter((file) => !keys.has(file.key)).sort((a, b) => a.key.localeCompare(b.key, 'en', { numeric: true }))];
}

function taskOfPlan(plan: PlanEntry): ImportedTask {
  const notes = [
    ...(plan.path === undefined ? [] : [`Plan: \`.planning/${plan.path}\``]),
    ...(plan.file?.tasks ?? []).map((task, index) => {
      const files = task.files === undefined ? '' : ` (files: ${task.files})`;
      const checkpoint = isCheckpoint(task) ? ' (a checkpoint for a person: debussy runs unattended and cannot pause for it)' : '';
      return `Task ${index + 1}: ${task.name.replace(/^task\s+\d+\s*:\s*/i, '')}${files}${checkpoint}`;
    }),
  ];
  return { text: `${plan.id}: ${plan.description || `plan ${plan.id}`}`, done: plan.done, notes };
}

function isCheckpoint(task: GsdTask): boolean {
  return task.type.toLowerCase().startsWith('checkpoint');
}

/** A task's gate: its `<automated>` command as written, else a command quoted in `<verify>`, else a gate without one. */
function gatesOfPlan(plan: PlanEntry, notices: string[]): ImportedGate[] {
  const gates: ImportedGate[] = [];
  (plan.file?.tasks ?? []).forEach((task, index) => {
    if (isCheckpoint(task)) return;
    const name = `plan ${plan.id} task ${index + 1}`;
    if (task.automated !== undefined && task.automated !== '') {
      const command = shellCommand(task.automated);
      if (command !== undefined) {
        gates.push({ name, command, description: task.name });
        return;
      }
      if (!/^MISSING\b/i.test(task.automated)) notices.push(`${name}: its <automated> script spans lines that cannot be joined into one command; write it as one (or as a script file) in the phase file`);
      gates.push({ name, command: undefined, description: `${task.name}: <automated> ${oneLine(task.automated)}` });
      return;
    }
    const quoted = checkCommandsIn(task.verifyText);
    if (quoted.length > 0) gates.push(...quoted.map((command) => ({ name, command, description: task.name })));
    else if (task.verifyText !== '') gates.push({ name, command: undefined, description: `${task.name}: ${oneLine(task.verifyText)}` });
  });
  gates.push(...checkCommandsIn(plan.file?.verification ?? '').map((command) => ({ name: `plan ${plan.id} verification`, command, description: 'from the plan\'s <verification>' })));
  return gates;
}

/**
 * An `<automated>` block as one shell command: continuation lines joined, several plain commands
 * joined with `&&` (so each must pass, as in a gate's fenced block). Undefined for `MISSING...`
 * or a script with control flow, which joining would break.
 */
export function shellCommand(text: string): string | undefined {
  if (/^MISSING\b/i.test(text.trim())) return undefined;
  const lines = text.replace(/\s*\\\r?\n\s*/g, ' ').split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('#'));
  if (lines.length <= 1) return lines[0];
  const controlFlow = /^(?:if|then|else|elif|fi|for|while|until|do|done|case|esac|function)\b|^[{}()]|(?:\||&&|\|\||\bthen|\bdo|\{)$/;
  return lines.some((line) => controlFlow.test(line)) ? undefined : lines.join(' && ');
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 160 ? `${flat.slice(0, 157)}...` : flat;
}

/** A command run by several tasks is one gate (the first task's name). */
function uniqueCommands(gates: ImportedGate[]): ImportedGate[] {
  const seen = new Set<string>();
  return gates.filter((gate) => {
    if (gate.command === undefined) return true;
    if (seen.has(gate.command)) return false;
    seen.add(gate.command);
    return true;
  });
}
