/** `debussy completion bash|zsh|fish`: a completion script for the shell, from the program itself. */
import type { Command } from 'commander';
import { describeProgram } from '../completion/describe-program.js';
import { COMPLETION_SHELLS, renderCompletion, type CompletionShell } from '../completion/render-completion.js';
import { UsageError } from '../../errors/index.js';

export default function completionCommand(shell: string, program: Command): number {
  if (!(COMPLETION_SHELLS as readonly string[]).includes(shell)) throw new UsageError(`no completion for the shell "${shell}"`, `Choose one of ${COMPLETION_SHELLS.join(', ')}.`);
  process.stdout.write(renderCompletion(shell as CompletionShell, describeProgram(program)));
  return 0;
}
