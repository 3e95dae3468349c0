import { describe, expect, it } from 'vitest';
import type { Checkpoint } from '../../src/checkpoint/index.js';
import { describeWorkState, renderCheckpoint } from '../../src/prompt/restart-prompt.js';

const checkpoint: Checkpoint = {
  phaseId: '2', phaseTitle: 'API', sessionNumber: 3, reason: 'run r1 was interrupted during this phase',
  progress: ['wrote the router', 'started the tests'], changedFiles: ['src/api.ts'], diffSummary: '', lastActivity: ['Bash: npm test'],
  commits: ['abc1234567 debussy: phase 2 API interrupted (restart 0)'], uncommittedFiles: 0,
};

describe('describeWorkState', () => {
  it.each<[string, Pick<Checkpoint, 'commits' | 'uncommittedFiles'>, string]>([
    ['committed, clean tree', { commits: ['c1'], uncommittedFiles: 0 }, 'Its work is committed (see the commits below); the working tree has nothing uncommitted.'],
    ['committed and more in the tree', { commits: ['c1'], uncommittedFiles: 2 }, 'Its work is partly committed (see the commits below); in the working tree, 2 files differ from the last commit, not committed yet.'],
    ['only in the tree', { commits: [], uncommittedFiles: 1 }, 'Its work is not committed: it is in the working tree (1 file differs from the last commit).'],
    ['nothing at all', { commits: [], uncommittedFiles: 0 }, 'It left no changes: nothing is committed and the working tree is clean.'],
    ['no git: commits known from the journal', { commits: ['c1'] }, 'Its work is kept and committed.'],
    ['no git, no commits', { commits: [] }, 'Its work is kept in the working tree.'],
  ])('%s', (_name, input, expected) => {
    expect(describeWorkState(input)).toBe(expected);
  });
});

describe('renderCheckpoint', () => {
  it('numbers the progress, lists commits and the last activity, and says where the work is', () => {
    const text = renderCheckpoint(checkpoint);
    expect(text).toContain('An earlier session of this phase ended: run r1 was interrupted during this phase. Its work is committed');
    expect(text).toContain('## Progress recorded so far\n1. wrote the router\n2. started the tests');
    expect(text).toContain('## Commits made in this phase\n- abc1234567 debussy: phase 2 API interrupted (restart 0)');
    expect(text).toContain('## What the previous session was doing last\n- Bash: npm test');
  });

  it('says so when nothing was recorded', () => {
    const text = renderCheckpoint({ ...checkpoint, progress: [], lastActivity: [], commits: [] });
    expect(text).toContain('(none recorded: inspect the changed files)');
    expect(text).toContain('(nothing recorded)');
    expect(text).not.toContain('## Commits made in this phase');
  });
});
