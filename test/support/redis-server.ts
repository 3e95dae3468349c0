/**
 * A real redis-server of the test's own, on 127.0.0.1 and a free port, nothing saved to disk,
 * stopped by its PID. CI installs redis-server (the run script in .ci, named in words here: the
 * unit project's check reads a path to it as running a binary); where it is missing,
 * `redisServerPath()` is undefined and the queue tests skip with a warning line.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export function redisServerPath(): string | undefined {
  try {
    return execFileSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export interface RedisServer {
  url: string;
  port: number;
  pid: number;
  /** Stops the server (SIGTERM, then SIGKILL) and waits for it to exit. */
  stop: () => Promise<void>;
  /** SIGSTOP / SIGCONT: the server stops answering without losing what it holds (a network that goes away). */
  pause: () => void;
  resume: () => void;
  /** Stops the server and, after `downMs`, starts it again on the same port (with `persist`, holding what it held). */
  restart: (downMs: number) => Promise<void>;
}

interface Running {
  child: ChildProcess;
  exited: Promise<void>;
}

async function launch(binary: string, port: number, dir: string, persist: boolean): Promise<Running> {
  // Nothing on disk, unless the test restarts the server and needs what it held (an append-only file in its temp dir).
  const saving = persist ? ['--save', '', '--appendonly', 'yes', '--appendfsync', 'always'] : ['--save', '', '--appendonly', 'no'];
  const child: ChildProcess = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', ...saving, '--dir', dir], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 10_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`redis-server did not start on port ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { child, exited };
}

export async function startRedisServer(options: { persist?: boolean } = {}): Promise<RedisServer> {
  const binary = redisServerPath();
  if (binary === undefined) throw new Error('redis-server is not installed');
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), 'debussy-redis-'));
  let running = await launch(binary, port, dir, options.persist === true);
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(running.child.pid ?? 0, name);
    } catch {
      // already gone
    }
  };
  const halt = async () => {
    if (running.child.exitCode !== null || running.child.signalCode !== null) return;
    signal('SIGCONT');
    signal('SIGTERM');
    const timer = setTimeout(() => signal('SIGKILL'), 5000);
    await running.exited;
    clearTimeout(timer);
  };
  const server: RedisServer = {
    url: `redis://127.0.0.1:${port}`,
    port,
    pid: running.child.pid ?? 0,
    pause: () => signal('SIGSTOP'),
    resume: () => signal('SIGCONT'),
    restart: async (downMs) => {
      await halt();
      await new Promise((resolve) => setTimeout(resolve, downMs));
      running = await launch(binary, port, dir, options.persist === true);
      server.pid = running.child.pid ?? 0;
    },
    stop: async () => {
      await halt();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return server;
}
