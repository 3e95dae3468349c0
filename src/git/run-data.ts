/**
 * debussy's own run data inside the project (journals, session streams, the lock). It is never
 * committed and never counts as the user's work, whatever the project's .gitignore says.
 * Paths are relative to the project root.
 */
export const DEBUSSY_RUN_DATA_PATHS: readonly string[] = ['.debussy/runs', '.debussy/run.lock', '.debussy/project.ndjson'];

/** Git pathspecs that exclude `paths` (relative to the directory git runs in). */
export function excludePathspecs(paths: readonly string[]): string[] {
  return paths.map((path) => `:(exclude)${path}`);
}

/**
 * The pathspec list every query and commit uses: everything under the root, minus debussy's run
 * data, minus `extraExcludes`. Meant to follow a `--`.
 */
export function scopePathspecs(extraExcludes: readonly string[] = []): string[] {
  return ['.', ...excludePathspecs([...DEBUSSY_RUN_DATA_PATHS, ...extraExcludes])];
}
