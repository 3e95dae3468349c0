/**
 * What shell completion needs to know about the CLI, read from the commander program itself, so
 * the completion scripts cannot drift from the commands and flags that exist.
 */
import type { Command } from 'commander';

export interface CompletionOption {
  /** Every spelling: `--json`, `-v`, `--version`. */
  flags: string[];
  description: string;
  /** Whether the option takes a value (the next word). */
  takesValue: boolean;
  /** The values it accepts, when commander knows them. */
  choices?: string[];
}

export interface CompletionCommand {
  /** Words from the program to this command: [] for the program, ['plan', 'new'] for `plan new`. */
  path: string[];
  description: string;
  options: CompletionOption[];
  subcommands: { name: string; description: string }[];
  /** Choices of its first positional argument (`completion bash|zsh|fish`); else files complete. */
  argumentChoices?: string[];
}

export interface CompletionSpec {
  program: string;
  commands: CompletionCommand[];
}

/** Every command of `program`, depth first, the program itself first. */
export function describeProgram(program: Command): CompletionSpec {
  const commands: CompletionCommand[] = [];
  const visit = (command: Command, path: string[]): void => {
    const visible = command.commands.filter((sub) => !(sub as unknown as { _hidden?: boolean })._hidden);
    const options: CompletionOption[] = command.options
      .filter((option) => !option.hidden)
      .map((option) => ({
        flags: [option.short, option.long].filter((flag): flag is string => flag !== undefined),
        description: option.description,
        takesValue: option.required || option.optional,
        ...(option.argChoices ? { choices: [...option.argChoices] } : {}),
      }));
    options.push({ flags: path.length === 0 ? ['-h', '--help'] : ['--help'], description: 'show help', takesValue: false });
    const choices = command.registeredArguments[0]?.argChoices;
    commands.push({
      path,
      description: command.description(),
      options,
      subcommands: visible.map((sub) => ({ name: sub.name(), description: sub.description() })),
      ...(choices ? { argumentChoices: [...choices] } : {}),
    });
    for (const sub of visible) visit(sub, [...path, sub.name()]);
  };
  visit(program, []);
  return { program: program.name(), commands };
}

/** The first sentence of a description, for shells that show one line per candidate. */
export function shortDescription(text: string): string {
  const first = /^(.*?[.:])(\s|$)/.exec(text)?.[1] ?? text;
  return first.replace(/[.:]$/, '');
}
