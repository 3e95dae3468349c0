/** The claude command line debussy runs: print mode, the full event stream, request starts. Pure. */
export const CLAUDE_STREAM_FLAGS: readonly string[] = ['-p', '--output-format', 'stream-json', '--verbose', '--include-partial-messages'];

export function buildClaudeArgs(input: { model?: string; extraArgs: string[]; resumeSessionId?: string }): string[] {
  return [
    ...CLAUDE_STREAM_FLAGS,
    ...(input.model === undefined || input.model === '' ? [] : ['--model', input.model]),
    ...(input.resumeSessionId === undefined || input.resumeSessionId === '' ? [] : ['--resume', input.resumeSessionId]),
    ...input.extraArgs,
  ];
}
