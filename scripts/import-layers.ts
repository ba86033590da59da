/**
 * The layers of src/ and the imports between them, read from the source: every relative import
 * and `export … from` (type-only ones too) in .ts, .tsx and .astro files. Prints each layer's
 * arrows to other layers, the upward ones (an import the layer order forbids), and the import
 * circles inside src/server. The lint rule (eslint-plugin-boundaries in eslint.config.js) is what
 * enforces the order; this script counts it for docs/architecture.md, with the same layers (read
 * from eslint.config.js). It also sees what the rule does not: `typeof import(…)` type references.
 *
 *   node scripts/import-layers.ts            # summary
 *   node scripts/import-layers.ts --verbose  # and every upward import, file by file
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { dataReads, layers, mayImport, serverEntries } from '../eslint.config.js';

const root = resolve(import.meta.dirname, '..');

type Layer = { type: string; pattern: string | string[] };

/** The first layer whose folder holds the file, as eslint-plugin-boundaries classifies it. */
function layerOf(file: string): string | undefined {
  const path = relative(root, file);
  const found = (layers as Layer[]).find(({ pattern }) =>
    [pattern].flat().some((folder) => path.startsWith(`${folder}/`)),
  );
  return found?.type;
}

function allowedImport(from: string, to: string, target: string): boolean {
  const path = relative(root, target);
  if (['server-routes', 'server-domain', 'server-data'].includes(from) && serverEntries.includes(path)) return false;
  if (from === to || (mayImport as Record<string, string[]>)[from]?.includes(to)) return true;
  return from === 'server-data' && dataReads.includes(path);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'migrations' ? [] : sourceFiles(path);
    return /\.(ts|tsx|astro)$/.test(name) ? [path] : [];
  });
}

const importPattern = /(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

/** The files a file imports by a relative path (absolute paths). */
export function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(importPattern)].map((match) => resolve(dirname(file), (match[1] ?? match[2])!));
}

/** Strongly connected components of more than one file (Tarjan), i.e. the import circles. */
function circles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    indexOf.set(node, index);
    low.set(node, index++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indexOf.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, indexOf.get(next)!));
    }
    if (low.get(node) !== indexOf.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(relative(root, member));
    } while (member !== node);
    if (component.length > 1) found.push(component.sort());
  };
  for (const node of graph.keys()) if (!indexOf.has(node)) visit(node);
  return found;
}

/** What the count finds in src/: the arrows between layers, the upward imports, the server's circles. */
export function importLayers(): {
  files: number;
  edges: Map<string, number>;
  upward: string[];
  serverCircles: string[][];
} {
  const files = sourceFiles(join(root, 'src'));
  const edges = new Map<string, number>();
  const upward: string[] = [];
  const serverGraph = new Map<string, string[]>();
  for (const file of files) {
    const from = layerOf(file);
    for (const target of importsOf(file)) {
      const to = layerOf(target);
      if (!from || !to) continue;
      if (from.startsWith('server') && to.startsWith('server')) {
        serverGraph.set(file, [...(serverGraph.get(file) ?? []), target]);
      }
      if (from === to) continue;
      const key = `${from} → ${to}`;
      edges.set(key, (edges.get(key) ?? 0) + 1);
      if (!allowedImport(from, to, target)) upward.push(`${relative(root, file)} → ${relative(root, target)}`);
    }
  }
  return { files: files.length, edges, upward, serverCircles: circles(serverGraph) };
}

if (import.meta.main) {
  const { files, edges, upward, serverCircles } = importLayers();
  console.log(`${layers.length} layers, ${files} files`);
  for (const [key, count] of [...edges].sort()) {
    const [from, to] = key.split(' → ');
    const up = !(mayImport as Record<string, string[]>)[from!]?.includes(to!);
    console.log(`  ${key}: ${count}${up ? '  (upward unless a data read)' : ''}`);
  }
  console.log(`upward imports: ${upward.length}`);
  if (process.argv.includes('--verbose')) for (const line of upward) console.log(`  ${line}`);
  console.log(`import circles in src/server: ${serverCircles.length}`);
  for (const circle of serverCircles) console.log(`  ${circle.length} files: ${circle.join(', ')}`);
}
