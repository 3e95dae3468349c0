/** Builds the reporters a ReporterChoice names, writing to the given streams. */
import { createColors } from './color.js';
import type { ReporterChoice } from './choose-reporters.js';
import { GitHubActionsReporter } from './github-actions.js';
import { JsonReporter } from './json-reporter.js';
import type { LiveTerminal } from './live-reporter.js';
import { PlainReporter } from './plain-reporter.js';
import type { Reporter } from './reporter.js';
import { StepSummaryReporter } from './step-summary.js';
import type { InterceptableStream } from './write-interceptor.js';

export interface ReporterStreams {
  /** The terminal or pipe the run's output goes to (process.stdout). */
  stdout: LiveTerminal;
  /** stderr, when it shows on the same terminal as stdout: the live view keeps its lines above the area. */
  sharedScreen?: InterceptableStream;
  /** For problems of the output itself (an unwritable step summary). */
  warn: (message: string) => void;
}

/**
 * The live view is imported only when chosen: it and its text measuring (string-width, ~20 ms of
 * CPU to load) are not a plain or --json run's cost.
 */
export async function createReporters(choice: ReporterChoice, streams: ReporterStreams): Promise<Reporter[]> {
  const write = (text: string) => void streams.stdout.write(text);
  const colors = createColors(choice.color);
  const reporters: Reporter[] = [];
  if (choice.mode === 'json') {
    reporters.push(new JsonReporter(write));
  } else if (choice.mode === 'live') {
    const { LiveReporter } = await import('./live-reporter.js');
    reporters.push(new LiveReporter(streams.stdout, { colors, unicode: choice.unicode, verbose: choice.verbose, ...(streams.sharedScreen ? { sharedScreen: streams.sharedScreen } : {}) }));
  } else {
    const plain = new PlainReporter(write, { verbose: choice.verbose, timestamps: true, colors });
    reporters.push(choice.githubActions ? new GitHubActionsReporter(write, plain) : plain);
  }
  if (choice.stepSummaryFile !== undefined) reporters.push(new StepSummaryReporter(choice.stepSummaryFile, streams.warn));
  return reporters;
}
