/**
 * ralph's prd.json: each user story a phase, in `priority` order; `passes: true` complete; the
 * acceptance criteria its tasks; `verificationCommands` (of the file, or of a story) its gates.
 * Without commands, a criterion that says a check passes ("Typecheck passes", "Tests pass") is a
 * gate of that name without a command, for the user (or the config's `gates` map) to fill in.
 * Pure: the parsed JSON in, an ImportedPlan out.
 */
import { gateNameFor, looksLikeCheckCommand } from './check-commands.js';
import { ImportError, isRecord, slugName, textField, textList, type ImportedGate, type ImportedPhase, type ImportedPlan } from './imported-plan.js';

// "Typecheck passes", "Tests pass", "npm run lint passes", "Build succeeds", "All tests are green".
const PASSES = /^(?:all\s+)?(.+?)\s+(?:passes|pass|succeeds|succeed|is green|are green|exits 0|runs clean(?:ly)?)(?:\s*\(.*\))?[.!]?$/i;
const CHECK_WORDS: [RegExp, string][] = [
  [/^(?:typecheck(?:ing)?|type[\s-]?checks?|types|tsc)$/i, 'typecheck'],
  [/^(?:the\s+)?(?:unit\s+|all\s+)?tests?$/i, 'tests'],
  [/^(?:lint(?:ing)?|linter)$/i, 'lint'],
  [/^(?:the\s+)?build$/i, 'build'],
];

/** The gate a criterion asks for, if it is one: a check that passes, with its command when it names one. */
export function criterionGate(criterion: string): ImportedGate | undefined {
  const subject = PASSES.exec(criterion.trim())?.[1]?.replace(/`/g, '').trim();
  if (subject === undefined) return undefined;
  if (looksLikeCheckCommand(subject)) return { name: gateNameFor(subject), command: subject, description: `acceptance criterion "${criterion.trim()}"` };
  const named = CHECK_WORDS.find(([pattern]) => pattern.test(subject))?.[1];
  return named === undefined ? undefined : { name: named, command: undefined, description: `acceptance criterion "${criterion.trim()}" names no command` };
}

/** `verificationCommands` as strings, or objects with a `command` (and maybe a `name`). */
function verificationGates(value: unknown, what: string): ImportedGate[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item): ImportedGate[] => {
    const command = typeof item === 'string' ? item : isRecord(item) ? textField(item, 'command') : undefined;
    if (command === undefined || command.trim() === '') return [];
    const name = isRecord(item) ? textField(item, 'name')?.trim() : undefined;
    return [{ name: name || gateNameFor(command), command: command.trim(), description: `from the ${what}'s verificationCommands` }];
  });
}

/**
 * Acceptance criteria as strings (ralph's own), or as objects with a `text` and a `testCommand`
 * (forks that test each criterion): the command is the criterion's gate, as written.
 */
function criteriaOf(value: unknown, storyPasses: boolean): { text: string; done: boolean; gate?: ImportedGate }[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item, index) => {
    if (typeof item === 'string') return item.trim() === '' ? [] : [{ text: item.trim(), done: storyPasses }];
    if (!isRecord(item)) return [];
    const text = (textField(item, 'text') ?? textField(item, 'description') ?? textField(item, 'criterion') ?? '').trim();
    const command = (textField(item, 'testCommand') ?? textField(item, 'command') ?? '').trim();
    if (text === '' && command === '') return [];
    const name = textField(item, 'id')?.trim() || `criterion ${index + 1}`;
    return [{
      text: text || command,
      done: storyPasses || item.passes === true,
      ...(command === '' ? {} : { gate: { name, command, description: text || 'from the criterion\'s testCommand' } }),
    }];
  });
}

export function readRalph(value: unknown, options: { projectName: string }): ImportedPlan {
  if (!isRecord(value) || !Array.isArray(value.userStories)) {
    throw new ImportError('this prd.json has no "userStories" list', 'Point `debussy plan import` at the prd.json ralph reads (see ralph\'s prd.json.example).');
  }
  const planGates = verificationGates(value.verificationCommands, 'file');
  const seen = new Set<string>();
  const stories = value.userStories.map((story, index) => {
    const id = isRecord(story) ? textField(story, 'id')?.trim() : undefined;
    if (!isRecord(story) || id === undefined || id === '') {
      throw new ImportError(`user story ${index + 1} of this prd.json has no id`, 'Give every story an "id" (ralph uses US-001, US-002...), then import again.');
    }
    if (seen.has(id)) throw new ImportError(`user story id ${id} is used twice in this prd.json`, 'Give each story its own id, then import again.');
    seen.add(id);
    const priority = typeof story.priority === 'number' && Number.isFinite(story.priority) ? story.priority : Number.POSITIVE_INFINITY;
    return { id, story, index, priority };
  });
  // ralph works on the story with the lowest priority number first; equal ones in file order.
  stories.sort((a, b) => a.priority - b.priority || a.index - b.index);

  const phases = stories.map(({ id, story }): ImportedPhase => {
    const passes = story.passes === true || story.passes === 'true';
    const criteria = criteriaOf(story.acceptanceCriteria, passes);
    const storyGates = verificationGates(story.verificationCommands, 'story');
    const explicit = [...planGates, ...storyGates, ...criteria.flatMap((criterion) => criterion.gate ?? [])];
    const gates = explicit.length > 0 ? explicit : criteria.flatMap((criterion) => criterionGate(criterion.text) ?? []);
    const notes = textField(story, 'notes')?.trim() ?? '';
    return {
      sourceId: id,
      sourceLabel: `story ${id}`,
      title: textField(story, 'title')?.trim() || `Story ${id}`,
      status: passes ? 'completed' : story.blocked === true ? 'blocked' : 'pending',
      statusText: `passes: ${passes ? 'true' : 'false'}`,
      dependsOn: textList(story.dependencies ?? story.dependsOn).map((dep) => dep.trim()),
      overview: textField(story, 'description')?.trim() || undefined,
      tasks: criteria.map((criterion) => ({ text: criterion.text, done: criterion.done, notes: [] })),
      gates,
      sections: notes === '' ? [] : [{ heading: 'Notes', body: notes }],
    };
  });

  const project = textField(value, 'project')?.trim() || options.projectName;
  const branch = textField(value, 'branchName')?.trim();
  return {
    format: 'ralph',
    title: project,
    suggestedName: slugName(branch?.replace(/^.*\//, '') ?? '') || slugName(project) || 'ralph',
    description: textField(value, 'description')?.trim() || undefined,
    sourceDetail: branch === undefined || branch === '' ? undefined : `branch ${branch}`,
    phases,
    // ralph checks the branch out itself; debussy commits to whichever branch is checked out.
    notices: branch === undefined || branch === '' ? [] : [`prd.json names the branch ${branch}: debussy commits to the branch checked out when it runs, so check that one out first`],
  };
}
