/**
 * The permissions `debussy init` writes into the config: an explicit choice that lets an
 * unattended phase work (edit the project's files, run the project's own build and test tools),
 * with what it risks said next to it. Pure: the project's top-level file names in, the choice out.
 */
import type { ConfigFileChoices } from '../config/render-reference.js';

/** Commands of the tool chains a project's files show, as Claude Code allow rules. */
const TOOLCHAINS: readonly { marker: readonly string[]; name: string; rules: readonly string[] }[] = [
  { marker: ['package.json'], name: 'npm', rules: ['Bash(npm test:*)', 'Bash(npm run:*)', 'Bash(npm install:*)', 'Bash(npx:*)', 'Bash(node:*)'] },
  { marker: ['pnpm-lock.yaml'], name: 'pnpm', rules: ['Bash(pnpm:*)'] },
  { marker: ['yarn.lock'], name: 'yarn', rules: ['Bash(yarn:*)'] },
  { marker: ['pyproject.toml', 'setup.py', 'requirements.txt'], name: 'Python', rules: ['Bash(pytest:*)', 'Bash(python -m:*)', 'Bash(python3 -m:*)', 'Bash(ruff:*)', 'Bash(mypy:*)'] },
  { marker: ['Cargo.toml'], name: 'cargo', rules: ['Bash(cargo build:*)', 'Bash(cargo test:*)', 'Bash(cargo check:*)', 'Bash(cargo clippy:*)', 'Bash(cargo fmt:*)'] },
  { marker: ['go.mod'], name: 'Go', rules: ['Bash(go build:*)', 'Bash(go test:*)', 'Bash(go vet:*)', 'Bash(gofmt:*)'] },
  { marker: ['Makefile', 'makefile', 'GNUmakefile'], name: 'make', rules: ['Bash(make:*)'] },
];

/** Looking around is harmless and every phase needs it. */
const ALWAYS: readonly string[] = ['Bash(git status:*)', 'Bash(git diff:*)', 'Bash(git log:*)', 'Bash(git show:*)', 'Bash(mkdir:*)'];

export interface PermissionChoice {
  permission_mode: 'acceptEdits';
  allowed_tools: string[];
  /** The tool chains the rules came from, e.g. ["npm", "make"]. */
  toolchains: string[];
}

export function choosePermissions(projectFiles: readonly string[]): PermissionChoice {
  const present = new Set(projectFiles);
  const found = TOOLCHAINS.filter((chain) => chain.marker.some((file) => present.has(file)));
  return {
    permission_mode: 'acceptEdits',
    allowed_tools: [...new Set([...found.flatMap((chain) => chain.rules), ...ALWAYS])],
    toolchains: found.map((chain) => chain.name),
  };
}

/** The choice as config-file values with its comment block. */
export function permissionConfigChoices(choice: PermissionChoice): ConfigFileChoices {
  const from = choice.toolchains.length === 0 ? 'no build tool was recognised: add your test and build commands' : `the ${choice.toolchains.join(', ')} commands this project's files point to`;
  return {
    values: { permission_mode: choice.permission_mode, allowed_tools: choice.allowed_tools },
    groupNotes: {
      permissions: [
        'A `claude -p` session has nobody to answer a permission prompt: a tool call that needs approval',
        'is refused, and a phase that ends after refusals stops the run (exit 7). debussy always allows',
        "the agent's own `debussy done` and `debussy progress`.",
        '`debussy init` chose the values below so an unattended phase can work: acceptEdits lets the agent',
        `create and edit files in the project; allowed_tools lets it run ${from}.`,
        'RISK: the agent edits any file in the project and runs these commands with your rights; it can',
        'change what `npm test` or `make` execute, so this is as good as running code it wrote. Run',
        'unattended phases in a container, a VM or a throwaway checkout, with no secrets within reach.',
        'Stricter: permission_mode "default" with one allowed_tools rule per command. Looser:',
        '"bypassPermissions" (no checks at all; as root only with IS_SANDBOX=1). See permissions.md in the',
        'docs folder of the reference named at the top of this file.',
      ],
    },
  };
}
