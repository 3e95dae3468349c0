import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { annotationFor, escapeData, escapeProperty, GitHubActionsReporter, workflowCommand } from '../../src/report/github-actions.js';
import { PlainReporter } from '../../src/report/plain-reporter.js';
import { StepSummaryReporter } from '../../src/report/step-summary.js';
import { journalOf, START_INFO, stateOf, T0 } from './run-events.js';

describe('workflow command escaping', () => {
  it.each([
    ['plain text', 'plain text'],
    ['100% done', '100%25 done'],
    ['line one\nline two', 'line one%0Aline two'],
    ['windows\r\nline', 'windows%0D%0Aline'],
    ['%0A stays literal', '%250A stays literal'],
    ['a: b, c', 'a: b, c'],
  ])('data %j -> %j', (input, expected) => {
    expect(escapeData(input)).toBe(expected);
  });

  it.each([
    ['Phase 1 failed', 'Phase 1 failed'],
    ['a: b, c', 'a%3A b%2C c'],
    ['50%\nnext', '50%25%0Anext'],
  ])('property %j -> %j', (input, expected) => {
    expect(escapeProperty(input)).toBe(expected);
  });

  it('builds a command with escaped properties and message', () => {
    expect(workflowCommand('error', { title: 'Phase 6D: blocked, really' }, 'why:\n50%')).toBe('::error title=Phase 6D%3A blocked%2C really::why:%0A50%25\n');
    expect(workflowCommand('warning', { title: undefined }, 'x')).toBe('::warning::x\n');
  });

  it('leaves out the terminal control sequences a title or a message quotes from the plan or the agent', () => {
    expect(workflowCommand('error', { title: 'Phase 1\x1b]52;c;ZXZpbA==\x07 \u202eblocked' }, 'gate \x1b[31mred\x1b[0m\u009b6n\nnext')).toBe('::error title=Phase 1 blocked::gate red%0Anext\n');
  });
});

describe('annotations', () => {
  it('annotates failures as errors and restarts, crossings and failed commits as warnings', () => {
    const found = journalOf().map(annotationFor).filter((a) => a !== undefined);
    expect(found).toEqual([
      { level: 'warning', title: 'Phase 1 crossed the context threshold', message: 'context at 82.5% of 200,000 tokens crossed the 80% threshold: stopping the session' },
      { level: 'warning', title: 'Phase 1 commit failed', message: 'pre-commit hook said: no, really' },
      { level: 'warning', title: 'Phase 1 restarted (1/3)', message: 'restarted from a checkpoint: context threshold' },
      { level: 'error', title: 'Phase 2 failed', message: 'gates failed: tests, 50% done\nsee log' },
      { level: 'error', title: 'debussy run failed', message: 'not complete: 2 failed (exit 1)' },
    ]);
  });
});

describe('GitHubActionsReporter', () => {
  it('wraps each phase in a group and writes escaped annotations outside it', () => {
    let out = '';
    const write = (text: string) => (out += text);
    const reporter = new GitHubActionsReporter(write, new PlainReporter(write, { verbose: false, timestamps: false, now: () => T0 }));
    reporter.runStarted(START_INFO);
    for (const event of journalOf()) reporter.journal(event);
    reporter.runFinished(stateOf(), 'debussy run plans/demo/MASTER_PLAN.md');
    reporter.close();
    const lines = out.split('\n');
    const at = (prefix: string) => lines.findIndex((l) => l.startsWith(prefix));

    expect(lines.filter((l) => l.startsWith('::group::'))).toEqual(['::group::Phase 1: Set up', '::group::Phase 2: Build the thing']);
    expect(lines.filter((l) => l === '::endgroup::')).toHaveLength(2);
    // The phase's own lines are inside its group.
    expect(at('::group::Phase 1')).toBeLessThan(at('phase 1 started'));
    expect(at('phase 1 completed')).toBeLessThan(lines.indexOf('::endgroup::'));
    expect(lines).toContain('::warning title=Phase 1 restarted (1/3)::restarted from a checkpoint: context threshold');
    expect(lines).toContain('::error title=Phase 2 failed::gates failed: tests, 50%25 done%0Asee log');
    expect(lines).toContain('::error title=debussy run failed::not complete: 2 failed (exit 1)');
    // The failure annotation follows the group's end; nothing is left open.
    expect(at('::error title=Phase 2 failed')).toBeGreaterThan(lines.lastIndexOf('::endgroup::'));
    expect(out).toContain('To resume: debussy run plans/demo/MASTER_PLAN.md');
    expect(out).not.toContain('\x1b');
  });

  it('closes a group left open by an interrupted phase', () => {
    let out = '';
    const reporter = new GitHubActionsReporter((t) => (out += t), {});
    const [started, phase] = journalOf();
    reporter.journal(started!);
    reporter.journal(phase!);
    reporter.close();
    reporter.close();
    expect(out).toBe('::group::Phase 1: Set up\n::endgroup::\n');
  });
});

describe('StepSummaryReporter', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('appends the markdown table, totals and the resume command to the file', () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'debussy-summary-'));
    const file = path.join(dir, 'summary.md');
    writeFileSync(file, 'earlier step\n');
    new StepSummaryReporter(file, () => undefined).runFinished(stateOf(), 'debussy run plans/demo/MASTER_PLAN.md');
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith('earlier step\n### debussy: Demo Plan: ❌ failed\n')).toBe(true);
    expect(text).toContain('| Phase | Title | Status | Attempts | Restarts | Peak context | Duration | Tokens | Cost | Commits |');
    expect(text).toContain('| 1 | Set up | ✅ completed | 2 | 1 | 83% | 12s | 1,600 | $0.75 | 1 |');
    expect(text).toContain('| 2 | Build the thing | ❌ failed | 1 | 0 | - | 2s | 0 | $0.00 | 0 |');
    expect(text).toContain('| **Total** | | **failed** | 3 | 1 | 83% | 17s | 1,600 | $0.75 | 1 |');
    expect(text).toContain('```sh\ndebussy run plans/demo/MASTER_PLAN.md\n```');
  });

  it('warns instead of throwing when the file cannot be written', () => {
    const warnings: string[] = [];
    new StepSummaryReporter('/nonexistent-dir/for/sure/summary.md', (m) => warnings.push(m)).runFinished(stateOf(), undefined);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('could not write the step summary');
  });
});
