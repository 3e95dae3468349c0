/**
 * Taskmaster's tasks.json, tagged (`{"master": {"tasks": [...]}}`) or in the older flat form
 * (`{"tasks": [...]}`): each task a phase, its subtasks the phase's tasks, `dependencies` its Depends
 * On, `details` and `testStrategy` its text, the commands quoted in `testStrategy` its gates.
 * Pure: the parsed JSON in, an ImportedPlan out.
 */
import { checkCommandsIn, gateNameFor } from './check-commands.js';
import { ImportError, isRecord, textField, textList, type ImportedGate, type ImportedPhase, type ImportedPlan, type ImportedStatus, type ImportedTask } from './imported-plan.js';

export interface TaskmasterOptions {
  /** The tag to import; default `master`, or the only tag. */
  tag?: string;
  /** The project's folder name, for the plan's title. */
  projectName: string;
}

type Status = { status: ImportedStatus; leftOut?: undefined } | { status: 'pending'; leftOut: string };

/** Taskmaster's statuses (pending, in-progress, review, done, blocked, deferred, cancelled) and their spellings in the wild. */
export function taskmasterStatus(text: string | undefined): Status | undefined {
  const word = (text ?? 'pending').trim().toLowerCase().replace(/[\s_]+/g, '-');
  if (['done', 'completed', 'complete'].includes(word)) return { status: 'completed' };
  if (['in-progress', 'review', 'in-review', 'active', 'doing'].includes(word)) return { status: 'in_progress' };
  if (word === 'blocked') return { status: 'blocked' };
  if (['cancelled', 'canceled'].includes(word)) return { status: 'pending', leftOut: 'cancelled' };
  if (word === 'deferred') return { status: 'pending', leftOut: 'deferred' };
  if (['pending', 'todo', 'to-do', 'open', 'not-started', ''].includes(word)) return { status: 'pending' };
  return undefined;
}

function tasksOf(value: unknown, options: TaskmasterOptions): { tasks: unknown[]; tag: string | undefined } {
  if (!isRecord(value)) throw new ImportError('this tasks.json is not a JSON object', 'Point `debussy plan import` at the tasks.json Taskmaster writes (.taskmaster/tasks/tasks.json).');
  if (Array.isArray(value.tasks)) {
    if (options.tag !== undefined && options.tag !== 'master') throw new ImportError(`this tasks.json has no tags (it is the older flat format), so it has no tag "${options.tag}"`, 'Leave out --tag.');
    return { tasks: value.tasks, tag: undefined };
  }
  const tags = Object.keys(value).filter((key) => isRecord(value[key]) && Array.isArray(value[key].tasks));
  const wanted = options.tag ?? (tags.includes('master') ? 'master' : tags.length === 1 ? tags[0] : undefined);
  if (wanted === undefined) throw new ImportError(`this tasks.json holds ${tags.length} tags (${tags.join(', ')}) and none is "master"`, 'Choose one with --tag NAME.');
  const tagged = value[wanted];
  if (!isRecord(tagged) || !Array.isArray(tagged.tasks)) {
    throw new ImportError(`this tasks.json has no tag "${wanted}" (its tags: ${tags.join(', ') || 'none'})`, 'Choose one of its tags with --tag NAME.');
  }
  return { tasks: tagged.tasks, tag: wanted };
}

export function readTaskmaster(value: unknown, options: TaskmasterOptions): ImportedPlan {
  const { tasks, tag } = tasksOf(value, options);
  const where = tag === undefined ? 'the file' : `tag ${tag}`;
  const notices: string[] = [];
  const ids = new Set<string>();
  const records = tasks.map((task, index) => {
    const id = isRecord(task) ? textField(task, 'id')?.trim() : undefined;
    if (!isRecord(task) || id === undefined || id === '') {
      throw new ImportError(`task ${index + 1} of ${where} has no id`, 'Give every task an "id" (Taskmaster numbers them 1, 2, 3...), or remove it, then import again.');
    }
    if (ids.has(id)) throw new ImportError(`task id ${id} is used twice in ${where}`, 'Give each task its own id (`task-master validate-dependencies` helps), then import again.');
    ids.add(id);
    return { id, task };
  });

  const phases = records.map(({ id, task }): ImportedPhase => {
    const statusText = textField(task, 'status') ?? 'pending';
    let status = taskmasterStatus(statusText);
    if (status === undefined) {
      notices.push(`task ${id}: unknown status "${statusText}", imported as pending`);
      status = { status: 'pending' };
    }
    const subtasks = Array.isArray(task.subtasks) ? task.subtasks.filter(isRecord) : [];
    const testStrategy = textField(task, 'testStrategy')?.trim();
    return {
      sourceId: id,
      sourceLabel: `task ${id}`,
      title: textField(task, 'title')?.trim() || textField(task, 'description')?.trim() || `Task ${id}`,
      status: status.status,
      statusText,
      dependsOn: textList(task.dependencies).map((dep) => taskOfDependency(dep.trim(), ids)),
      ...(status.leftOut === undefined ? {} : { leftOut: status.leftOut }),
      overview: textField(task, 'description')?.trim() || undefined,
      tasks: subtasks.map((subtask) => subtaskOf(id, subtask)),
      gates: gatesOf(testStrategy, subtasks),
      sections: [
        { heading: 'Details', body: textField(task, 'details')?.trim() ?? '' },
        { heading: 'Test strategy', body: testStrategy ?? '' },
        { heading: 'Acceptance criteria', body: textList(task.acceptanceCriteria).map((line) => `- ${line}`).join('\n') },
      ].filter((section) => section.body !== ''),
    };
  });

  return {
    format: 'taskmaster',
    title: tag === undefined || tag === 'master' ? `${options.projectName} tasks` : `${options.projectName} tasks (${tag})`,
    suggestedName: tag === undefined || tag === 'master' ? 'taskmaster' : `taskmaster-${tag}`,
    description: undefined,
    sourceDetail: tag === undefined ? 'flat format' : `tag ${tag}`,
    phases,
    notices,
  };
}

/** A dependency on subtask `5.2` is one on task 5: the phase holds its subtasks. */
function taskOfDependency(dep: string, ids: Set<string>): string {
  if (ids.has(dep)) return dep;
  const parent = /^([^.]+)\.[^.]+$/.exec(dep)?.[1];
  return parent !== undefined && ids.has(parent) ? parent : dep;
}

function subtaskOf(taskId: string, subtask: Record<string, unknown>): ImportedTask {
  const id = textField(subtask, 'id') ?? '?';
  const status = taskmasterStatus(textField(subtask, 'status'));
  const title = textField(subtask, 'title')?.trim() || textField(subtask, 'description')?.trim() || `Subtask ${id}`;
  // Sibling subtasks by number (`1`), or by full id (`3.1`).
  const after = textList(subtask.dependencies).map((dep) => (dep.includes('.') ? dep : `${taskId}.${dep}`));
  const notes = [
    textField(subtask, 'description')?.trim() === title ? '' : (textField(subtask, 'description')?.trim() ?? ''),
    after.length > 0 ? `After ${after.join(', ')}.` : '',
    textField(subtask, 'details')?.trim() ?? '',
  ].filter((note) => note !== '');
  return {
    text: `${id.includes('.') ? id : `${taskId}.${id}`}: ${title}`,
    done: status?.status === 'completed',
    ...(status?.leftOut === undefined ? {} : { dropped: status.leftOut }),
    notes,
  };
}

/**
 * The commands quoted in the test strategies (the task's, then its subtasks'), each a gate. When
 * there is a strategy but no command in it, one gate without a command says so: the audit then
 * asks for the command instead of debussy taking the agent's word.
 */
function gatesOf(testStrategy: string | undefined, subtasks: Record<string, unknown>[]): ImportedGate[] {
  const strategies = [testStrategy ?? '', ...subtasks.map((subtask) => textField(subtask, 'testStrategy') ?? '')].filter((text) => text.trim() !== '');
  const commands = [...new Set(strategies.flatMap((text) => checkCommandsIn(text)))];
  if (commands.length > 0) return commands.map((command) => ({ name: gateNameFor(command), command, description: 'named in the test strategy' }));
  if (strategies.length === 0) return [];
  return [{ name: 'test strategy', command: undefined, description: 'the "Test strategy" below says it in words only' }];
}
