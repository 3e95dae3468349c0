/**
 * Each format's reader, on this project's fixtures and on the variations found in public files:
 * ids as numbers or strings, a dependency on a subtask (`2.2`), statuses done / in-progress /
 * review / cancelled / deferred, tags, unpadded and padded GSD ids, spec-kit dependency wording.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readGsd, shellCommand } from '../../src/plan-import/gsd.js';
import { decodeEntities, parseGsdPlanFile } from '../../src/plan-import/gsd-plan-file.js';
import { gsdDependencies, parseRoadmap } from '../../src/plan-import/gsd-roadmap.js';
import { criterionGate, readRalph } from '../../src/plan-import/ralph.js';
import { readSpeckit } from '../../src/plan-import/speckit.js';
import { readTaskmaster, taskmasterStatus } from '../../src/plan-import/taskmaster.js';
import type { ImportedPlan } from '../../src/plan-import/imported-plan.js';
import { REPO_ROOT } from '../cli/cli-harness.js';

const FIXTURES = path.join(REPO_ROOT, 'test/fixtures/plan-import');
const json = (relative: string): unknown => JSON.parse(readFileSync(path.join(FIXTURES, relative), 'utf8'));

/** id, status, dependencies, gate name=command|-: one line per phase, easy to compare. */
function outline(plan: ImportedPlan): string[] {
  return plan.phases.map((phase) => {
    const gates = phase.gates.map((gate) => `${gate.name}=${gate.command ?? '-'}`).join(', ');
    return `${phase.sourceId} ${phase.status}${phase.leftOut ? ` (${phase.leftOut})` : ''} deps[${phase.dependsOn.join(',')}] gates[${gates}]`;
  });
}

describe('Taskmaster', () => {
  it('the tagged file, tag master: tasks, statuses, dependencies (a subtask names its task), gates from the test strategy', () => {
    const plan = readTaskmaster(json('taskmaster/.taskmaster/tasks/tasks.json'), { projectName: 'recipe-box' });
    expect(plan).toMatchObject({ title: 'recipe-box tasks', suggestedName: 'taskmaster', sourceDetail: 'tag master' });
    expect(outline(plan)).toEqual([
      '1 completed deps[] gates[tests=npm test]',
      '2 in_progress deps[1] gates[lint=npm run lint, tests=npx vitest run test/tokens.test.ts]',
      '3 pending deps[2,6] gates[test strategy=-]',
      '4 pending deps[2,5] gates[]',
      '5 pending (deferred) deps[3] gates[test strategy=-]',
      '7 pending (cancelled) deps[] gates[]',
    ]);
    expect(plan.phases[1]?.tasks.map((task) => [task.text, task.done, task.dropped])).toEqual([
      ['2.1: Tokenise the recipe text', true, undefined],
      ['2.2: Build the recipe tree', false, undefined],
      ['2.3: Support metric and imperial units', false, 'cancelled'],
    ]);
    expect(plan.phases[0]?.sections.map((section) => section.heading)).toEqual(['Details', 'Test strategy']);
  });

  it('another tag with --tag; a tag that does not exist is refused with the tags there are', () => {
    const value = json('taskmaster/.taskmaster/tasks/tasks.json');
    expect(readTaskmaster(value, { projectName: 'x', tag: 'ui-redesign' })).toMatchObject({ suggestedName: 'taskmaster-ui-redesign', sourceDetail: 'tag ui-redesign' });
    expect(() => readTaskmaster(value, { projectName: 'x', tag: 'nope' })).toThrow('this tasks.json has no tag "nope" (its tags: master, ui-redesign)');
  });

  it('several tags and no master: the user chooses; one tag: that one', () => {
    const task = { id: 1, title: 'A', status: 'pending', dependencies: [] };
    expect(() => readTaskmaster({ a: { tasks: [task] }, b: { tasks: [task] } }, { projectName: 'x' })).toThrow('this tasks.json holds 2 tags (a, b) and none is "master"');
    expect(readTaskmaster({ only: { tasks: [task] } }, { projectName: 'x' }).sourceDetail).toBe('tag only');
  });

  it('the flat format; ids as strings; missing fields; an unknown status becomes pending, said', () => {
    const plan = readTaskmaster({ tasks: [{ id: '1', title: 'A' }, { id: '2', status: 'someday', dependencies: ['1'] }] }, { projectName: 'x' });
    expect(outline(plan)).toEqual(['1 pending deps[] gates[]', '2 pending deps[1] gates[]']);
    expect(plan.phases[1]?.title).toBe('Task 2');
    expect(plan.notices).toEqual(['task 2: unknown status "someday", imported as pending']);
    expect(plan.sourceDetail).toBe('flat format');
  });

  it.each([
    { value: { tasks: [{ title: 'no id' }] }, message: 'task 1 of the file has no id' },
    { value: { tasks: [{ id: 1 }, { id: '1' }] }, message: 'task id 1 is used twice in the file' },
    { value: [], message: 'this tasks.json is not a JSON object' },
  ])('refuses: $message', ({ value, message }) => {
    expect(() => readTaskmaster(value, { projectName: 'x' })).toThrow(message);
  });

  it.each([
    ['done', 'completed'], ['completed', 'completed'], ['in-progress', 'in_progress'], ['in_progress', 'in_progress'], ['review', 'in_progress'],
    ['blocked', 'blocked'], ['pending', 'pending'], ['cancelled', 'cancelled'], ['deferred', 'deferred'],
  ])('status %s -> %s', (text, expected) => {
    const status = taskmasterStatus(text);
    expect(status?.leftOut ?? status?.status).toBe(expected);
  });
});

describe('ralph', () => {
  it('stories in priority order, passes -> complete, criteria as tasks, the file\'s verificationCommands as every phase\'s gates', () => {
    const plan = readRalph(json('ralph/prd.json'), { projectName: 'x' });
    expect(plan).toMatchObject({ title: 'Recipe Box', suggestedName: 'meal-planner', sourceDetail: 'branch ralph/meal-planner' });
    expect(outline(plan)).toEqual([
      'US-001 completed deps[] gates[typecheck=npm run typecheck, tests=npm test]',
      'US-002 pending deps[] gates[typecheck=npm run typecheck, tests=npm test]',
      'US-003 pending deps[] gates[typecheck=npm run typecheck, tests=npm test]',
    ]);
    expect(plan.phases[0]?.tasks.map((task) => task.done)).toEqual([true, true, true]);
    expect(plan.notices).toEqual(['prd.json names the branch ralph/meal-planner: debussy commits to the branch checked out when it runs, so check that one out first']);
  });

  it('without verificationCommands, a criterion that says a check passes is a gate (with its command if it names one)', () => {
    const plan = readRalph(json('ralph-criteria/prd.json'), { projectName: 'x' });
    expect(outline(plan)).toEqual(['US-001 pending deps[] gates[typecheck=-, tests=npm test]', 'US-002 pending deps[] gates[]']);
  });

  it.each([
    { criterion: 'Typecheck passes', expected: 'typecheck=-' },
    { criterion: 'Tests pass', expected: 'tests=-' },
    { criterion: 'All tests pass.', expected: 'tests=-' },
    { criterion: 'npm run lint passes', expected: 'lint=npm run lint' },
    { criterion: '`cargo test` passes', expected: 'tests=cargo test' },
    { criterion: 'Build succeeds', expected: 'build=-' },
    { criterion: 'Verify in browser using dev-browser skill', expected: 'none' },
    { criterion: 'Migration runs cleanly', expected: 'none' },
  ])('criterion "$criterion" -> $expected', ({ criterion, expected }) => {
    const gate = criterionGate(criterion);
    expect(gate === undefined ? 'none' : `${gate.name}=${gate.command ?? '-'}`).toBe(expected);
  });

  it('story verificationCommands (strings or {command}), dependencies, blocked, missing priority last', () => {
    const plan = readRalph({
      userStories: [
        { id: 'B', title: 'b', verificationCommands: [{ name: 'unit', command: 'pytest -q' }], dependencies: ['A'] },
        { id: 'A', title: 'a', priority: 1, blocked: true, verificationCommands: ['go test ./...'] },
      ],
    }, { projectName: 'kitchen' });
    expect(outline(plan)).toEqual(['A blocked deps[] gates[tests=go test ./...]', 'B pending deps[A] gates[unit=pytest -q]']);
    expect(plan.suggestedName).toBe('kitchen');
  });

  it('criteria as objects with a testCommand (a fork that tests each criterion): each command a gate, each criterion a task', () => {
    const plan = readRalph({
      userStories: [{
        id: 'US-001', title: 'Schema', priority: 1, passes: false,
        acceptanceCriteria: [
          { id: 'AC-001-1', text: 'The type exists', testCommand: "grep -q 'Criterion' src/types.ts", passes: true },
          { id: 'AC-001-2', text: 'Typecheck passes', passes: false },
        ],
      }],
    }, { projectName: 'x' });
    expect(outline(plan)).toEqual(["US-001 pending deps[] gates[AC-001-1=grep -q 'Criterion' src/types.ts]"]);
    expect(plan.phases[0]?.tasks.map((task) => [task.text, task.done])).toEqual([['The type exists', true], ['Typecheck passes', false]]);
  });

  it.each([
    { value: { project: 'x' }, message: 'this prd.json has no "userStories" list' },
    { value: { userStories: [{ title: 'no id' }] }, message: 'user story 1 of this prd.json has no id' },
    { value: { userStories: [{ id: 'A' }, { id: 'A' }] }, message: 'user story id A is used twice in this prd.json' },
  ])('refuses: $message', ({ value, message }) => {
    expect(() => readRalph(value, { projectName: 'x' })).toThrow(message);
  });
});

/** The fixture's .planning/phases files, as read-source.ts hands them over. */
function planningFiles(planning: string): { path: string; text?: string }[] {
  const files: { path: string; text?: string }[] = [];
  const walk = (relative: string): void => {
    for (const name of readdirSync(path.join(planning, relative)).sort()) {
      const child = `${relative}/${name}`;
      if (statSync(path.join(planning, child)).isDirectory()) walk(child);
      else files.push(/PLAN/.test(name) ? { path: child, text: readFileSync(path.join(planning, child), 'utf8') } : { path: child });
    }
  };
  walk('phases');
  return files;
}

describe('GSD', () => {
  const planning = path.join(FIXTURES, 'gsd/.planning');

  it('the roadmap\'s phases, their plans as tasks, <automated> commands as gates, ticked plans as progress', () => {
    const plan = readGsd({ roadmap: readFileSync(path.join(planning, 'ROADMAP.md'), 'utf8'), files: planningFiles(planning) }, { projectName: 'x' });
    expect(plan).toMatchObject({ title: 'Recipe Box', suggestedName: 'recipe-box' });
    expect(plan.description).toBe('A recipe box on the command line: store recipes, search them, and share them with friends.');
    expect(outline(plan)).toEqual([
      '1 completed deps[] gates[plan 01-01 task 1=npm test -- test/recipe-file.test.ts, plan 01-01 verification=npx tsc --noEmit, plan 01-02 task 1=npm test -- test/box.test.ts]',
      // Depends on Phase 1, and 02-02's depends_on names 01-02: the same dependency once.
      '2 in_progress deps[1] gates[plan 02-01 task 1=npm test -- test/index.test.ts && grep -q "buildIndex" src/index.ts, plan 02-02 task 1=-]',
      '2.1 pending deps[2] gates[plan 02.1-01 task 1=npm run build && node dist/cli.js index --check]',
      '3 pending deps[2,2.1] gates[]',
    ]);
    expect(plan.phases.map((phase) => phase.title)).toEqual(['Storage', 'Search', 'Index Fix', 'Sharing']);
    const search = plan.phases[1];
    expect(search?.tasks.map((task) => [task.text, task.done])).toEqual([['02-01: Ingredient index', true], ['02-02: Search command', false]]);
    expect(search?.tasks[1]?.notes).toEqual([
      'Plan: `.planning/phases/02-search/02-02-PLAN.md`',
      'Task 1: Search command (files: src/cli/search.ts)',
      'Task 2: The search command (a checkpoint for a person: debussy runs unattended and cannot pause for it)',
    ]);
    expect(plan.phases[0]?.sections.map((section) => section.heading)).toEqual(['Success criteria', 'Requirements']);
  });

  it('a plan is done when the roadmap ticks it or its SUMMARY.md exists; plan files the roadmap does not list still count', () => {
    const roadmap = '# Roadmap: R\n\n### Phase 01: One\n**Goal**: g\n**Depends on**: Nothing\n\nPlans:\n- [ ] 01-01: first\n';
    const plan = readGsd({
      roadmap,
      files: [
        { path: 'phases/01-one/01-01-PLAN.md', text: '<objective>\nFirst\n</objective>\n' },
        { path: 'phases/01-one/01-01-SUMMARY.md' },
        { path: 'phases/01-one/01-02-PLAN.md', text: '---\nphase: 01-one\nplan: 02\n---\n<objective>\nSecond\n</objective>\n' },
      ],
    }, { projectName: 'x' });
    expect(plan.phases[0]?.sourceId).toBe('1');
    expect(plan.phases[0]?.tasks.map((task) => [task.text, task.done])).toEqual([['01-01: first', true], ['01-02: Second', false]]);
    expect(plan.phases[0]?.status).toBe('in_progress');
  });

  it.each([
    { text: 'Nothing (first phase)', expected: [] },
    { text: 'Phase 2', expected: ['2'] },
    { text: 'Phase 1 (PR #8 deps on #1)', expected: ['1'] },
    { text: 'Phase 1 + Phase 2 + Phase 3 (#9 deps #1, #2, #5)', expected: ['1', '2', '3'] },
    { text: 'Phase 1 through Phase 3 (most of the above)', expected: ['1', '2', '2.1', '3'] },
    { text: 'Phases 2-3', expected: ['2', '2.1', '3'] },
    { text: 'All phases (documents what was built)', expected: ['1', '2', '2.1', '3'] },
    { text: 'Phase 02.1', expected: ['2.1'] },
  ])('Depends on "$text"', ({ text, expected }) => {
    expect(gsdDependencies(text, ['1', '2', '2.1', '3']).ids).toEqual(expected);
  });

  it('"Depends on" that names no phase is unclear, and said', () => {
    expect(gsdDependencies('the auth work', ['1'])).toEqual({ ids: [], unclear: true });
    const plan = readGsd({ roadmap: '# Roadmap: R\n\n### Phase 1: One\n**Goal**: g\n**Depends on**: the auth work\n', files: [] }, { projectName: 'x' });
    expect(plan.notices).toEqual(['phase 1: "Depends on: the auth work" names no phase; it is imported without dependencies']);
  });

  it('translated field names are not read: phases without a Depends on line are imported without dependencies, said once', () => {
    const roadmap = '# SHOP Roadmap\n\n### Phase 14: 멀티 다이얼로그\n\n**목표:** x\n\n### Phase 15: 백엔드\n\n**의존성:** Phase 14 완료\n';
    const plan = readGsd({ roadmap, files: [] }, { projectName: 'x' });
    expect(plan.title).toBe('SHOP');
    expect(outline(plan)).toEqual(['14 pending deps[] gates[]', '15 pending deps[] gates[]']);
    expect(plan.notices).toEqual(['phase 15: no "**Depends on**:" line, so imported without dependencies (they run in roadmap order)']);
  });

  it('reads the milestone layout: phases inside <details>, #### headings, **Goal:** inside the bold', () => {
    const roadmap = [
      '# Roadmap: M', '', '- [x] **Phase 1: Old** - shipped', '', '<details>', '<summary>v1.0</summary>', '', '### Phase 1: Old', '**Goal:** old work', '', 'Plans:', '- [x] 01-01: done', '', '</details>', '',
      '### 🚧 v1.1 Next (In Progress)', '', '#### Phase 2: New', '**Goal:** new work', '**Depends on:** Phase 1', '', 'Plans:', '- [ ] 02-01: todo',
    ].join('\n');
    const parsed = parseRoadmap(roadmap);
    expect(parsed.phases.map((phase) => [phase.id, phase.name, phase.goal, phase.dependsOn, phase.checked])).toEqual([
      ['1', 'Old', 'old work', undefined, true],
      ['2', 'New', 'new work', 'Phase 1', false],
    ]);
  });

  it('a PLAN.md: frontmatter, tasks, <automated> with entities, a MISSING command, <verification>', () => {
    const file = parseGsdPlanFile([
      '---', 'phase: 03-api', 'plan: 02', 'depends_on: ["03-01"]', '---', '<objective>\nServe it\n</objective>',
      '<task type="auto"><name>A</name><verify><automated>pnpm test &amp;&amp; echo &quot;ok&quot;</automated></verify></task>',
      '<task type="auto"><name>B</name><verify><automated>MISSING — Wave 0 must create test/b.test.ts first</automated></verify></task>',
      '<task type="auto"><name>C</name><verify>`npm test` passes</verify></task>',
      '<verification>\n- [ ] `npm run lint` clean\n</verification>',
    ].join('\n'));
    expect(file).toMatchObject({ phase: '03-api', plan: '2', dependsOn: ['03-01'], objective: 'Serve it', verification: '- [ ] `npm run lint` clean' });
    expect(file.tasks.map((task) => [task.name, task.automated, task.verifyText])).toEqual([
      ['A', 'pnpm test && echo "ok"', ''],
      ['B', 'MISSING — Wave 0 must create test/b.test.ts first', ''],
      ['C', undefined, '`npm test` passes'],
    ]);
    expect(decodeEntities('a &lt;b&gt; &#39;c&#x27; &unknown;')).toBe("a <b> 'c' &unknown;");
  });

  it.each([
    { text: 'npm test', expected: 'npm test' },
    { text: '\n  npm run build\n  node dist/cli.js --check\n', expected: 'npm run build && node dist/cli.js --check' },
    { text: 'grep -q x a.ts \\\n  && grep -q y b.ts', expected: 'grep -q x a.ts && grep -q y b.ts' },
    { text: 'if [ -f a ]; then\n  npm test\nfi', expected: undefined },
    { text: 'MISSING — Wave 0 must create it', expected: undefined },
  ])('<automated> $text -> $expected', ({ text, expected }) => {
    expect(shellCommand(text)).toBe(expected);
  });
});

describe('spec-kit', () => {
  const text = readFileSync(path.join(FIXTURES, 'speckit/specs/004-recipe-import/tasks.md'), 'utf8');

  it('phases, tasks with their markers, ticked tasks as progress, the Phase Dependencies bullets as Depends On', () => {
    const plan = readSpeckit(text, { featureName: '004-recipe-import' });
    expect(plan).toMatchObject({ title: 'Recipe Import', suggestedName: '004-recipe-import', notices: [] });
    expect(outline(plan)).toEqual([
      '1 completed deps[] gates[]',
      '2 in_progress deps[1] gates[tests=npm test]',
      '3 pending deps[2] gates[independent test=-]',
      '4 pending deps[3] gates[tests=npx vitest run test/importer/source-link.test.ts]',
      '5 pending deps[3,4] gates[lint=npm run lint]',
    ]);
    expect(plan.phases.map((phase) => phase.title)).toEqual([
      'Setup (Shared Infrastructure)', 'Foundational (Blocking Prerequisites)', 'User Story 1 - Import a recipe from a link', 'User Story 2 - Keep the source link', 'Polish & Cross-Cutting Concerns',
    ]);
    expect(plan.phases[0]?.tasks.map((task) => task.text)).toEqual(['T001 Create src/importer/ and test/importer/', 'T002 [P] Add the html-parser dependency to package.json']);
  });

  const withDependencies = (bullets: string[]): string => [
    '# Tasks: T', '', '## Phase 1: Setup', '- [ ] T001 a', '## Phase 2: Foundational', '- [ ] T002 b', '- [ ] T003 c',
    '## Phase 3: User Story 1 - One (Priority: P1)', '- [ ] T004 d', '## Phase 4: User Story 2 - Two (Priority: P2)', '- [ ] T005 e',
    '## Phase 5: Polish', '- [ ] T006 f', '', '## Dependencies & Execution Order', '', '### Phase Dependencies', '', ...bullets,
  ].join('\n');

  it.each([
    {
      name: 'the template\'s wording',
      bullets: ['- **Setup (Phase 1)**: No dependencies - can start immediately', '- **Foundational (Phase 2)**: Depends on Setup completion - BLOCKS all user stories', '- **User Stories (Phase 3+)**: All depend on Foundational phase completion', '- **Polish (Final Phase)**: Depends on all desired user stories being complete'],
      expected: [[], ['1'], ['2'], ['2'], ['3', '4']],
    },
    {
      name: 'phase lists and ranges, stories by number, task ids, a none with a remark',
      bullets: ['- **Setup (Phase 1)**: None', '- **Foundational (Phase 2)**: Depends on T001 (the folders) from Setup', '- **User Stories (Phases 3-4)**: Depend on Foundational (Phase 2)', '- **User Story 2 (Phase 4 - Two)**: Depends on Foundational (Phase 2) AND User Story 1 (its types)', '- **Polish (Phase 5)**: Depends on completion of the user stories in scope.'],
      expected: [[], ['1'], ['2'], ['2', '3'], ['3', '4']],
    },
    {
      name: '"Foundation" for "Foundational", "US1", N/A',
      bullets: ['- **Setup (Phase 1)**: N/A (nothing before it)', '- **Foundational (Phase 2)**: Depends on Setup', '- **US1 (Phase 3)**: Depends on Foundation only', '- **US2 (Phase 4)**: Depends on US1 (needs its grid)', '- **Polish (Phase 5)**: Depends on all phases'],
      expected: [[], ['1'], ['2'], ['3'], ['1', '2', '3', '4']],
    },
  ])('$name', ({ bullets, expected }) => {
    const plan = readSpeckit(withDependencies(bullets), { featureName: 'f' });
    expect(plan.phases.map((phase) => phase.dependsOn)).toEqual(expected);
    expect(plan.notices).toEqual([]);
  });

  it('no dependency section, or phases it does not name: imported without dependencies, said', () => {
    expect(readSpeckit(withDependencies([]).replace(/## Dependencies[\s\S]*$/, ''), { featureName: 'f' }).notices).toEqual([
      'tasks.md has no dependency section: its phases are imported without dependencies and run in their order in the file',
    ]);
    const partial = readSpeckit(withDependencies(['- **Foundational (Phase 2)**: Depends on Setup', '- **Mystery (Phase 9)**: Depends on Setup', '- **Polish (Phase 5)**: whenever']), { featureName: 'f' });
    expect(partial.phases.map((phase) => phase.dependsOn)).toEqual([[], ['1'], [], [], []]);
    expect(partial.notices).toEqual([
      'dependency bullet "Mystery (Phase 9)": it names no phase of this tasks.md, so it is not read',
      'dependency bullet "Polish (Phase 5)": "whenever" names no phase, so it is not read',
      'the dependency section names no dependencies for phase 1, 3, 4, 5: imported without any',
    ]);
  });

  it('refuses a tasks.md without phases', () => {
    expect(() => readSpeckit('# Tasks: X\n\n- [ ] T001 a\n', { featureName: 'f' })).toThrow('this tasks.md has no phases');
  });
});
