/**
 * Appends the run's markdown summary to the file GitHub Actions names in $GITHUB_STEP_SUMMARY, so
 * the job page shows the per-phase table. A file that cannot be written is a warning, not a failure.
 */
import { appendFileSync } from 'node:fs';
import type { RunState } from '../state/index.js';
import type { Reporter } from './reporter.js';
import { renderMarkdownSummary } from './run-summary.js';
import { errorMessage } from '../errors/error-message.js';

export class StepSummaryReporter implements Reporter {
  constructor(
    private readonly file: string,
    private readonly warn: (message: string) => void,
  ) {}

  runFinished(state: RunState, resumeCommand: string | undefined): void {
    try {
      appendFileSync(this.file, `${renderMarkdownSummary(state, resumeCommand)}\n`);
    } catch (error) {
      this.warn(`could not write the step summary to ${this.file}: ${errorMessage(error)}`);
    }
  }
}
