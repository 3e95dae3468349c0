/** The .gitignore lines `debussy init` makes sure of. Pure. */

/**
 * debussy's run data (journals, session logs, the lock, project marks): the same paths the git
 * module never commits (src/git/run-data.ts), written as ignore patterns.
 */
export const GITIGNORE_ENTRIES: readonly string[] = ['.debussy/runs/', '.debussy/run.lock', '.debussy/project.ndjson'];

const HEADER = '# debussy run data (journals, session logs, the run lock)';

/** `/a/b/` and `a/b` name the same thing for our purpose: compare without the slashes. */
function normalise(line: string): string {
  return line.trim().replace(/^\//, '').replace(/\/+$/, '');
}

/**
 * The .gitignore text with the missing entries appended under a comment, and which entries were
 * added. Lines already there (in any of the equivalent spellings) are never repeated, and nothing
 * the user wrote is changed.
 */
export function addGitignoreEntries(existing: string | undefined, entries: readonly string[] = GITIGNORE_ENTRIES): { text: string; added: string[] } {
  const current = existing ?? '';
  const present = new Set(current.split(/\r?\n/).map(normalise));
  const added = entries.filter((entry) => !present.has(normalise(entry)));
  if (added.length === 0) return { text: current, added };
  const separator = current === '' ? '' : current.endsWith('\n') ? '\n' : '\n\n';
  const header = present.has(HEADER) ? [] : [HEADER];
  return { text: `${current}${separator}${[...header, ...added].join('\n')}\n`, added };
}
