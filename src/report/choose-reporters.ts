/**
 * Which output a run gets, decided in one place from the flags, the environment and whether
 * stdout is a terminal. Pure; create-reporters.ts builds what this chooses.
 */
import { colorEnabled } from './color.js';

type Env = Readonly<Record<string, string | undefined>>;

export interface OutputFlags {
  plain?: boolean;
  json?: boolean;
  verbose?: boolean;
}

/** live: the pinned status area; plain: one line per event; json: NDJSON only. */
export type OutputMode = 'live' | 'plain' | 'json';

export interface ReporterChoice {
  mode: OutputMode;
  /** `::group::` and annotations in the log (GitHub Actions, text modes only). */
  githubActions: boolean;
  /** Where to append the markdown summary at the end ($GITHUB_STEP_SUMMARY under GitHub Actions). */
  stepSummaryFile: string | undefined;
  color: boolean;
  unicode: boolean;
  verbose: boolean;
}

/** CI=true (or any value but `false`/`0`): a log, not a screen. */
export function isCI(env: Env): boolean {
  const ci = env.CI;
  return ci !== undefined && ci !== '' && ci !== '0' && ci.toLowerCase() !== 'false';
}

/** Unicode bars and spinners unless the locale says the terminal cannot show them. */
export function unicodeEnabled(env: Env): boolean {
  if (env.TERM === 'linux' || env.TERM === 'dumb') return false;
  const locale = env.LC_ALL || env.LC_CTYPE || env.LANG;
  return locale === undefined || locale === '' || /utf-?8/i.test(locale);
}

export function chooseReporters(input: { flags: OutputFlags; env: Env; isTTY: boolean }): ReporterChoice {
  const { flags, env, isTTY } = input;
  const githubActions = env.GITHUB_ACTIONS === 'true';
  const summaryFile = githubActions && env.GITHUB_STEP_SUMMARY ? env.GITHUB_STEP_SUMMARY : undefined;
  const verbose = flags.verbose === true;
  if (flags.json) {
    // stdout carries NDJSON only: no groups or annotations there; the summary file is still useful.
    return { mode: 'json', githubActions: false, stepSummaryFile: summaryFile, color: false, unicode: false, verbose };
  }
  const live = !flags.plain && isTTY && !isCI(env) && !githubActions && env.TERM !== 'dumb';
  return {
    mode: live ? 'live' : 'plain',
    githubActions,
    stepSummaryFile: summaryFile,
    color: colorEnabled(env, isTTY),
    unicode: unicodeEnabled(env),
    verbose,
  };
}
