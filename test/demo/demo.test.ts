/**
 * `npm run demo` as a person (or CI) runs it: the real claude CLI and the built debussy against
 * the scripted server. It must show the threshold crossing, the checkpoint restart and the
 * completed phases, and leave no temp dir, server or process behind, Ctrl-C included.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { processTable } from '../../src/process/process-table.js';
import { livePids } from '../e2e/processes.js';

const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
const TEMP_PREFIX = 'debussy-demo-';

interface DemoResult {
  code: number | null;
  output: string;
}

let running: ChildProcess | undefined;
afterEach(() => {
  // Only if a test failed half-way: end whatever is left of the demo's process group.
  if (running?.pid !== undefined && running.exitCode === null && running.signalCode === null) process.kill(-running.pid, 'SIGKILL');
  running = undefined;
});

/** Starts the demo in its own process group (as a terminal would); `onOutput` sees the output so far. */
function runDemo(command: string[], onOutput?: (output: string, child: ChildProcess) => void): Promise<DemoResult> {
  const [file, ...args] = command as [string, ...string[]];
  const child = spawn(file, args, { cwd: REPO_ROOT, env: { ...process.env, CI: 'true' }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  running = child;
  let output = '';
  const collect = (chunk: Buffer): void => {
    output += chunk.toString();
    onOutput?.(output, child);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, output })));
}

function demoTempDirs(): string[] {
  return readdirSync(os.tmpdir()).filter((name) => name.startsWith(TEMP_PREFIX));
}

/** Processes still running with the demo's server in their environment (claude, its tools) or inside its project. */
function processesOf(apiUrl: string, project: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const environ = readFileSync(`/proc/${pid}/environ`, 'utf8');
      const cwd = readlinkSync(`/proc/${pid}/cwd`);
      if (environ.includes(`ANTHROPIC_BASE_URL=${apiUrl}\0`) || cwd.startsWith(project)) found.push(pid);
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

function canConnect(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function banner(output: string): { project: string; apiUrl: string } {
  const project = /project: +(\S+)/.exec(output)?.[1];
  const apiUrl = /model server: +(http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
  expect(project, output).toBeDefined();
  expect(apiUrl, output).toBeDefined();
  return { project: project ?? '', apiUrl: apiUrl ?? '' };
}

async function expectNothingLeft(output: string, tempBefore: string[]): Promise<void> {
  const { project, apiUrl } = banner(output);
  expect(existsSync(project)).toBe(false);
  expect(demoTempDirs().filter((name) => !tempBefore.includes(name))).toEqual([]);
  expect(await canConnect(apiUrl)).toBe(false);
  expect(processesOf(apiUrl, project)).toEqual([]);
}

/**
 * What `npm run demo` runs once the build is done: the last command of package.json's `demo` script,
 * run here directly, so that a Ctrl-C reaches the same processes as in a terminal, npm aside.
 */
function demoCommand(): string[] {
  const script = (JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.demo ?? '';
  const words = (script.split('&&').at(-1) ?? '').trim().split(/\s+/);
  const bin = (name: string) => (name === 'node' ? process.execPath : path.join(REPO_ROOT, 'node_modules/.bin', name));
  return [bin(words[0] ?? ''), ...words.slice(1)];
}

/**
 * The demo's own process: the one in the demo's process group that started a debussy (other test
 * files run debussy at the same time).
 */
function demoProcess(group: number): number | undefined {
  const table = processTable();
  const debussies = table.readMany(livePids(/bin\/debussy\.js run /));
  const parents = table.readMany([...(debussies?.values() ?? [])].map((debussy) => debussy.ppid));
  return [...(parents?.values() ?? [])].find((parent) => parent.pgid === group)?.pid;
}

describe('npm run demo', () => {
  it('crosses the threshold, restarts from a checkpoint, completes both phases, and cleans up', { timeout: 120_000 }, async () => {
    const tempBefore = demoTempDirs();
    const { code, output } = await runDemo(demoCommand());
    expect(code, output).toBe(0);

    // The crossing, the stop, the checkpoint commit and the restart, as debussy printed them.
    expect(output).toMatch(/phase 1: context at 8\d(\.\d)?% of 200,000 tokens crossed the 80% threshold/);
    expect(output).toMatch(/phase 1: session 1 ended: stopped/);
    expect(output).toMatch(/committed \w+ \(2 files\): debussy: checkpoint phase 1 \(restart 1\/3, context 8\d%\)/);
    expect(output).toMatch(/phase 1: restart 1\/3 from a checkpoint/);
    expect(output).toContain('phase 1 completed');
    expect(output).toContain('phase 2 completed');
    expect(output).toMatch(/gate tests passed: node --test test\/count-words\.test\.mjs/);
    // The step after the crossing turn never ran.
    expect(output).not.toContain('never.txt');

    // The epilogue: the restarted prompt starts with the checkpoint, the log, the status.
    expect(output).toMatch(/\| # debussy checkpoint: continuing phase 1 \(Count words\)/);
    expect(output).toContain('| 1. 1.1 done: countWords in src/count-words.mjs');
    expect(output).toMatch(/[0-9a-f]{7} debussy: checkpoint phase 1 \(restart 1\/3, context 8\d%\)\n {8}count\.mjs\n {8}src\/count-words\.mjs/);
    expect(output).toMatch(/Status: completed/);
    expect(output).toMatch(/^1 +completed +2 +1 +8\d%/m);
    expect(output).toMatch(/^2 +completed +1 +0 /m);
    expect(output).toContain('debussy exited with code 0');
    // CI=true: plain lines, no cursor movement or colours.
    expect(output).not.toContain('\u001b[');

    await expectNothingLeft(output, tempBefore);
  });

  it('on Ctrl-C stops debussy gracefully, exits 130 and leaves nothing behind', { timeout: 120_000 }, async () => {
    const tempBefore = demoTempDirs();
    let sent = false;
    // A terminal's Ctrl-C goes to the whole foreground process group, as here.
    const { code, output } = await runDemo(demoCommand(), (text, child) => {
      if (!sent && text.includes('Write: src/count-words.mjs') && child.pid !== undefined) {
        sent = true;
        process.kill(-child.pid, 'SIGINT');
      }
    });
    expect(sent, output).toBe(true);
    expect(output).toContain('SIGINT received: stopping the session and saving its work');
    expect(code, output).toBe(130);
    expect(output).toContain('debussy exited with code 130');
    expect(output).toMatch(/Status: interrupted/);
    await expectNothingLeft(output, tempBefore);
  });

  it('on Ctrl-C while the machine is too busy to run the demo for a moment, still stops debussy gracefully and leaves nothing behind', { timeout: 120_000 }, async () => {
    // Seen in CI under load: tsx's command-line wrapper, also in the process group, gave the demo's
    // process 30 ms to take the signal, then killed it with SIGKILL. debussy, in a process group
    // of its own, ran on against the dead model server, and the temp project stayed. Here the
    // demo's process is held up (SIGSTOP) when Ctrl-C comes, and goes on 300 ms later.
    const tempBefore = demoTempDirs();
    let held: number | undefined;
    const { code, output } = await runDemo(demoCommand(), (text, child) => {
      if (held === undefined && text.includes('Write: src/count-words.mjs') && child.pid !== undefined) {
        held = demoProcess(child.pid) ?? -1;
        if (held <= 0) return;
        process.kill(held, 'SIGSTOP');
        process.kill(-child.pid, 'SIGINT');
        const demo = held;
        setTimeout(() => {
          try {
            process.kill(demo, 'SIGCONT');
          } catch {
            // already gone: the test fails below on what it printed
          }
        }, 300);
      }
    });
    expect(held, output).toBeGreaterThan(0);
    expect(output).toContain('SIGINT received: stopping the session and saving its work');
    expect(code, output).toBe(130);
    expect(output).toContain('debussy exited with code 130');
    expect(output).not.toContain('ECONNREFUSED');
    await expectNothingLeft(output, tempBefore);
  });
});
