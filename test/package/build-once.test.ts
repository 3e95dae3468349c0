/**
 * The test setup builds dist/ once per change (scripts/build.js --if-changed): it skips tsc when
 * dist/ is the clean build of the sources as they are, and builds after any change to them, to the
 * tsconfig files, or to dist/ itself. On a small project (this project's build script and
 * package.json, node_modules linked, tsconfig files and a source file of its own), so each build
 * takes a second.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../cli/cli-harness.js';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'debussy-build-once-'));
  for (const file of ['package.json', 'scripts/build.js', 'scripts/prepare.js']) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    cpSync(path.join(REPO_ROOT, file), path.join(dir, file));
  }
  symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  // The project's tsconfig files in shape, without Node's types: a build in half a second of CPU.
  write('tsconfig.json', JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2022'], types: [], strict: true, skipLibCheck: true, outDir: 'dist', rootDir: '.' } }));
  write('tsconfig.build.json', JSON.stringify({ extends: './tsconfig.json', compilerOptions: { rootDir: 'src', outDir: 'dist' }, include: ['src'] }));
  write('src/greeting.ts', "export const greeting = 'hello';\n");
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function write(file: string, text: string): void {
  mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  writeFileSync(path.join(dir, file), text);
}

/** Runs the setup's build; says whether tsc ran (it rewrites every output file), and how it ended. */
async function buildIfChanged(): Promise<{ ran: boolean; status: number; output: string }> {
  return runScript(['scripts/build.js', '--if-changed']);
}

async function runScript(args: string[]): Promise<{ ran: boolean; status: number; output: string }> {
  const output = path.join(dir, 'dist/greeting.js');
  const before = existsSync(output) ? statSync(output).mtimeMs : undefined;
  // Not spawnSync: a worker blocked for long under load misses vitest's own RPC deadline.
  const { status, text } = await new Promise<{ status: number; text: string }>((resolve) => {
    execFile(process.execPath, args, { cwd: dir, encoding: 'utf8' }, (error, stdout, stderr) => {
      resolve({ status: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, text: stdout + stderr });
    });
  });
  return { ran: statSync(output).mtimeMs !== before, status, output: text };
}

const emitted = () => readFileSync(path.join(dir, 'dist/greeting.js'), 'utf8');

describe('scripts/build.js --if-changed', () => {
  it('builds, then skips tsc while nothing changed', async () => {
    expect(await buildIfChanged()).toMatchObject({ ran: true, status: 0 });
    expect(emitted()).toContain("'hello'");
    expect(existsSync(path.join(dir, 'dist/.build-stamp'))).toBe(true);
    expect(await buildIfChanged()).toMatchObject({ ran: false, status: 0 });
  });

  it('builds again after a source is edited', async () => {
    write('src/greeting.ts', "export const greeting = 'bonjour';\n");
    expect(await buildIfChanged()).toMatchObject({ ran: true, status: 0 });
    expect(emitted()).toContain("'bonjour'");
  });

  it('builds again after a tsconfig changes', async () => {
    const config = readFileSync(path.join(dir, 'tsconfig.build.json'), 'utf8');
    writeFileSync(path.join(dir, 'tsconfig.build.json'), `${config}\n`);
    expect((await buildIfChanged()).ran).toBe(true);
  });

  it('builds again when dist/ is not what the last build left (an edit by hand, another tsc)', async () => {
    writeFileSync(path.join(dir, 'dist/greeting.js'), 'export const greeting = "edited";\n');
    expect((await buildIfChanged()).ran).toBe(true);
    expect(emitted()).toContain("'bonjour'");
  });

  it('after a build with type errors, builds (and shows them) again next time', async () => {
    write('src/greeting.ts', "export const greeting: number = 'typed wrong';\n");
    const failed = await buildIfChanged();
    expect(failed.status).not.toBe(0);
    expect(failed.output).toMatch(/src\/greeting\.ts\(1,14\): error TS2322/);
    expect(existsSync(path.join(dir, 'dist/.build-stamp'))).toBe(false);
    expect(await buildIfChanged()).toMatchObject({ ran: true, status: failed.status });
  });
});

describe('scripts/prepare.js (npm\'s prepare)', () => {
  // `npm pack <git url>` runs prepare twice in the same clone (at its install, then at its pack):
  // the second found dist/ built and ran tsc again, 13-15 s of CPU for the README's install.
  it('builds once: a second prepare over the same sources skips tsc', async () => {
    write('src/greeting.ts', "export const greeting = 'salut';\n");
    expect(await runScript(['scripts/prepare.js'])).toMatchObject({ ran: true, status: 0 });
    expect(emitted()).toContain("'salut'");
    expect(await runScript(['scripts/prepare.js'])).toMatchObject({ ran: false, status: 0 });
  });

  it('emits without the type check: a type error neither stops an install nor is reported there', async () => {
    write('src/greeting.ts', "export const greeting: number = 'typed wrong';\n");
    const prepared = await runScript(['scripts/prepare.js']);
    expect(prepared).toMatchObject({ ran: true, status: 0 });
    expect(prepared.output).not.toMatch(/error TS/);
    expect(emitted()).toContain("'typed wrong'");
    // An unchecked build does not stand for a checked one: `npm run build`-style builds check, and show it.
    expect(await runScript(['scripts/build.js', '--if-changed', '--no-check'])).toMatchObject({ ran: false, status: 0 });
    const checked = await buildIfChanged();
    expect(checked.status).not.toBe(0);
    expect(checked.output).toMatch(/error TS2322/);
  });
});
