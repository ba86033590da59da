/**
 * The licence notices of what the site sends to browsers, written as `licences.txt` at the root
 * of the build (linked from every page's footer). A Vite plugin of the client build: after the
 * bundler has cut the chunks, every npm package with code in one of them (a module that kept some
 * code after tree-shaking) is listed with its version, its declared licence and the licence text
 * it ships. Packages that reach browsers outside the client chunks are named in `shippedBesides`.
 *
 * The file is the same on every build of the same code (incremental builds are compared with full
 * ones byte for byte): packages sorted, texts read from the installed packages, no date.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

export const licenceFile = 'licences.txt';

/** Packages in what browsers load that are not modules of a client chunk, and where they are. */
export const shippedBesides: readonly { name: string; where: string }[] = [
  { name: 'astro', where: "the islands' loader, inlined into pages that have islands" },
  { name: 'pagefind', where: 'the search bundle under pagefind/, written after the build' },
  { name: 'tailwindcss', where: 'the stylesheets: its base styles and utilities' },
  { name: 'daisyui', where: 'the stylesheets: its component styles' },
];

const inChunks = 'the scripts (client chunks)';

export interface ShippedPackage {
  name: string;
  version: string;
  licence: string;
  /** The text of its licence files (each headed by its name when there are several); undefined when it ships none. */
  text: string | undefined;
  repository: string | undefined;
  where: string;
}

interface Manifest {
  name?: string;
  version?: string;
  license?: unknown;
  licenses?: unknown;
  repository?: unknown;
}

/** Licence files and the notices that go with them (Apache-2.0 asks for a package's NOTICE to be passed on). */
const licenceFileName = /^(licen[cs]e|copying|notice|third[-_]party[-_](licen[cs]es|notices))(\b|[-._]|$)/i;

/** The package a module belongs to: the nearest package.json with a name, up to its node_modules folder. */
export function packageDirOf(moduleId: string, cache = new Map<string, string | undefined>()): string | undefined {
  const file = moduleId.replace(/^\0/, '').replace(/[?#].*$/, '');
  const marker = `${path.sep}node_modules${path.sep}`;
  const inside = file.lastIndexOf(marker);
  if (inside < 0) return undefined;
  const stop = file.slice(0, inside + marker.length - 1);
  let dir = path.dirname(file);
  const visited: string[] = [];
  let found: string | undefined;
  while (dir.length > stop.length) {
    if (cache.has(dir)) {
      found = cache.get(dir);
      break;
    }
    visited.push(dir);
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as Manifest).name) {
      found = dir;
      break;
    }
    dir = path.dirname(dir);
  }
  for (const each of visited) cache.set(each, found);
  return found;
}

function licenceOf(manifest: Manifest): string {
  const one = (value: unknown) =>
    typeof value === 'string'
      ? value
      : typeof (value as { type?: unknown })?.type === 'string'
        ? (value as { type: string }).type
        : undefined;
  return (
    one(manifest.license) ??
    (Array.isArray(manifest.licenses) ? manifest.licenses.map(one).filter(Boolean).join(' OR ') : undefined) ??
    'not declared'
  );
}

function repositoryOf(manifest: Manifest): string | undefined {
  const url =
    typeof manifest.repository === 'string' ? manifest.repository : (manifest.repository as { url?: unknown })?.url;
  return typeof url === 'string' ? url.replace(/^git\+/, '').replace(/\.git$/, '') : undefined;
}

/** A package's entry: its package.json and its licence files at the top of the package, in name order. */
export function readPackage(dir: string, where: string): ShippedPackage {
  const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as Manifest;
  const files = readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isFile() && licenceFileName.test(entry.name))
    .map((entry) => entry.name)
    .sort();
  const texts = files.map((file) => readFileSync(path.join(dir, file), 'utf8').replace(/\r\n?/g, '\n').trim());
  return {
    name: manifest.name ?? path.basename(dir),
    version: manifest.version ?? '0.0.0',
    licence: licenceOf(manifest),
    text:
      texts.length === 0
        ? undefined
        : texts.length === 1
          ? texts[0]
          : texts.map((text, at) => `[${files[at]}]\n\n${text}`).join('\n\n'),
    repository: repositoryOf(manifest),
    where,
  };
}

/** The packages with code in these chunks (their modules' ids and rendered lengths), one entry per name@version. */
export function packagesOfChunks(
  chunks: readonly { modules: Readonly<Record<string, { renderedLength: number }>> }[],
): ShippedPackage[] {
  const cache = new Map<string, string | undefined>();
  const dirs = new Set<string>();
  for (const chunk of chunks) {
    for (const [id, module] of Object.entries(chunk.modules)) {
      if (module.renderedLength === 0) continue;
      const dir = packageDirOf(id, cache);
      if (dir) dirs.add(dir);
    }
  }
  const byKey = new Map<string, ShippedPackage>();
  for (const dir of dirs) {
    const entry = readPackage(dir, inChunks);
    byKey.set(`${entry.name}@${entry.version}`, entry);
  }
  return [...byKey.values()];
}

const rule = '-'.repeat(72);

/** The text of licences.txt. */
export function licenceNotices(packages: readonly ShippedPackage[]): string {
  const sorted = [...packages].sort(
    (a, b) => a.name.localeCompare(b.name, 'en') || a.version.localeCompare(b.version, 'en'),
  );
  const lines = [
    '本站发送给浏览器的开源软件及其许可 · Open-source software this site sends to browsers, and its licences',
    '',
    `The site's scripts and stylesheets contain code of the ${sorted.length} packages below. Each is`,
    'listed with its version, the licence it declares and the licence text it ships.',
    '',
    ...sorted.map((entry) => `  ${entry.name} ${entry.version}  ${entry.licence}  — in ${entry.where}`),
  ];
  for (const entry of sorted) {
    lines.push('', rule, `${entry.name} ${entry.version}`, `Licence: ${entry.licence}`, `In: ${entry.where}`);
    if (entry.repository) lines.push(`Source: ${entry.repository}`);
    lines.push('', entry.text ?? `(The package ships no licence file; its package.json declares: ${entry.licence}.)`);
  }
  return `${lines.join('\n')}\n`;
}

/** The plugin: client build only (the server build's packages never reach a browser). */
export function licenceNoticesPlugin(): Plugin {
  let root = process.cwd();
  return {
    name: 'hgd:licence-notices',
    apply: 'build',
    applyToEnvironment: (environment) => environment.name === 'client',
    configResolved(config) {
      root = config.root;
    },
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).flatMap((output) => (output.type === 'chunk' ? [output] : []));
      const packages = packagesOfChunks(chunks);
      const listed = new Set(packages.map((entry) => entry.name));
      for (const { name, where } of shippedBesides) {
        if (!listed.has(name)) packages.push(readPackage(path.join(root, 'node_modules', name), where));
      }
      this.emitFile({ type: 'asset', fileName: licenceFile, source: licenceNotices(packages) });
    },
  };
}
