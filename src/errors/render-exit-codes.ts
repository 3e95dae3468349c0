import { EXIT_CODES } from './exit-codes.js';

/** The exit-code table of docs/exit-codes.md, from EXIT_CODES. */
export function renderExitCodeTable(): string {
  const rows = Object.entries(EXIT_CODES).map(([name, { code, meaning }]) => `| ${code} | \`${name}\` | ${meaning} |`);
  return ['| code | name | meaning |', '|---|---|---|', ...rows].join('\n');
}
