/**
 * Helpers for the state tests that need real concurrent processes. Child processes cannot import
 * TypeScript, so the state module is transpiled into a temp directory (no bundling, no type check:
 * the same code, just without types) and the child scripts in fixtures/ import it from there.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));

/** Source folders the state module needs at run time (type-only imports vanish when transpiled); its packages come from node_modules. */
const RUNTIME_SOURCES = ['src/state', 'src/process', 'src/errors'];

export async function makeTempDir(prefix: string): Promise<string> {
  return mkdtemp(join(tmpdir(), `debussy-${prefix}-`));
}

/** Transpiles the state module to `<dir>/src/state/index.js` and returns that file's path. */
export async function buildStateModule(dir: string): Promise<string> {
  for (const folder of RUNTIME_SOURCES) {
    for (const name of await readdir(join(repoRoot, folder))) {
      if (!name.endsWith('.ts')) continue;
      const source = await readFile(join(repoRoot, folder, name), 'utf8');
      const { outputText } = ts.transpileModule(source, {
        compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
        fileName: name,
      });
      const out = join(dir, folder, name.replace(/\.ts$/, '.js'));
      await mkdir(dirname(out), { recursive: true });
      await writeFile(out, outputText);
    }
  }
  await writeFile(join(dir, 'package.json'), '{"type":"module"}\n');
  // Its packages (valibot) are the repository's.
  await symlink(join(repoRoot, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return join(dir, 'src/state/index.js');
}

export async function removeDir(dir: string | undefined): Promise<void> {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
}

/** A child process running one of fixtures/, spoken to line by line over stdin/stdout. */
export class ScriptedChild {
  readonly process: ChildProcessWithoutNullStreams;
  private readonly lines: string[] = [];
  private readonly waiting: ((line: string | undefined) => void)[] = [];
  private stderr = '';
  private closed = false;
  readonly exited: Promise<number | null>;

  constructor(script: string, args: string[]) {
    this.process = spawn(process.execPath, [join(fixtures, script), ...args], { stdio: 'pipe' });
    this.process.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    createInterface({ input: this.process.stdout }).on('line', (line) => {
      const waiter = this.waiting.shift();
      if (waiter) waiter(line);
      else this.lines.push(line);
    });
    this.exited = new Promise((resolveExit) => {
      this.process.on('close', (code) => {
        this.closed = true;
        for (const waiter of this.waiting.splice(0)) waiter(undefined);
        resolveExit(code);
      });
    });
  }

  get pid(): number {
    const pid = this.process.pid;
    if (pid === undefined) throw new Error('child did not start');
    return pid;
  }

  /** The next line the child prints; throws (with its stderr) if it exits first. */
  async nextLine(): Promise<string> {
    const queued = this.lines.shift();
    if (queued !== undefined) return queued;
    const line = this.closed ? undefined : await new Promise<string | undefined>((resolveLine) => this.waiting.push(resolveLine));
    if (line === undefined) throw new Error(`child exited before printing a line; stderr:\n${this.stderr}`);
    return line;
  }

  send(line: string): void {
    this.process.stdin.write(`${line}\n`);
  }

  /** Ends the child if it still runs and waits for it to be gone. */
  async stop(): Promise<void> {
    if (!this.closed) this.process.kill('SIGKILL');
    await this.exited;
  }
}

/** A PID that belonged to a process which has exited and been reaped. */
export async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  const pid = child.pid;
  await new Promise((resolveExit) => child.on('close', resolveExit));
  if (pid === undefined) throw new Error('child did not start');
  return pid;
}
