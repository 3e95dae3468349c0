/**
 * Commands named in prose ("Run `npm test` and ...", "verify that 'npm run build' succeeds"): the
 * checks a source gives for a task without a field for them. A gate runs unattended, so only a
 * command that checks is taken: test runners, linters, type checkers, builds. "Run `npm run seed`"
 * or "`rm -rf dist`" stay in the text. Commands a format gives in a field of their own (GSD's
 * `<automated>`, ralph's `verificationCommands`) are taken as written, without this filter.
 */

/** What checks: each pattern matches the start of one simple command. */
const CHECKS: RegExp[] = [
  /^(?:npm|pnpm|yarn|bun)\s+(?:run\s+|run-script\s+)?(?:test|t|lint|typecheck|type-check|types|check|build|verify|ci|validate|format:check|fmt:check|[\w.-]*:(?:test|lint|check|types|unit|e2e|integration)[\w:.-]*|(?:test|lint|check|typecheck)[\w:.-]*)(?=\s|$)/,
  /^(?:npx|bunx|pnpm\s+(?:exec|dlx)|yarn\s+(?:exec|dlx))\s+(?:--\S+\s+)*(?:tsc|vue-tsc|eslint|vitest|jest|mocha|ava|tap|c8|nyc|knip|playwright\s+test|cypress\s+run|prettier\s+(?:--check|-c)|biome\s+(?:check|lint|ci)|stylelint|markdownlint|tsd)(?=\s|$)/,
  /^(?:tsc|vue-tsc|eslint|vitest|jest|mocha|pytest|py\.test|mypy|pyright|flake8|pylint|tox|nox|phpunit|phpstan|pest|rspec|rubocop|golangci-lint|staticcheck|shellcheck|hadolint|ctest|bats|stylelint|markdownlint)(?=\s|$)/,
  /^(?:ruff\s+(?:check|format\s+--check)|black\s+--check|isort\s+--check(?:-only)?|prettier\s+(?:--check|-c)|biome\s+(?:check|lint|ci))(?=\s|$)/,
  /^(?:python3?|py)\s+-m\s+(?:pytest|unittest|mypy|ruff|pyright|tox|flake8|pylint|compileall)(?=\s|$)/,
  /^(?:uv|poetry|pipenv|hatch|pdm|rye)\s+run\s+(?:(?:python3?|py)\s+-m\s+)?(?:pytest|mypy|ruff|pyright|tox|flake8|pylint|unittest|test|lint|check)(?=\s|$)/,
  /^go\s+(?:test|vet|build)(?=\s|$)/,
  /^cargo\s+(?:test|check|clippy|build|nextest|fmt\s+(?:--all\s+)?(?:--\s+)?--check)(?=\s|$)/,
  /^make(?:\s+-\S+)*(?:\s+(?:test|tests|check|lint|build|ci|verify|all|typecheck|[\w.-]*(?:test|check|lint)[\w.-]*))?\s*$/,
  /^(?:\.\/gradlew|gradle)\s+(?:\S+\s+)*?(?:test|check|build|lint|assemble)(?=\s|$)/,
  /^(?:\.\/mvnw|mvn)\s+(?:\S+\s+)*?(?:test|verify|package|compile)(?=\s|$)/,
  /^dotnet\s+(?:test|build)(?=\s|$)/,
  /^deno\s+(?:test|lint|check|fmt\s+--check|task\s+(?:test|lint|check))(?=\s|$)/,
  /^(?:bundle\s+exec\s+)?(?:rspec|rubocop|rake(?:\s+(?:test|spec))?)(?=\s|$)/,
  /^(?:php\s+artisan\s+test|composer\s+(?:test|lint|check|analyse)|(?:\.\/)?vendor\/bin\/(?:phpunit|phpstan|pest|psalm))(?=\s|$)/,
  /^(?:swift\s+(?:test|build)|xcodebuild\s+(?:\S+\s+)*test|flutter\s+(?:test|analyze)|dart\s+(?:test|analyze)|mix\s+(?:test|credo|compile|format\s+--check-formatted))(?=\s|$)/,
  /^(?:turbo|nx)\s+(?:run(?:-many)?\s+|affected\s+)?(?:(?:-t|--target(?:=|\s+))\s*)?(?:test|lint|build|typecheck|check)(?=\s|$)/,
  // A project's own check script: scripts/test.sh, ./bin/check, bash scripts/verify-all.sh.
  /^(?:(?:bash|sh)\s+)?(?:\.\/)?(?:scripts?|bin|tools)\/[\w./-]*(?:test|check|lint|verify|ci)[\w.-]*(?=\s|$)/,
];

/** `cd dir` before a check changes where it runs, not what it is. */
const CD = /^cd\s+\S+$/;
/** Leading `VAR=value` assignments (`CI=1 npm test`). */
const ASSIGNMENTS = /^(?:[A-Z_][A-Z0-9_]*=\S*\s+)+/;

/**
 * True when `command` checks something: each part joined by `&&` is a known check (or a `cd`), and
 * nothing redirects, pipes, substitutes or chains with `;`, which could make a failure pass.
 */
export function looksLikeCheckCommand(command: string): boolean {
  const text = command.trim();
  if (text === '' || text.length > 300 || /[;|<>&`\n]|\$\(/.test(text.replace(/&&/g, ''))) return false;
  const parts = text.split('&&').map((part) => part.trim().replace(ASSIGNMENTS, ''));
  return parts.some((part) => !CD.test(part)) && parts.every((part) => CD.test(part) || CHECKS.some((pattern) => pattern.test(part)));
}

/**
 * The check commands quoted in prose, in order, each once: code spans, 'single' or "double"
 * quoted text, and the lines of fenced blocks. A `$ ` prompt is dropped.
 */
export function checkCommandsIn(text: string): string[] {
  const candidates: string[] = [];
  for (const block of text.matchAll(/^\s*(`{3,}|~{3,})[^\n]*\n([\s\S]*?)^\s*\1\s*$/gm)) {
    candidates.push(...(block[2] ?? '').split('\n'));
  }
  const prose = text.replace(/^\s*(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\s*\1\s*$/gm, ' ');
  for (const quoted of prose.matchAll(/`([^`\n]+)`|(?<![\w'])'([^'\n]+)'(?![\w'])|"([^"\n]+)"/g)) {
    candidates.push(quoted[1] ?? quoted[2] ?? quoted[3] ?? '');
  }
  // Inside the quotes, a trailing dot is the command's own (`ruff check .`).
  const commands = candidates.map((candidate) => candidate.trim().replace(/^\$\s+/, '')).filter(looksLikeCheckCommand);
  return [...new Set(commands)];
}

const NAMES: [RegExp, string][] = [
  [/\b(?:tsc|vue-tsc|mypy|pyright|typecheck|type-check|types|tsd)\b|\bdeno\s+check\b/, 'typecheck'],
  [/\b(?:lint|eslint|ruff|flake8|pylint|clippy|rubocop|golangci-lint|staticcheck|shellcheck|credo|stylelint|markdownlint|vet|analy[sz]e|phpstan|psalm|biome)\b/, 'lint'],
  [/\b(?:prettier|black|isort|fmt|format)\b/, 'format'],
  [/\b(?:test|tests|t|pytest|jest|vitest|mocha|rspec|phpunit|pest|unittest|tox|nox|ctest|bats|ava|tap|playwright|cypress|spec|nextest|e2e|unit)\b/, 'tests'],
  [/\b(?:build|compile|assemble|package)\b/, 'build'],
];

/** A short gate name for a command: `npm test` -> tests, `npx tsc --noEmit` -> typecheck. */
export function gateNameFor(command: string): string {
  for (const [pattern, name] of NAMES) if (pattern.test(command)) return name;
  return 'check';
}
