/**
 * No import cycles in src/: neither between folders (one concern may use another, never the other
 * way round as well) nor between modules. Type-only and lazy `import()` imports count too: a cycle
 * of types is still two rooms that each need the other to be read.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve('src');
const IMPORT = /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"](\.{1,2}\/[^'"]+)['"]|\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)|^import\s+['"](\.{1,2}\/[^'"]+)['"]/gm;

/** Relative imports of every module under `root`, by path relative to it (`agent/stream-parser.ts`). */
function moduleGraph(root: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of readdirSync(root, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.ts')) continue;
    const text = readFileSync(path.join(root, file), 'utf8');
    const targets = [...text.matchAll(IMPORT)].map((match) => {
      const specifier = (match[1] ?? match[2] ?? match[3]) as string;
      return path.relative(root, path.resolve(root, path.dirname(file), specifier)).replace(/\.js$/, '.ts');
    });
    graph.set(file, targets);
  }
  return graph;
}

/** The folder of src/ a module belongs to: its first path segment (`cli` for `cli/commands/run.ts`). */
function folderOf(module: string): string {
  const [first, ...rest] = module.split(path.sep);
  return rest.length === 0 ? '.' : (first as string);
}

function folderGraph(modules: Map<string, string[]>): Map<string, string[]> {
  const graph = new Map<string, Set<string>>();
  for (const [from, targets] of modules) {
    const edges = graph.get(folderOf(from)) ?? new Set<string>();
    graph.set(folderOf(from), edges);
    for (const to of targets) if (folderOf(to) !== folderOf(from)) edges.add(folderOf(to));
  }
  return new Map([...graph].map(([node, edges]) => [node, [...edges]]));
}

/** The strongly connected groups of more than one node (Tarjan): each is at least one cycle. */
function cyclesOf(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) as number, index.get(next) as number));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    for (let member = stack.pop(); member !== undefined; member = member === node ? undefined : stack.pop()) {
      onStack.delete(member);
      group.push(member);
    }
    if (group.length > 1 || (graph.get(node) ?? []).includes(node)) groups.push(group.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return groups;
}

/** For a failure message: the imports from one member of a group to another. */
function edgesWithin(group: string[], modules: Map<string, string[]>, key: (module: string) => string): string[] {
  const members = new Set(group);
  return [...modules].flatMap(([from, targets]) =>
    targets.filter((to) => members.has(key(from)) && members.has(key(to)) && key(from) !== key(to)).map((to) => `${from} -> ${to}`));
}

describe('import cycles in src/', () => {
  const modules = moduleGraph(SRC);

  it('reads the imports of every module (static, type-only, re-exports and lazy import())', () => {
    expect(modules.size).toBeGreaterThan(100);
    expect(modules.get(path.join('cli', 'main.ts'))).toContain(path.join('cli', 'commands', 'run.ts'));
    expect(modules.get(path.join('agent', 'index.ts'))).toContain(path.join('agent', 'agent-events.ts'));
  });

  it.each([
    { name: 'none', graph: { a: ['b'], b: ['c'], c: [] }, cycles: [] },
    { name: 'two nodes', graph: { a: ['b'], b: ['a'] }, cycles: [['a', 'b']] },
    { name: 'three through a side branch', graph: { a: ['b', 'd'], b: ['c'], c: ['a'], d: [] }, cycles: [['a', 'b', 'c']] },
    { name: 'a self import', graph: { a: ['a'] }, cycles: [['a']] },
  ])('finds cycles: $name', ({ graph, cycles }) => {
    expect(cyclesOf(new Map<string, string[]>(Object.entries(graph as Record<string, string[]>)))).toEqual(cycles);
  });

  it('no folder imports from a folder that imports from it', () => {
    const folders = cyclesOf(folderGraph(modules));
    expect(folders.map((group) => ({ folders: group, imports: edgesWithin(group, modules, folderOf) }))).toEqual([]);
  });

  it('no module imports from a module that imports from it', () => {
    const cycles = cyclesOf(modules);
    expect(cycles.map((group) => ({ modules: group, imports: edgesWithin(group, modules, (module) => module) }))).toEqual([]);
  });
});
