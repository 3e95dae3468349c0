/**
 * Measures node processes from the inside at their exit: own CPU time (getrusage of the process,
 * all threads, no children), CPU of the children it reaped (/proc/self/stat cutime + cstime),
 * and peak RSS (VmHWM). Installed as `NODE_OPTIONS=--import=<hook>`, it reaches `debussy run`
 * and every `debussy done` / `progress` the agent runs (they inherit the environment); on request
 * it also CPU-profiles each of them through the inspector. The hook is
 * written to a temp dir at run time: it must be plain JavaScript, loaded without tsx, so that
 * the processes measured are exactly the shipped ones.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface ProbeRecord {
  pid: number;
  /** process.argv after the node binary: [script, ...args]. */
  argv: string[];
  ownCpuMs: number;
  childrenCpuMs: number;
  vmHwmKb: number;
  /** CPU time of the threads alive at exit: the main thread's, and the others' (V8's workers, libuv's pool) summed. */
  threadCpuMs: Record<string, number>;
  /** process.memoryUsage() when the process exited (bytes). */
  memoryAtExit: { rss: number; heapTotal: number; heapUsed: number; external: number; arrayBuffers: number };
}

const HOOK = `import { appendFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import path from 'node:path';
const out = process.env.DEBUSSY_BENCH_PROBE;
const profileDir = process.env.DEBUSSY_BENCH_PROFILE_DIR;
const tickMs = 1000 / Number(process.env.DEBUSSY_BENCH_CLK_TCK || 100);
let profiler;
if (profileDir) {
  profiler = new Session();
  profiler.connect();
  profiler.post('Profiler.enable');
  profiler.post('Profiler.start');
}
if (out) process.on('exit', () => {
  // The in-process inspector answers synchronously, so the profile is written before exit.
  profiler?.post('Profiler.stop', (error, result) => {
    if (!error) writeFileSync(path.join(profileDir, process.pid + '.cpuprofile'), JSON.stringify(result.profile));
  });
  try {
    const status = readFileSync('/proc/self/status', 'utf8');
    const hwm = status.match(/^VmHWM:\\s+(\\d+) kB/m);
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cpu = process.cpuUsage();
    const threads = {};
    for (const tid of readdirSync('/proc/self/task')) {
      try {
        const t = readFileSync('/proc/self/task/' + tid + '/stat', 'utf8');
        const name = Number(tid) === process.pid ? 'main' : 'others';
        const f = t.slice(t.lastIndexOf(')') + 2).split(' ');
        threads[name] = (threads[name] || 0) + (Number(f[11]) + Number(f[12])) * tickMs;
      } catch {}
    }
    appendFileSync(out, JSON.stringify({
      pid: process.pid, argv: process.argv.slice(1),
      ownCpuMs: (cpu.user + cpu.system) / 1000,
      childrenCpuMs: (Number(fields[13]) + Number(fields[14])) * tickMs,
      vmHwmKb: hwm ? Number(hwm[1]) : -1,
      threadCpuMs: threads,
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

/** With `profileDir`, each process also writes `<pid>.cpuprofile` there (NODE_OPTIONS refuses --cpu-prof). */
export function installExitProbe(dir: string, profileDir?: string): ExitProbe {
  const hook = path.join(dir, 'exit-probe.mjs');
  const out = path.join(dir, 'exit-probe.ndjson');
  writeFileSync(hook, HOOK);
  writeFileSync(out, '');
  return {
    env: { NODE_OPTIONS: `--import=${hook}`, DEBUSSY_BENCH_PROBE: out, DEBUSSY_BENCH_CLK_TCK: '100', ...(profileDir === undefined ? {} : { DEBUSSY_BENCH_PROFILE_DIR: profileDir }) },
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
