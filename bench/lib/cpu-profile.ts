/**
 * CPU profiles for a figure that misses its target: where the time went, by function and by file.
 * In-process through the inspector, or from a `.cpuprofile` that `node --cpu-prof` wrote.
 */
import { readFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  samples?: number[];
  timeDeltas?: number[];
}

export interface ProfileSummary {
  totalMs: number;
  /** Self time by function, the largest first. */
  functions: { name: string; ms: number; percent: number }[];
  /** Self time by source file (or V8 built-in: regexp, GC...), the largest first. */
  files: { file: string; ms: number; percent: number }[];
  /**
   * Inclusive time by package (node_modules/<name>) or debussy folder (src|dist/<folder>): every
   * sample counts for each of them on its stack. Shows what loading or running a dependency costs.
   */
  packages: { package: string; ms: number; percent: number }[];
}

/** node_modules/<name> (scoped names kept whole) or src|dist/<folder>; undefined for node itself. */
function packageOf(url: string): string | undefined {
  const cleaned = url.replace(/^file:\/\//, '');
  const dep = cleaned.match(/\/node_modules\/((?:@[^/]+\/)?[^/]+)\//);
  if (dep) return `node_modules/${dep[1]}`;
  const own = cleaned.match(/\/(src|dist)\/([^/]+)\//);
  if (own) return `${own[1]}/${own[2]}`;
  const entry = cleaned.match(/\/(bin\/[^/]+)$/);
  return entry ? entry[1] : undefined;
}

/** Runs `work` under the V8 sampling profiler of this very process. */
export async function profileInProcess<T>(work: () => Promise<T>): Promise<{ result: T; profile: CpuProfile }> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 500 });
  await session.post('Profiler.start');
  try {
    const result = await work();
    const { profile } = (await session.post('Profiler.stop')) as { profile: CpuProfile };
    return { result, profile };
  } finally {
    session.disconnect();
  }
}

export function readCpuProfile(file: string): CpuProfile {
  return JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
}

function shortUrl(url: string): string {
  const cleaned = url.replace(/^file:\/\//, '').replace(/\?.*$/, '');
  const inProject = cleaned.match(/\/(src|dist|node_modules)\/(.*)$/);
  if (inProject) return `${inProject[1]}/${inProject[2]}`;
  return cleaned;
}

/** Merges the samples of several profiles into one (their nodes get distinct ids). */
export function mergeProfiles(profiles: CpuProfile[]): CpuProfile {
  const merged: CpuProfile = { nodes: [], samples: [], timeDeltas: [] };
  profiles.forEach((profile, i) => {
    const offset = (i + 1) * 1_000_000;
    merged.nodes.push(...profile.nodes.map((node) => ({ ...node, id: node.id + offset, children: node.children?.map((c) => c + offset) })));
    merged.samples?.push(...(profile.samples ?? []).map((id) => id + offset));
    merged.timeDeltas?.push(...(profile.timeDeltas ?? []));
  });
  return merged;
}

/** Idle time, and the inspector's own message dispatch (the profiler being driven), are not work. */
function isNoise(frame: ProfileNode['callFrame']): boolean {
  return frame.functionName === '(idle)' || (frame.functionName === 'dispatch' && frame.url === '');
}

export function summarizeProfile(profile: CpuProfile, top = 12): ProfileSummary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (deltas[i] ?? 0)));
  const functions = new Map<string, number>();
  const files = new Map<string, number>();
  let total = 0;
  for (const [id, us] of selfUs) {
    const frame = byId.get(id)?.callFrame;
    if (!frame || isNoise(frame)) continue;
    const file = frame.url === '' ? `(${frame.functionName.startsWith('RegExp') ? 'regexp' : frame.functionName || 'native'})` : shortUrl(frame.url);
    const name = `${(frame.functionName || '(anonymous)').slice(0, 60)} ${file}${frame.url === '' ? '' : `:${frame.lineNumber + 1}`}`;
    functions.set(name, (functions.get(name) ?? 0) + us);
    files.set(file, (files.get(file) ?? 0) + us);
    total += us;
  }
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const packages = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const frame = byId.get(id)?.callFrame;
    if (!frame || isNoise(frame)) continue;
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const pkg = packageOf(byId.get(at)?.callFrame.url ?? '');
      if (pkg !== undefined) seen.add(pkg);
    }
    for (const pkg of seen) packages.set(pkg, (packages.get(pkg) ?? 0) + us);
  }
  const rank = <K extends string>(map: Map<string, number>, key: K) =>
    [...map].sort((a, b) => b[1] - a[1]).slice(0, top).map(([k, us]) => ({ [key]: k, ms: Math.round(us / 1000), percent: Math.round((1000 * us) / total) / 10 }) as Record<K, string> & { ms: number; percent: number });
  return { totalMs: Math.round(total / 1000), functions: rank(functions, 'name'), files: rank(files, 'file'), packages: rank(packages, 'package') };
}

export function formatProfile(summary: ProfileSummary, lines = 8): string {
  const fns = summary.functions.slice(0, lines).map((f) => `    ${String(f.ms).padStart(6)} ms ${f.percent.toFixed(1).padStart(5)}%  ${f.name}`);
  const files = summary.files.slice(0, lines).map((f) => `    ${String(f.ms).padStart(6)} ms ${f.percent.toFixed(1).padStart(5)}%  ${f.file}`);
  const packages = summary.packages.slice(0, lines).map((f) => `    ${String(f.ms).padStart(6)} ms ${f.percent.toFixed(1).padStart(5)}%  ${f.package}`);
  return [`  profile (${summary.totalMs} ms of samples), self time by function:`, ...fns, '  self time by file:', ...files, '  inclusive time by package / debussy folder:', ...packages].join('\n');
}
