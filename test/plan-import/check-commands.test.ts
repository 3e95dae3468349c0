/** Which commands quoted in prose become gates: only ones that check, since gates run unattended. */
import { describe, expect, it } from 'vitest';
import { checkCommandsIn, gateNameFor, looksLikeCheckCommand } from '../../src/plan-import/check-commands.js';

describe('looksLikeCheckCommand', () => {
  it.each([
    'npm test', 'npm run lint', 'npm run test:unit', 'pnpm typecheck', 'yarn build', 'bun test', 'npm t',
    'npx tsc --noEmit', 'npx vitest run test/a.test.ts', 'npx eslint .', 'npx playwright test', 'tsc --noEmit',
    'pytest tests/test_units.py', 'python -m pytest', 'python3 -m mypy src', 'ruff check .', 'uv run pytest -x', 'poetry run pytest',
    'go test ./...', 'go vet ./...', 'cargo test', 'cargo clippy -- -D warnings', 'cargo fmt --check', 'make test', 'make',
    './gradlew test', 'mvn -q verify', 'dotnet test', 'deno test', 'bundle exec rspec', 'php artisan test', 'vendor/bin/phpunit',
    'swift test', 'flutter test', 'flutter analyze', 'mix test', 'scripts/check-all.sh', 'bash scripts/verify.sh',
    'CI=1 npm test', 'cd web && npm test', 'npm run build && npm test',
  ])('%s checks', (command) => {
    expect(looksLikeCheckCommand(command)).toBe(true);
  });

  it.each([
    'npm install', 'npm run seed', 'npm publish', 'npm run dev', 'rm -rf dist', 'git push', 'task-master update', 'python3 -m ingest.generator --users 75',
    'npm test | tee log', 'npm test; rm -rf x', 'npm test > out.txt', 'npm test &', 'echo $(npm test)', 'cd web', 'curl -X POST /api', 'ls -R src',
    'make deploy', 'docker compose up', '',
  ])('%s does not', (command) => {
    expect(looksLikeCheckCommand(command)).toBe(false);
  });
});

describe('checkCommandsIn', () => {
  it.each([
    { text: 'Run `npm test` and check that the sample test passes.', expected: ['npm test'] },
    // Taskmaster files in the wild quote commands in single quotes.
    { text: "Verify that 'npm run build' generates a valid dist folder; run 'tsc --noEmit'.", expected: ['npm run build', 'tsc --noEmit'] },
    { text: 'Run "cargo check" then `cargo test`.', expected: ['cargo check', 'cargo test'] },
    { text: 'Run `python -m pytest` and `ruff check .`; both must pass.', expected: ['python -m pytest', 'ruff check .'] },
    { text: 'Start the app with `npm run dev` and click around; `npm test` must pass; `npm test` again.', expected: ['npm test'] },
    { text: 'Check it:\n```bash\n$ npm run lint\nnpm run seed\n```\n', expected: ['npm run lint'] },
    { text: "Unit tests for the parser; it's the user's call what 'done' means.", expected: [] },
    { text: 'Manual verification in chrome://extensions.', expected: [] },
  ])('$text', ({ text, expected }) => {
    expect(checkCommandsIn(text)).toEqual(expected);
  });
});

describe('gateNameFor', () => {
  it.each([
    ['npm test', 'tests'], ['npx vitest run x.test.ts', 'tests'], ['pytest', 'tests'], ['npm run lint', 'lint'], ['ruff check .', 'lint'],
    ['npx tsc --noEmit', 'typecheck'], ['npm run typecheck', 'typecheck'], ['npm run build', 'build'], ['cargo check', 'check'], ['make', 'check'],
  ])('%s -> %s', (command, name) => {
    expect(gateNameFor(command)).toBe(name);
  });
});
