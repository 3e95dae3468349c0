/**
 * Text from a plan or the command line on its way into a workflow file. The `yaml` package quotes
 * whatever YAML needs; what it cannot know is that GitHub evaluates `${{ }}` in most string values
 * (names, `env:`, `with:`), so text from a plan never reaches a value with an expression intact.
 * Pure.
 */
import { inertLine } from '../text/inert-text.js';

/** A plan's title or name for a `name:`: one inert line, its `${{` broken up so GitHub shows it instead of evaluating it. */
export function displayText(text: string): string {
  return inertLine(text).replace(/\$\{\{/g, '$ {{');
}

/**
 * Why a path cannot be written into a workflow as it is, or undefined: GitHub would evaluate an
 * expression in it, and a control character (a line end) would break the commit trailer and the
 * log lines that name it.
 */
export function unsafePathProblem(path: string): string | undefined {
  if (path.includes('${{')) return 'it holds `${{`, which GitHub would evaluate as an expression';
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x1f\x7f]/.test(path)) return 'it holds a control character (a line end, a tab)';
  return undefined;
}

/**
 * The plan's part of its phase branches' names (`debussy/<run branch>/<slug>/<phase>`): the plan's
 * folder (`plans/billing/MASTER_PLAN.md` -> `billing`), or the file's name for a plan at the root,
 * cut to characters every git ref and artifact name takes.
 */
export function planSlug(planPath: string): string {
  const parts = planPath.split('/');
  const file = parts.pop() ?? '';
  const name = parts.pop() ?? file.replace(/\.[^.]*$/, '');
  const slug = name.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '');
  return slug === '' ? 'plan' : slug;
}
