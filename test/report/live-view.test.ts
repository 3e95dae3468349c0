/* eslint-disable no-control-regex -- these tests are about escape sequences */
import { describe, expect, it } from 'vitest';
import { createColors, NO_COLORS } from '../../src/report/color.js';
import { gaugeLevel, renderGauge } from '../../src/report/context-gauge.js';
import { LiveReporter, type LiveTerminal } from '../../src/report/live-reporter.js';
import { applyAgentEvent, applyJournalEvent, applyRunStart, INITIAL_LIVE_STATE, liveCost, type LiveState } from '../../src/report/live-state.js';
import { PinnedArea } from '../../src/report/pinned-area.js';
import { renderStatusArea, type FrameOptions } from '../../src/report/status-area.js';
import { visibleWidth } from '../../src/report/terminal-width.js';
import { foldRun, type RunState } from '../../src/state/index.js';
import { AGENT_EVENTS, journalOf, snapshot, START_INFO, T0 } from './run-events.js';

const journal = journalOf();
const SGR = /\x1b\[\d+m/g;

/** The state after the first `n` journal events of the sample run, plus agent activity. */
function stateAfter(n: number, context = snapshot({ usedTokens: 140_000, toolCalls: 7 })): LiveState {
  let state = applyRunStart(INITIAL_LIVE_STATE, START_INFO);
  for (const event of journal.slice(0, n)) state = applyJournalEvent(state, event, T0);
  return applyAgentEvent(state, { type: 'tool_start', messageId: 'm', toolUseId: 't', name: 'Bash', input: {}, summary: 'Bash: npm test' }, context);
}

const frameOptions = (over: Partial<FrameOptions> = {}): FrameOptions => ({ now: T0 + 75_000, width: 100, colors: NO_COLORS, unicode: false, spinnerFrame: 0, ...over });

describe('gauge', () => {
  it.each([
    [0, 80, 'ok'], [64.9, 80, 'ok'], [65, 80, 'near'], [79.9, 80, 'near'], [80, 80, 'over'], [120, 80, 'over'], [99, undefined, 'ok'],
  ] as const)('%s%% with threshold %s is %s', (percent, threshold, level) => {
    expect(gaugeLevel(percent, threshold)).toBe(level);
  });

  it('draws the bar, the threshold mark, percent and tokens, coloured by level', () => {
    const style = { width: 10, unicode: false, colors: NO_COLORS };
    expect(renderGauge({ usedTokens: 50_000, contextWindow: 200_000, percent: 25, thresholdPercent: 80 }, style)).toBe('[###-----|-] 25% 50k/200k');
    expect(renderGauge({ usedTokens: 190_000, contextWindow: 200_000, percent: 95, thresholdPercent: 80 }, style)).toBe('[##########] 95% 190k/200k');
    expect(renderGauge({ usedTokens: 1_000, contextWindow: undefined, percent: 0, thresholdPercent: 80 }, style)).toBe('window not known yet 1k tokens');
    const colors = createColors(true);
    const paint = (percent: number) => renderGauge({ usedTokens: percent * 2000, contextWindow: 200_000, percent, thresholdPercent: 80 }, { ...style, colors });
    expect(paint(30).startsWith('\x1b[32m')).toBe(true);
    expect(paint(70).startsWith('\x1b[33m')).toBe(true);
    expect(paint(85).startsWith('\x1b[31m')).toBe(true);
  });
});

describe('live state', () => {
  it('follows phases, attempts, restarts and cost', () => {
    const during = stateAfter(4);
    expect(during).toMatchObject({ planName: 'Demo Plan', phaseIds: ['1', '2'], maxRestarts: 3, contextThreshold: 80, sessionLive: true, activity: 'running Bash' });
    expect(during.phase).toMatchObject({ id: '1', index: 1, attempts: 1, restart: 0 });
    const restarted = stateAfter(12);
    expect(restarted.phase).toMatchObject({ attempts: 2, restart: 1 });
    expect(liveCost(restarted).usd).toBeCloseTo(0.25);
    const withResult = applyAgentEvent(restarted, { type: 'result', subtype: 'success', isError: false, costUsd: 0.1, inputTokens: 1, outputTokens: 1 }, snapshot());
    expect(liveCost(withResult).usd).toBeCloseTo(0.35);
    // The session's own end replaces its running figure: counted once.
    expect(liveCost(applyJournalEvent(withResult, journal[12]!, T0)).usd).toBeCloseTo(0.75);
    expect(stateAfter(16).phase).toMatchObject({ id: '2', index: 2, attempts: 1, restart: 0 });
  });

  it('marks the cost as a lower bound once a session ended without claude reporting its cost', () => {
    const ended = journal.find((e) => e.type === 'session_ended');
    if (ended?.type !== 'session_ended') throw new Error('the fixture has a session_ended');
    const state = applyJournalEvent(stateAfter(4), { ...ended, costUsd: 0, costUnknown: true }, T0);
    expect(liveCost(state).incomplete).toBe(true);
    expect(renderStatusArea(state, frameOptions()).join('\n')).toContain('cost $0.00+');
    expect(liveCost(stateAfter(12)).incomplete).toBe(false);
  });
});

describe('status area frame', () => {
  it('shows plan, phase i/N, attempt, restarts, elapsed, gauge, tool calls and cost', () => {
    expect(renderStatusArea(stateAfter(12), frameOptions())).toEqual([
      '-'.repeat(99),
      '- Demo Plan | phase 1 (1/2): Set up                                     elapsed 1m15s (phase 1m14s)',
      '  attempt 2 | restart 1/3 | 7 tool calls | cost $0.25 | running Bash',
      '  context [############################----|-------] 70% 140k/200k (restart at 80%)',
    ]);
  });

  it('draws the plan name, the phase title and the activity without the control sequences they carry', () => {
    const osc52 = '\x1b]52;c;ZXZpbA==\x07';
    let state = applyRunStart(INITIAL_LIVE_STATE, { ...START_INFO, plan: { ...START_INFO.plan, name: `Demo${osc52} Plan` } });
    state = applyJournalEvent(state, { ...journal[1]!, type: 'phase_started', phaseId: '1', title: 'Set\x1b[2J\u009b6n up\u202e' }, T0);
    state = applyAgentEvent(state, { type: 'tool_start', messageId: 'm', toolUseId: 't', name: `Bash${osc52}\x07`, input: {}, summary: 'Bash: x' }, snapshot());
    const frame = renderStatusArea(state, frameOptions({ colors: createColors(true) })).join('\n');
    expect(frame.replace(SGR, '')).toMatch(/\* Demo Plan \| phase 1 \(1\/2\): Set up\n.*running Bash\n/);
    expect(frame.replace(SGR, '')).not.toMatch(/[\x07\x1b\x7f-\x9f\u202e]/);
  });

  it('fits every line into a narrow terminal and keeps the phase line on a short one', () => {
    for (const width of [20, 40, 60, 80, 200]) {
      for (const line of renderStatusArea(stateAfter(12), frameOptions({ width, unicode: true, colors: createColors(true) }))) {
        expect(visibleWidth(line)).toBeLessThanOrEqual(Math.max(10, width - 1));
      }
    }
    expect(renderStatusArea(stateAfter(12), frameOptions({ height: 2 }))).toEqual([expect.stringContaining('phase 1 (1/2)')]);
    expect(renderStatusArea(stateAfter(12), frameOptions({ height: 4 }))).toHaveLength(2);
  });

  it('colours the gauge by how close the context is to the threshold', () => {
    const colors = createColors(true);
    const contextLine = (used: number) => renderStatusArea(stateAfter(4, snapshot({ usedTokens: used })), frameOptions({ colors }))[3] ?? '';
    expect(contextLine(40_000)).toContain('\x1b[32m20%');
    expect(contextLine(140_000)).toContain('\x1b[33m70%');
    expect(contextLine(170_000)).toContain('\x1b[31m85%');
  });

  it('before any session says so, and a stopped spinner shows no session is running', () => {
    const state = applyJournalEvent(applyRunStart(INITIAL_LIVE_STATE, START_INFO), journal[0]!, T0);
    expect(renderStatusArea(state, frameOptions())).toEqual([
      '-'.repeat(99),
      '* Demo Plan | phase -/2                                                               elapsed 1m15s',
      '  attempt 0 | restart 0/3 | 0 tool calls | cost $0.00 | starting',
      '  context no session yet (restart at 80%)',
    ]);
  });
});

/** A terminal that records what was written. */
class FakeTerminal implements LiveTerminal {
  out = '';
  columns = 80;
  rows = 24;
  private listeners: (() => void)[] = [];
  failWrites = false;
  write(text: string): boolean {
    if (this.failWrites) throw new Error('EPIPE');
    this.out += text;
    return true;
  }
  on(_event: 'resize', listener: () => void): void {
    this.listeners.push(listener);
  }
  off(_event: 'resize', listener: () => void): void {
    this.listeners = this.listeners.filter((l) => l !== listener);
  }
  resize(columns: number): void {
    this.columns = columns;
    for (const l of this.listeners) l();
  }
  get listening(): number {
    return this.listeners.length;
  }
}

describe('PinnedArea', () => {
  it('goes back up over the block, clears, prints above, redraws; clear gives the cursor back', () => {
    let out = '';
    let columns = 80;
    const area = new PinnedArea((t) => (out += t), () => columns);
    area.update(['first'], ['s1', 's2', 's3']);
    expect(out).toBe('\x1b[?25lfirst\ns1\ns2\ns3');
    out = '';
    area.update(['second'], ['s1', 's2']);
    expect(out).toBe('\r\x1b[2A\x1b[Jsecond\ns1\ns2');
    out = '';
    columns = 5; // narrowed: a 12-column line now takes three rows on a reflowing terminal
    area.update([], ['x'.repeat(12)]);
    expect(out).toBe('\r\x1b[1A\x1b[J' + 'x'.repeat(12));
    out = '';
    area.clear();
    expect(out).toBe('\r\x1b[2A\x1b[J\x1b[?25h');
    out = '';
    area.clear();
    expect(out).toBe('');
  });
});

describe('LiveReporter', () => {
  function drive(terminal: FakeTerminal, verbose = false): LiveReporter {
    const reporter = new LiveReporter(terminal, { colors: NO_COLORS, unicode: false, verbose, tickMs: 0, now: () => T0 + 5_000 });
    reporter.journal(journal[0]!);
    reporter.runStarted(START_INFO);
    for (const event of journal.slice(1, 4)) reporter.journal(event);
    for (const event of AGENT_EVENTS) reporter.agent('1', event, snapshot({ usedTokens: 150_000 }));
    return reporter;
  }

  it('prints one condensed line per step above the area and the area last', () => {
    const terminal = new FakeTerminal();
    const reporter = drive(terminal);
    const screen = terminal.out.split(/\r\x1b\[\d+A\x1b\[J/).at(-1) ?? '';
    expect(screen.split('\n').slice(-4)).toEqual(reporter.frame());
    expect(terminal.out).toContain('  1 > Let me look at the tests first. Then fix them.\n');
    expect(terminal.out).toContain('  1 > Bash: npm test\n');
    expect(terminal.out).toContain('  1 > tool error: FAIL test/x.test.ts more\n');
    expect(terminal.out).toContain('  1 > API retry 1/3 in 2 s (status 529)\n');
    expect(reporter.frame()[3]).toContain('75% 150k/200k');
    // No escape sequence from the agent reached the terminal: only ours (cursor and clear).
    expect(terminal.out.replace(/\r\x1b\[\d+A\x1b\[J|\x1b\[\?25[lh]/g, '')).not.toContain('\x1b');
    for (const line of terminal.out.split('\n')) expect(visibleWidth(line.replace(/^[^]*\x1b\[J/, ''))).toBeLessThan(80);
    reporter.close();
  });

  it('--verbose keeps the full text on several lines', () => {
    const terminal = new FakeTerminal();
    drive(terminal, true).close();
    expect(terminal.out).toContain('  1 > Let me look at the tests first.\n      Then fix them.\n');
  });

  it('redraws on resize with the new width, and on close clears the area and shows the cursor', () => {
    const terminal = new FakeTerminal();
    const reporter = drive(terminal);
    terminal.out = '';
    terminal.resize(50);
    // Each of the four lines (51 to 79 columns) takes two rows once the terminal is 50 wide: 7 up.
    expect(terminal.out.startsWith('\r\x1b[7A\x1b[J')).toBe(true);
    for (const line of terminal.out.split('\n')) expect(visibleWidth(line.replace(/^[^]*\x1b\[J/, ''))).toBeLessThan(50);
    terminal.out = '';
    reporter.close();
    expect(terminal.out).toBe('\r\x1b[3A\x1b[J\x1b[?25h');
    expect(terminal.listening).toBe(0);
    reporter.close();
    expect(terminal.out).toBe('\r\x1b[3A\x1b[J\x1b[?25h');
  });

  it('ends with the summary table and the resume line, the area gone', () => {
    const terminal = new FakeTerminal();
    const reporter = drive(terminal);
    for (const event of journal.slice(4)) reporter.journal(event);
    terminal.out = '';
    reporter.runFinished(foldState(), 'debussy run x.md');
    reporter.close();
    expect(terminal.out.startsWith('\r\x1b[3A\x1b[J\x1b[?25h\n')).toBe(true);
    expect(terminal.out.replace(SGR, '')).toMatch(/phase +status +attempts +restarts +peak ctx +duration +tokens +cost +commits/);
    expect(terminal.out.trimEnd().endsWith('To resume: debussy run x.md')).toBe(true);
  });

  it('never throws, even when the terminal does', () => {
    const terminal = new FakeTerminal();
    const reporter = drive(terminal);
    terminal.failWrites = true;
    expect(() => {
      for (const event of journal.slice(4)) reporter.journal(event);
      reporter.agent('1', AGENT_EVENTS[2]!, snapshot());
      reporter.notice('error', 'x');
      terminal.resize(10);
      reporter.close();
    }).not.toThrow();
  });

  it('lifts the area for writes to a stream on the same screen, and lets go of the stream on close', () => {
    const terminal = new FakeTerminal();
    const stderr = { write: (text: string) => ((terminal.out += text), true) };
    const original = stderr.write;
    const reporter = new LiveReporter(terminal, { colors: NO_COLORS, unicode: false, verbose: false, tickMs: 0, now: () => T0, sharedScreen: stderr });
    reporter.journal(journal[0]!);
    terminal.out = '';
    stderr.write('debussy: SIGINT received');
    // Erased, the message on its own line, the area drawn again under it.
    expect(terminal.out.startsWith('\r\x1b[3A\x1b[Jdebussy: SIGINT received\n')).toBe(true);
    expect(terminal.out.split('\n').slice(1)).toEqual(reporter.frame());
    reporter.close();
    expect(stderr.write).toBe(original);
    terminal.out = '';
    stderr.write('after\n');
    expect(terminal.out).toBe('after\n');
  });

  it('the clock timer redraws by itself and does not keep the process alive', async () => {
    const terminal = new FakeTerminal();
    const reporter = new LiveReporter(terminal, { colors: NO_COLORS, unicode: false, verbose: false, tickMs: 10 });
    reporter.journal(journal[0]!);
    const before = terminal.out.length;
    // However slow the machine: some tick within two seconds.
    for (let waited = 0; waited < 2000 && terminal.out.length === before; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(terminal.out.length).toBeGreaterThan(before);
    reporter.close();
    const after = terminal.out.length;
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(terminal.out.length).toBe(after);
  });
});

function foldState(): RunState {
  const state = foldRun(journal);
  if (!state) throw new Error('no state');
  return state;
}
