/**
 * Issue 6 acceptance: the live status area in a real pseudo-terminal (tmux), while the real claude
 * CLI runs a scripted session that crosses the threshold, restarts from its checkpoint and finishes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DEBUSSY_BIN } from '../cli/cli-harness.js';
import { visibleWidth } from '../../src/report/terminal-width.js';
import { E2EProject, eventsOf } from '../e2e/e2e-project.js';
import { bash, scriptBySession, write } from '../e2e/session-script.js';
import { outputEnv } from './output-env.js';
import { hasScript, runInPty } from './pty-script.js';
import { hasTmux, TmuxScreen } from './tmux-screen.js';

const CROSSING_USAGE = { input_tokens: 165_000 }; // 82.5% of the 200,000-token window
const WIDTH = 110;
const HEIGHT = 30;

let project: E2EProject | undefined;
let screen: TmuxScreen | undefined;
afterEach(async () => {
  await screen?.dispose();
  screen = undefined;
  await project?.dispose();
  project = undefined;
});

describe.runIf(hasTmux())('the live view in a terminal', () => {
  it('pins phase, gauge percent and restarts at the bottom while the session runs, then leaves the summary', async () => {
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Watch me' }],
      script: scriptBySession({
        fresh: [write('part1.txt', 'part one\n', { usage: CROSSING_USAGE }), bash('touch after-crossing.txt', { latencyMs: 1500 })],
        // 120,000 tokens: 60% of the window, then a slow turn to look at the screen.
        checkpoint: [bash('echo resumed', { usage: { input_tokens: 120_000 } }), bash('debussy done --phase 1', { latencyMs: 3000 }), { kind: 'text', text: 'Phase finished.' }],
      }),
    });
    screen = await TmuxScreen.start({
      command: [process.execPath, DEBUSSY_BIN, 'run', project.planArg], cwd: project.dir, env: outputEnv(project, {}), width: WIDTH, height: HEIGHT,
    });

    // The restarted session at 60%: the area shows the phase, restart 1/3 and the gauge percent.
    const restarted = (s: string[]) => s.some((l) => l.includes('1 › Bash: echo resumed')) && s.some((l) => /restart 1\/3/.test(l)) && s.some((l) => /context .* 6\d% /.test(l));
    const { matched, screens } = await screen.watch(restarted, { timeoutMs: 45_000 });
    expect(matched, `never saw the restarted session; last screen:\n${(screens.at(-1) ?? []).join('\n')}`).toBeDefined();
    const live = matched ?? [];
    const bottom = live.filter((l) => l !== '').slice(-4);
    expect(bottom[0]).toMatch(/^─+$/);
    expect(bottom[1]).toMatch(/E2E Plan · phase 1 \(1\/1\): Watch me +elapsed \d+s \(phase \d+s\)$/);
    // The first session was stopped at the threshold: claude prints its result (and cost) only usually; else the cost is the estimate, marked ~.
    expect(bottom[2]).toMatch(/^ {2}attempt 2 · restart 1\/3 · \d+ tool calls? · cost ~?\$\d+\.\d\d\+? · /);
    expect(bottom[3]).toMatch(/^ {2}context [█░│]+ 6\d% 12\d(\.\d)?k\/200k \(restart at 80%\)$/);
    // Activity scrolls above the area, one line per step, journal events timestamped.
    expect(live.join('\n')).toMatch(/\n {2}1 › Write: part1\.txt\n/);
    expect(live.join('\n')).toMatch(/\n\d\d:\d\d:\d\d phase 1: restart 1\/3 from a checkpoint/);
    // The first session's crossing scrolled by (the screens in between are too brief to rely on).
    expect(live.join('\n')).toMatch(/\n\d\d:\d\d:\d\d phase 1: context at 8\d\.\d% of 200,000 tokens crossed the 80% threshold: stopping the session\n/);
    for (const line of live) expect(line.length).toBeLessThanOrEqual(WIDTH);

    expect(await screen.waitForExit(45_000)).toBe(0);
    const end = (await screen.capture()).join('\n');
    expect(end).toMatch(/phase +status +attempts +restarts +peak ctx/);
    expect(end).toMatch(/\n1 +completed +2 +1 +8\d%/);
    expect(end).not.toContain('To resume');
    // The status area is gone: no rule or gauge is left on the screen.
    expect(end).not.toMatch(/─{20}/);
    expect(end).not.toContain('E2E Plan · phase 1 (1/1)');
    expect(end).not.toMatch(/context [█░│]+/);
    expect(eventsOf(await project.journal(), 'restart')).toHaveLength(1);
  });
});

describe.runIf(hasTmux())('a CJK-titled plan in the live view, resized, then Ctrl-C', () => {
  it('measures the title by display width, redraws the area in place at each width, keeps the signal message above it, then clears it and tells how to resume', async () => {
    // 34 wide characters: 68 columns, more than the room the header line has at either width.
    const title = '請求サービスの設計と実装を行う段階日本語の長い題名で表示幅を試験する';
    const [width, narrower] = [80, 72];
    project = await E2EProject.create({
      phases: [{ id: '1', title }],
      script: scriptBySession({ fresh: [bash('echo 一'), bash('echo 二'), bash('echo 三'), bash('(sleep 23)'), bash('debussy done --phase 1'), { kind: 'text', text: 'Phase finished.' }] }),
    });
    screen = await TmuxScreen.start({
      command: [process.execPath, DEBUSSY_BIN, 'run', project.planArg], cwd: project.dir, env: outputEnv(project, {}), width, height: HEIGHT,
    });
    const running = await screen.watch((s) => s.some((l) => l.includes('1 › Bash: (sleep 23)')), { timeoutMs: 45_000 });
    expect(running.matched, `never saw the last step; last screen:\n${(running.screens.at(-1) ?? []).join('\n')}`).toBeDefined();
    /** One rule (or none yet), at most one header, nothing wider than the terminal. */
    const inPlace = (seen: string[], columns: number) => {
      expect(seen.filter((l) => /─{20}/.test(l)), seen.join('\n')).toHaveLength(seen.some((l) => /─{20}/.test(l)) ? 1 : 0);
      expect(seen.filter((l) => l.includes('E2E Plan · phase 1 (1/1)')).length, seen.join('\n')).toBeLessThanOrEqual(1);
      for (const line of seen) expect(visibleWidth(line), line).toBeLessThanOrEqual(columns);
    };
    // Every screen seen while the area was redrawn for each step.
    for (const seen of [...running.screens, running.matched ?? []]) inPlace(seen, width);
    const header = (running.matched ?? []).find((l) => l.includes('E2E Plan · phase 1 (1/1)')) ?? '';
    expect(header).toMatch(/E2E Plan · phase 1 \(1\/1\): 請求サービス/);

    // Narrower: the area is drawn again at the new width, once, with nothing left of the old one.
    await screen.resize(narrower, HEIGHT);
    const narrow = await screen.watch((s) => s.some((l) => new RegExp(`^─{${narrower - 1}}$`).test(l)), { timeoutMs: 10_000 });
    expect(narrow.matched, (narrow.screens.at(-1) ?? []).join('\n')).toBeDefined();
    const afterResize = narrow.matched ?? [];
    expect(afterResize.filter((l) => /─{20}/.test(l))).toHaveLength(1);
    expect(afterResize.filter((l) => l.includes('E2E Plan · phase 1 (1/1)'))).toHaveLength(1);
    inPlace(afterResize, narrower);
    // The next redraws at the new width (the clock's, once a second) stay in place too.
    const headerOf = (seen: string[]) => seen.find((l) => l.includes('E2E Plan · phase 1 (1/1)'));
    const ticked = await screen.watch((s) => headerOf(s) !== undefined && headerOf(s) !== headerOf(afterResize), { timeoutMs: 10_000 });
    expect(ticked.matched, (ticked.screens.at(-1) ?? []).join('\n')).toBeDefined();
    for (const seen of ticked.screens) inPlace(seen, narrower);

    await screen.sendKeys('C-c');

    expect(await screen.waitForExit(45_000)).toBe(130);
    const end = await screen.capture();
    const text = end.join('\n');
    expect(text).toContain('debussy: SIGINT received: stopping the session and saving its work');
    // One copy of the message, not overwritten, and no piece of the status area left anywhere.
    expect(end.filter((l) => l.includes('SIGINT received'))).toHaveLength(1);
    expect(text).not.toMatch(/─{20}/);
    expect(text).not.toContain('E2E Plan · phase 1 (1/1)');
    expect(text).not.toMatch(/context [█░│]+/);
    expect(text).toMatch(/\n1 +in_progress +1 +0 /);
    expect(end.filter((l) => l !== '').at(-1)).toBe('To resume: debussy run plans/e2e/MASTER_PLAN.md');
  });
});

describe.runIf(hasScript())('--plain on a terminal', () => {
  it('colours the lines but never moves the cursor', async () => {
    project = await E2EProject.create({
      phases: [{ id: '1', title: 'Plain on a TTY' }],
      script: scriptBySession({ fresh: [bash('debussy done --phase 1'), { kind: 'text', text: 'Phase finished.' }] }),
    });
    const { code, output } = await runInPty([process.execPath, DEBUSSY_BIN, 'run', project.planArg, '--plain'], { cwd: project.dir, env: outputEnv(project, { TERM: 'xterm-256color' }) });
    expect(code, output).toBe(0);
    expect(output).toContain('\x1b[32mcompleted'); // the summary's status column
    // eslint-disable-next-line no-control-regex
    const uncoloured = output.replace(/\x1b\[[0-9;]*m/g, '');
    expect(uncoloured).toMatch(/\n\d\d:\d\d:\d\d phase 1 started: Plain on a TTY\r?\n/);
    // Colour (SGR) is the only escape sequence: no cursor movement, clearing or hiding.
    // eslint-disable-next-line no-control-regex
    expect(uncoloured).not.toMatch(/[\x1b\x9b]/);
  });
});
