/**
 * The page graph: for every page of a build, the content keys it read (dependencies.ts) and its
 * props' fingerprint, written beside the pages as `.pages.json` (a hidden file: neither served nor
 * uploaded to a CDN). An incremental build (docs/editing-content.md) reads its base build's graph:
 *
 *   a page is rendered again  when it is new, its props changed, or it read a changed key;
 *   otherwise                 its bytes are the base build's (src/integrations/incremental.ts)
 *
 * The recorder lives on globalThis because three module graphs share it in one `astro build`:
 * the integration (Astro's config), and the middleware with the content loader (the page bundle).
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export const pageGraphFile = '.pages.json';
/** Where `astro build` finds the incremental plan (absent: a full build). */
export const incrementalPlanVariable = 'INCREMENTAL_PLAN';

export interface PageRecord {
  /** Content keys the page read. */
  deps: string[];
  /** Its props' fingerprint. */
  props: string;
}

export interface PageGraph {
  /** The code the pages were built with (codeVersion): a base of other code cannot be reused. */
  codeVersion: string;
  /** Its two parts: the sources' hash and the build-time settings, to say which one differs. */
  sourceVersion?: string;
  settings?: Record<string, string>;
  /** By pathname. */
  pages: Record<string, PageRecord>;
}

/** What an incremental build is given. */
export interface IncrementalPlan {
  /** The base build's pages (its dist directory, with its `.pages.json`). */
  baseDir: string;
  /** The content keys that differ from the base build's content. */
  changed: string[];
}

export interface GraphRecorder {
  /** The base graph and the changed keys, in an incremental build. */
  readonly plan: { base: PageGraph; changed: ReadonlySet<string> } | undefined;
  /** The keys read by the page being rendered now. */
  current: Set<string> | undefined;
  /** The pages rendered (or carried from the base) in this build. */
  readonly pages: Record<string, PageRecord>;
}

const recorderKey = Symbol.for('hgd.pageGraph');
type WithRecorder = typeof globalThis & { [recorderKey]?: GraphRecorder };

/** The recorder of the build running in this process, if any. */
export function graphRecorder(): GraphRecorder | undefined {
  return (globalThis as WithRecorder)[recorderKey];
}

export function startGraphRecorder(plan: GraphRecorder['plan']): GraphRecorder {
  const recorder: GraphRecorder = { plan, current: undefined, pages: {} };
  (globalThis as WithRecorder)[recorderKey] = recorder;
  return recorder;
}

export function stopGraphRecorder(): void {
  delete (globalThis as WithRecorder)[recorderKey];
}

/** A page's key in the graph: its pathname without a trailing slash. */
export function pageKey(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
}

/** Whether the incremental build may keep the base's bytes of a page. */
export function pageUnchanged(recorder: GraphRecorder, key: string, props: string): boolean {
  const base = recorder.plan?.base.pages[key];
  if (!recorder.plan || !base || base.props !== props) return false;
  const { changed } = recorder.plan;
  return !base.deps.some((dep) => changed.has(dep));
}

export function readPageGraph(distDir: string): PageGraph | undefined {
  const file = path.join(distDir, pageGraphFile);
  if (!existsSync(file)) return undefined;
  return JSON.parse(readFileSync(file, 'utf8')) as PageGraph;
}

/** What a build's pages are made from besides the content: sources, dependencies and the settings read at build time. */
const codeSources = ['src', 'public', 'astro.config.mjs', 'package-lock.json'];
const buildSettings = ['BUILD_LOCALES', 'PUBLIC_ORIGIN', 'BUILD_ID'] as const;

/** The build-time settings this process would build with (part of codeVersion). */
export function buildSettingValues(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return Object.fromEntries(buildSettings.map((name) => [name, env[name] ?? '']));
}

/** A hash of the sources a build in `projectRoot` renders with (the content directory excluded). */
export function sourceVersion(projectRoot: string): string {
  const hash = createHash('sha256');
  const contentDir = path.join(projectRoot, 'src', 'content');
  const add = (file: string) => {
    if (file.startsWith(contentDir + path.sep) && !file.endsWith('.ts')) return;
    hash.update(path.relative(projectRoot, file)).update('\0').update(readFileSync(file)).update('\0');
  };
  for (const source of codeSources) {
    const full = path.join(projectRoot, source);
    if (!existsSync(full)) continue;
    if (!statSync(full).isDirectory()) {
      add(full);
      continue;
    }
    const files = readdirSync(full, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.join(entry.parentPath, entry.name))
      .sort();
    for (const file of files) add(file);
  }
  return hash.digest('hex').slice(0, 32);
}

/** A hash of the code a build renders with: its sources and its build-time settings. */
export function codeVersion(projectRoot: string, sources = sourceVersion(projectRoot)): string {
  const hash = createHash('sha256').update(sources).update('\0');
  for (const [name, value] of Object.entries(buildSettingValues())) hash.update(`${name}=${value}\0`);
  return hash.digest('hex').slice(0, 32);
}
