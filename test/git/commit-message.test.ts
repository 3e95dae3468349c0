import { describe, expect, it } from 'vitest';
import { buildCommitMessage, readCommitMessage, type CommitMessageInput, type ReadCommitMessage } from '../../src/git/index.js';

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
    {
      name: 'a queue worker\'s checkpoint carries the progress recorded, one inert line per entry',
      input: { ...base, purpose: 'checkpoint', restart: 1, maxRestarts: 3, progress: ['wrote the router', 'tests:\n\nDebussy-Phase: 9', '\x1b]52;c;ZXZpbA==\x07clipboard', '  '] },
      expected: [
        'debussy: checkpoint phase 6D (restart 1/3)',
        '',
        'Plan: smart-restart',
        'Phase: 6D Smart Restart',
        'Purpose: checkpoint before a context restart',
        'Restart: 1/3',
        'Progress:',
        '- wrote the router',
        '- tests: Debussy-Phase: 9',
        '- clipboard',
        '',
        'Debussy-Phase: 6D',
      ].join('\n'),
    },
    {
      name: 'no progress recorded: no section',
      input: { planName: 'p', phaseId: '2', purpose: 'interrupted', restart: 0, progress: [] },
      expected: ['debussy: phase 2 interrupted (restart 0)', '', 'Plan: p', 'Phase: 2', 'Purpose: run interrupted; work saved before stopping', 'Restart: 0', '', 'Debussy-Phase: 2'].join('\n'),
    },
  ])('$name', ({ input, expected }) => {
    expect(buildCommitMessage(input)).toBe(expected);
  });

  it('keeps the newest 20 progress entries, each cut to 300 characters, and says how many went', () => {
    const progress = Array.from({ length: 23 }, (_, i) => `step ${i + 1} ${'x'.repeat(i === 22 ? 1000 : 0)}`.trim());
    const lines = buildCommitMessage({ ...base, purpose: 'checkpoint', progress }).split('\n');
    const at = lines.indexOf('Progress:');
    expect(lines[at + 1]).toBe('(3 earlier entries not kept)');
    expect(lines[at + 2]).toBe('- step 4');
    expect(lines.filter((line) => line.startsWith('- '))).toHaveLength(20);
    expect(lines[at + 21]?.length).toBe('- '.length + 300);
  });

  it('caps a long reason', () => {
    const message = buildCommitMessage({ ...base, purpose: 'phase_failed', reason: 'x'.repeat(1000) });
    const reasonLine = message.split('\n').find((line) => line.startsWith('Reason: ')) ?? '';
    expect(reasonLine.length).toBeLessThanOrEqual('Reason: '.length + 300);
    expect(reasonLine.endsWith('…')).toBe(true);
  });
});

describe('readCommitMessage', () => {
  const body = (message: string) => message.split('\n').slice(2).join('\n');

  it('reads back what buildCommitMessage wrote: the phase, the purpose, the restarts, the progress', () => {
    const message = buildCommitMessage({ ...base, purpose: 'checkpoint', restart: 2, maxRestarts: 3, reason: 'context at 82%', progress: ['wrote the router', 'started the tests'] });
    const expected: ReadCommitMessage = { phaseId: '6D', purpose: 'checkpoint', restart: 2, progress: ['wrote the router', 'started the tests'] };
    expect(readCommitMessage(message)).toEqual(expected);
    expect(readCommitMessage(body(message))).toEqual(expected);
  });

  it('reads the entries kept after the count of those that went', () => {
    const progress = Array.from({ length: 22 }, (_, i) => `step ${i + 1}`);
    expect(readCommitMessage(buildCommitMessage({ ...base, purpose: 'interrupted', progress })).progress).toEqual(progress.slice(2));
  });

  it.each<[string, string, ReadCommitMessage]>([
    ['a commit the agent made itself', 'add the router\n\nwith its tests', { progress: [] }],
    ['an interrupted commit of restart 0', 'debussy: phase 2 interrupted (restart 0)\n\nPurpose: run interrupted; work saved before stopping\nRestart: 0\n\nDebussy-Phase: 2', { phaseId: '2', purpose: 'interrupted', restart: 0, progress: [] }],
    ['a purpose this debussy does not write', 'x\n\nPurpose: something else\n\nDebussy-Phase: 2', { phaseId: '2', progress: [] }],
    ['a restart that is no count', 'x\n\nRestart: many\n\nDebussy-Phase: 2', { phaseId: '2', progress: [] }],
    ['entries end at the first line that is none', 'x\n\nProgress:\n- one\nnot an entry\n- two\n\nDebussy-Phase: 2', { phaseId: '2', progress: ['one'] }],
    ['control sequences in an entry pushed by someone else', 'x\n\nProgress:\n- \x1b[2Jclean\u202e me\n\nDebussy-Phase: 2', { phaseId: '2', progress: ['clean me'] }],
  ])('%s', (_name, message, expected) => {
    expect(readCommitMessage(message)).toEqual(expected);
  });

  it('bounds what a message from a remote can hand over: 20 entries of 300 characters', () => {
    const message = ['x', '', 'Progress:', ...Array.from({ length: 500 }, (_, i) => `- ${i} ${'y'.repeat(5000)}`), '', 'Debussy-Phase: 2'].join('\n');
    const { progress } = readCommitMessage(message);
    expect(progress).toHaveLength(20);
    expect(progress[0]?.startsWith('480 ')).toBe(true);
    expect(Math.max(...progress.map((entry) => entry.length))).toBe(300);
  });
});
