/**
 * What a failing gate says failed, read from its output as it streams: the failing tests' names
 * when a test runner names them (vitest, jest, node:test, mocha, pytest, unittest, go test, cargo,
 * TAP, rspec), else the lines that look like errors. A baseline compares these, not just the exit
 * status, to tell a failure the phase inherited from one it introduced (baseline.ts). Pure, apart
 * from the collector's own buffer.
 */

/** What the output says failed: test names (`tests`) or error lines (`lines`). */
export interface FailureList {
  by: 'tests' | 'lines';
  items: string[];
}

/** Enough for any suite debussy should judge by names; a longer list is cut (and says so by its length). */
export const MAX_FAILURE_ITEMS = 200;
const MAX_ITEM_CHARS = 200;

// eslint-disable-next-line no-control-regex -- ANSI colour and cursor sequences are what is removed
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)/g;
const DURATION = /\s+\(?\d+(?:\.\d+)?\s?(?:ms|s|m)\)?$/;

/** A runner's failing-test line, and where its name is. In order: the first match names the test. */
const TEST_LINES: readonly RegExp[] = [
  /^\s*--- FAIL: (\S+)/, // go test (also subtests)
  /^test (\S+) \.\.\. FAILED$/, // cargo test
  /^(?:FAILED|ERROR) (\S+?)(?: - .*)?$/, // pytest's short summary
  /^(\S+::\S+) (?:FAILED|ERROR)\b/, // pytest -v
  /^(?:FAIL|ERROR): (\S+ \([^)]*\))/, // unittest
  /^not ok \d+ (?:- )?(.+)$/, // TAP
  /^rspec (\S+)/, // rspec's rerun list
  /^\s*(?:FAIL|[×✕✗✘✖])\s+(.+)$/, // vitest, jest, node:test; go's package line `FAIL\tpkg\t0.01s`
  /^\s*● (?!Console$)(.+)$/, // jest's failure headings (not its console blocks)
];
const MOCHA_TEST = /^\s+\d+\) (.+?):?$/;
const MOCHA_SUMMARY = /^\s*\d+ failing\b/;
const ERROR_LINE = /\b(?:error|errors|failed|failure|fatal|panic|exception|cannot|can't|not found|missing|undefined reference|denied)\b|[×✕✗✘✖]/i;

/** A line as compared: colours gone, spaces collapsed, no trailing duration. */
function clean(line: string): string {
  return line.replace(ANSI, '').replace(/\s+/g, ' ').trim().replace(DURATION, '').slice(0, MAX_ITEM_CHARS);
}

/** The test a line names as failing, if it is a runner's failing-test line. */
export function failingTestOf(line: string): string | undefined {
  const plain = line.replace(ANSI, '').replace(/\r$/, '');
  for (const pattern of TEST_LINES) {
    const name = pattern.exec(plain)?.[1];
    if (name !== undefined) {
      const cleaned = clean(name);
      if (cleaned !== '') return cleaned;
    }
  }
  return undefined;
}

/** Collects a gate's failure list from its output, chunk by chunk: any length, bounded memory. */
export class FailureCollector {
  private partial = '';
  private readonly tests = new Set<string>();
  private readonly mocha = new Set<string>();
  private mochaSummary = false;
  private readonly errors = new Map<string, string>();

  push(chunk: string): void {
    const lines = (this.partial + chunk).split('\n');
    this.partial = lines.pop() ?? '';
    // A line longer than any runner writes is kept only as far as it is compared.
    if (this.partial.length > 4 * MAX_ITEM_CHARS) this.partial = this.partial.slice(0, 4 * MAX_ITEM_CHARS);
    for (const line of lines) this.line(line);
  }

  /** The list, once the output has ended; undefined when the output names nothing that failed. */
  end(): FailureList | undefined {
    if (this.partial !== '') this.line(this.partial);
    this.partial = '';
    const tests = [...this.tests, ...(this.mochaSummary ? this.mocha : [])];
    if (tests.length > 0) return { by: 'tests', items: tests.slice(0, MAX_FAILURE_ITEMS) };
    if (this.errors.size > 0) return { by: 'lines', items: [...this.errors.values()] };
    return undefined;
  }

  private line(line: string): void {
    const test = failingTestOf(line);
    if (test !== undefined) {
      if (this.tests.size < MAX_FAILURE_ITEMS) this.tests.add(test);
      return;
    }
    const plain = line.replace(ANSI, '');
    if (MOCHA_SUMMARY.test(plain)) this.mochaSummary = true;
    const mocha = MOCHA_TEST.exec(plain)?.[1];
    if (mocha !== undefined && this.mocha.size < MAX_FAILURE_ITEMS) this.mocha.add(clean(mocha));
    if (ERROR_LINE.test(plain) && this.errors.size < MAX_FAILURE_ITEMS) {
      const shown = clean(plain);
      const key = comparable(shown);
      if (key !== '' && !this.errors.has(key)) this.errors.set(key, shown);
    }
  }
}

/** The failure list of a whole text (a recorded output tail). */
export function failuresIn(text: string): FailureList | undefined {
  const collector = new FailureCollector();
  collector.push(text);
  return collector.end();
}

/**
 * A line as two runs are compared on: numbers (counts, line numbers, times, ids) made equal, so a
 * run is not "different" for its timings. Test names are compared as they are.
 */
export function comparable(line: string): string {
  return clean(line).replace(/\d+/g, '#');
}
