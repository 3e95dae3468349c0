/** Commands for getting started and reading results: init, plan new, plan import, logs. */
import { Option, type Command } from 'commander';
import { docFile } from '../install/package-files.js';
import { DEFAULT_PLAN_TEMPLATE, PLAN_TEMPLATE_NAMES } from '../scaffold/plan-template-names.js';
import { examples } from './help-examples.js';
import { lazy } from './lazy-command.js';

export function registerGettingStartedCommands(program: Command): void {
  program
    .command('init')
    .description('Set up a project: a commented .debussy/config.yaml, the /debussy-done and /debussy-progress slash commands for Claude Code, and .gitignore entries for run data.')
    .argument('[dir]', 'the project folder (default: the git top level, else the current folder)')
    .option('--force', 'overwrite files that already exist')
    .option('--json', `print what was written as one JSON object (${docFile('output.md')})`)
    .addHelpText('after', examples([
      ['debussy init', 'set up the project you are in'],
      ['debussy init ../billing-service', 'set up another project'],
      ['debussy init --force', 'rewrite the files with fresh copies'],
    ]))
    .action(lazy(() => import('./commands/init.js')));

  const plan = program.command('plan').description('Create a plan to start from: `debussy plan new NAME`, or `debussy plan import PATH` from another tool\'s plan.');
  plan
    .command('new')
    .description('Create a master plan and its phase files from a template; the result passes `debussy audit`.')
    .argument('<name>', 'the plan name: lower-case words joined by - or _, e.g. billing-service')
    .option('--phases <n>', 'how many phases, each depending on the one before (1 to 50)', '3')
    .addOption(new Option('--template <name>', 'which gates and tasks to start from').choices([...PLAN_TEMPLATE_NAMES]).default(DEFAULT_PLAN_TEMPLATE))
    .option('--dir <folder>', 'create the plan folder in this folder (default: plans/ at the project root)')
    .option('--force', "overwrite the generated files if the plan's folder exists")
    .option('--json', `print the plan written and its audit as one JSON object (${docFile('output.md')})`)
    .action(lazy(() => import('./commands/plan-new.js')));
  plan
    .command('import')
    .description("Turn another tool's plan (Taskmaster tasks.json, ralph prd.json, GSD .planning/, spec-kit tasks.md) into a debussy plan, and audit it.")
    .argument('<path>', 'the plan file, or a folder holding one (a project, .taskmaster/, .planning/, specs/NNN-feature/)')
    .option('--name <name>', 'the plan name (default: from the source, e.g. taskmaster)')
    .option('--tag <tag>', "Taskmaster: which tag of tasks.json to read (default: master, or the file's only tag)")
    .option('--dir <folder>', 'create the plan folder in this folder (default: plans/ at the project root)')
    .option('--force', 'overwrite files in the plan folder even if they were edited since the last import')
    .option('--json', `print what was written and its audit as one JSON object (${docFile('output.md')})`)
    .addHelpText('after', examples([
      ['debussy plan import .taskmaster/tasks/tasks.json', 'Taskmaster tasks as phases, subtasks as tasks'],
      ['debussy plan import prd.json --name billing', "ralph's user stories as phases of plans/billing/"],
      ['debussy plan import .planning', "GSD's roadmap phases, their PLAN.md files as tasks"],
    ]))
    .action(lazy(() => import('./commands/plan-import.js')));

  program
    .command('logs')
    .description('Show the session logs of a run (default: the latest), one section per session.')
    .argument('[run]', 'the run id, as `debussy history` lists them')
    .option('--phase <id>', 'only the sessions of this phase')
    .option('--follow', 'keep printing new lines until the run ends (or Ctrl-C)')
    .option('--raw', "print the raw stream-json of claude's sessions instead")
    .option('--json', `print one JSON object per session, its log text included (NDJSON; not with --follow; ${docFile('output.md')})`)
    .action(lazy(() => import('./commands/logs.js')));
}
