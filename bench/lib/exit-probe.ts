/**
 * Measures node processes from the inside at their exit: own CPU time (getrusage of the process,
 * all threads, no children), peak RSS (VmHWM) and memory use. Installed as
 * `NODE_OPTIONS=--import=<hook>`, it reaches `debussy run` and every `debussy done` the agent runs
 * (they inherit the environment). The hook is written to a temp dir at run time: it must be plain
 * JavaScript, loaded without tsx, so that the processes measured are exactly the shipped ones.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface ProbeRecord {
  pid: number;
  /** process.argv after the node binary: [script, ...args]. */
  argv: string[];
  ownCpuMs: number;
  vmHwmKb: number;
  /** process.memoryUsage() when the process exited (bytes). */
  memoryAtExit: { rss: number; heapTotal: number; heapUsed: number; external: number; arrayBuffers: number };
}

const HOOK = `import { appendFileSync, readFileSync } from 'node:fs';
const out = process.env.DEBUSSY_BENCH_PROBE;
if (out) process.on('exit', () => {
  try {
    const hwm = readFileSync('/proc/self/status', 'utf8').match(/^VmHWM:\\s+(\\d+) kB/m);
    const cpu = process.cpuUsage();
    appendFileSync(out, JSON.stringify({
      pid: process.pid, argv: process.argv.slice(1),
      ownCpuMs: (cpu.user + cpu.system) / 1000,
      vmHwmKb: hwm ? Number(hwm[1]) : -1,
      memoryAtExit: process.memoryUsage(),
    }) + '\\n');
  } catch {}
});
`;

export interface ExitProbe {
  /** Environment that installs the probe in every node process started with it. */
  env: Record<string, string>;
  records(): ProbeRecord[];
}

export function installExitProbe(dir: string): ExitProbe {
  const hook = path.join(dir, 'exit-probe.mjs');
  const out = path.join(dir, 'exit-probe.ndjson');
  writeFileSync(hook, HOOK);
  writeFileSync(out, '');
  return {
    env: { NODE_OPTIONS: `--import=${hook}`, DEBUSSY_BENCH_PROBE: out },
    records: () =>
      readFileSync(out, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as ProbeRecord),
  };
}

/** The command a debussy process ran (`run`, `done`, ...), from its argv. */
export function debussyCommandOf(record: ProbeRecord): string | undefined {
  const [script, command] = record.argv;
  return script?.endsWith(path.join('bin', 'debussy.js')) ? command : undefined;
}
