import { describe, expect, it } from 'vitest';
import { buildCommitMessage, type CommitMessageInput } from '../../src/git/index.js';

const base = { planName: 'smart-restart', phaseId: '6D', phaseTitle: 'Smart Restart' } as const;

describe('buildCommitMessage', () => {
  it.each<{ name: string; input: CommitMessageInput; expected: string }>([
    {
      name: 'checkpoint with restart and context figures',
      input: { ...base, purpose: 'checkpoint', restart: 1, maxRestarts: 3, contextPercent: 80.6, contextTokens: 161_200, contextWindow: 200_000 },
      expected: [
        'debussy: checkpoint phase 6D (restart 1/3, context 81%)',
        '',
        'Plan: smart-restart',
        'Phase: 6D Smart Restart',
        'Purpose: checkpoint before a context restart',
        'Restart: 1/3',
        'Context: 161,200 / 200,000 tokens (81%)',
        '',
        'Debussy-Phase: 6D',
      ].join('\n'),
    },
    {
      name: 'phase completed names the title',
      input: { ...base, purpose: 'phase_completed' },
      expected: [
        'debussy: phase 6D Smart Restart completed',
        '',
        'Plan: smart-restart',
        'Phase: 6D Smart Restart',
        'Purpose: phase completed and verified',
        '',
        'Debussy-Phase: 6D',
      ].join('\n'),
    },
    {
      name: 'phase failed carries a one-line reason',
      input: { ...base, purpose: 'phase_failed', restart: 2, reason: 'gate "tests" failed:\n  3 failing' },
      expected: [
        'debussy: phase 6D Smart Restart failed',
        '',
        'Plan: smart-restart',
        'Phase: 6D Smart Restart',
        'Purpose: phase failed; work kept for inspection',
        'Restart: 2',
        'Reason: gate "tests" failed: 3 failing',
        '',
        'Debussy-Phase: 6D',
      ].join('\n'),
    },
    {
      name: 'interrupted, context from tokens and window only',
      input: { planName: 'p', phaseId: '2', purpose: 'interrupted', contextTokens: 50_000, contextWindow: 1_000_000 },
      expected: [
        'debussy: phase 2 interrupted (context 5%)',
        '',
        'Plan: p',
        'Phase: 2',
        'Purpose: run interrupted; work saved before stopping',
        'Context: 50,000 / 1,000,000 tokens (5%)',
        '',
        'Debussy-Phase: 2',
      ].join('\n'),
    },
    {
      name: 'checkpoint with neither restart nor context',
      input: { planName: 'p', phaseId: '3', purpose: 'checkpoint' },
      expected: ['debussy: checkpoint phase 3', '', 'Plan: p', 'Phase: 3', 'Purpose: checkpoint before a context restart', '', 'Debussy-Phase: 3'].join('\n'),
    },
    {
      name: 'newlines in inputs cannot break the subject or the trailer',
      input: { planName: 'two\nlines', phaseId: ' 4\nB ', phaseTitle: 'Title\r\nwith break', purpose: 'phase_completed' },
      expected: ['debussy: phase 4 B Title with break completed', '', 'Plan: two lines', 'Phase: 4 B Title with break', 'Purpose: phase completed and verified', '', 'Debussy-Phase: 4 B'].join('\n'),
    },
    {
      name: 'terminal control sequences in the plan or the reason never reach `git log`',
      input: { planName: 'Hostile\x1b]52;c;ZXZpbA==\x07Plan', phaseId: '5', phaseTitle: 'Clip\x1b[2J\u009b6n\u202eboard', purpose: 'phase_failed', reason: 'gate said \x1b[31mno\x1b[0m\x07' },
      expected: ['debussy: phase 5 Clipboard failed', '', 'Plan: HostilePlan', 'Phase: 5 Clipboard', 'Purpose: phase failed; work kept for inspection', 'Reason: gate said no', '', 'Debussy-Phase: 5'].join('\n'),
    },
  ])('$name', ({ input, expected }) => {
    expect(buildCommitMessage(input)).toBe(expected);
  });

  it('caps a long reason', () => {
    const message = buildCommitMessage({ ...base, purpose: 'phase_failed', reason: 'x'.repeat(1000) });
    const reasonLine = message.split('\n').find((line) => line.startsWith('Reason: ')) ?? '';
    expect(reasonLine.length).toBeLessThanOrEqual('Reason: '.length + 300);
    expect(reasonLine.endsWith('…')).toBe(true);
  });
});
