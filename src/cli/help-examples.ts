/** The Examples section of a command's --help: each command line with what it does. */
export function examples(rows: [command: string, what: string][]): string {
  return `\nExamples:\n${rows.map(([command, what]) => `  $ ${command}\n      ${what}`).join('\n')}\n`;
}
