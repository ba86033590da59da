/**
 * The page graph of every build, and the incremental build (src/content/pageGraph.ts):
 *
 *   prerenderer setup     (a held build first waits for its order: content/heldBuild.ts) reads
 *                         INCREMENTAL_PLAN and starts the recorder — with the base build's graph
 *                         and the changed content keys when it names a plan, empty otherwise
 *   prerenderer paths     of every path Astro would render, the pages that cannot have changed
 *                         (pageUnchanged) are not rendered at all: the base build's file and its
 *                         compressed copies are linked in their place, and only the rest is given
 *                         back to Astro to render
 *   build:done            (first of the build:done hooks) reuses the base's compressed copies of
 *                         every other file whose bytes did not change (precompress skips them),
 *                         and writes `.pages.json`
 *
 * Files written after the pages (the search index) take the base's file where their bytes are
 * the same (`shareWithBase`), so the build's archive carries only what changed (site/artifacts.ts).
 *
 * Pages a full build would not write (a removed item's) are not in the output, so they are gone.
 */
import type { AstroIntegration } from 'astro';
import { copyFileSync, existsSync, linkSync, mkdirSync, rmSync } from 'node:fs';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  buildSettingValues,
  codeVersion,
  sourceVersion,
  incrementalPlanVariable,
  pageGraphFile,
  pageKey,
  pageUnchanged,
  readPageGraph,
  startGraphRecorder,
  stopGraphRecorder,
  type GraphRecorder,
  type IncrementalPlan,
  type PageGraph,
} from '../content/pageGraph.ts';
import { propsFingerprint } from '../content/dependencies.ts';
import { awaitBuildOrder, isHeldBuild } from '../content/heldBuild.ts';

/** Files of this build whose `.br` and `.gz` are the base build's (read by precompress). */
export const reusedCompression = new Set<string>();
/** Pages of this build that are the base build's, unchanged (the page-policy check skips them). */
export const carriedFromBase = new Set<string>();
/** Their page keys (`/en-US/news`): Astro's own list of pages has only those it rendered (the sitemap reads both). */
export const carriedPages = new Set<string>();
/** The base build's output directory, in an incremental build. */
let baseDir: string | undefined;

/** The base build's output directory, in an incremental build; none in a full build. */
export function baseBuildDir(): string | undefined {
  return baseDir;
}

const compressedSuffixes = ['.br', '.gz'];

/**
 * Hard-links `from` at `to` (the builds' directory is one file system; else a copy), replacing
 * what is there; answers false when `from` does not exist. Synchronous: a build carries a thousand
 * pages of three files each, with nothing else to do meanwhile, and the same calls through the
 * thread pool took a second.
 */
function linkFile(from: string, to: string): boolean {
  try {
    linkSync(from, to);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && !existsSync(from)) return false;
    rmSync(to, { force: true });
    try {
      linkSync(from, to);
    } catch {
      copyFileSync(from, to);
    }
    return true;
  }
}

/** Links the base's compressed copies of `file` beside it; when it had both, precompress skips it. */
function placeCompressed(baseFile: string, file: string): void {
  let reused = true;
  for (const suffix of compressedSuffixes) if (!linkFile(baseFile + suffix, file + suffix)) reused = false;
  if (reused) reusedCompression.add(file);
}

/** Pages Astro writes as `<name>.html` rather than `<name>/index.html` (its STATUS_CODE_PAGES). */
const statusPages = new Set(['/404', '/500']);

/** Where a page of `key` is in a build directory (build.format `directory`). */
function pageFile(dir: string, key: string): string {
  if (statusPages.has(key)) return path.join(dir, `${key.slice(1)}.html`);
  return path.join(dir, ...key.split('/').filter(Boolean), 'index.html');
}

/** What a prerenderer's path carries that decides whether it may be carried (Astro's PathWithRoute). */
interface PathToRender {
  pathname: string;
  route: { type: string; pathname?: string | null; route: string; component: string };
}

/** Astro's route cache, as its build app exposes it: each dynamic route's static paths by pathname. */
interface RouteCacheOfApp {
  get(route: PathToRender['route']): { staticPaths?: { keyed?: Map<string, { props?: object }> } } | undefined;
}

/** A page's props as Astro renders it with them (core/render/params-and-props.js getProps): a copy, or none. */
function propsOf(entry: PathToRender, routeCache: RouteCacheOfApp | undefined): object | undefined {
  if (entry.route.pathname) return {};
  const keyed = routeCache?.get(entry.route)?.staticPaths?.keyed;
  if (!keyed) return undefined;
  const found = keyed.get(entry.pathname);
  if (!found) return undefined;
  return found.props ? { ...found.props } : {};
}

/**
 * Carries a page from the base build when it cannot have changed: its file and compressed copies
 * linked into `outDir`, its record kept in the graph. Answers false when it must be rendered.
 */
function carryPage(
  recorder: GraphRecorder,
  entry: PathToRender,
  routeCache: RouteCacheOfApp | undefined,
  outDir: string,
  fromDir: string,
): boolean {
  if (entry.route.type !== 'page') return false;
  const props = propsOf(entry, routeCache);
  if (props === undefined) return false;
  const key = pageKey(entry.pathname);
  const base = recorder.plan?.base.pages[key];
  if (!base || !pageUnchanged(recorder, key, propsFingerprint(props))) return false;
  const baseFile = pageFile(fromDir, key);
  if (!existsSync(baseFile)) return false;
  const file = pageFile(outDir, key);
  mkdirSync(path.dirname(file), { recursive: true });
  linkFile(baseFile, file);
  placeCompressed(baseFile, file);
  recorder.pages[key] = base;
  carriedFromBase.add(file);
  carriedPages.add(key);
  return true;
}

/** Every file of `dir` but the compressed copies and `except`. */
async function filesOf(dir: string, except: ReadonlySet<string>): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && !compressedSuffixes.some((suffix) => entry.name.endsWith(suffix)))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((file) => !except.has(file));
}

/**
 * In an incremental build, each of `files` (absolute, under `outDir`) whose bytes are the base
 * build's becomes the base's file (a hard link), with the base's compressed copies; answers how
 * many. A full build has no base: none.
 */
export async function shareWithBase(outDir: string, files: readonly string[]): Promise<number> {
  if (!baseDir) return 0;
  let shared = 0;
  for (const file of files) {
    const baseFile = path.join(baseDir, path.relative(outDir, file));
    const [size, baseSize] = await Promise.all([
      stat(file).then((found) => found.size),
      stat(baseFile).then(
        (found) => found.size,
        () => undefined,
      ),
    ]);
    if (size !== baseSize || !(await readFile(file)).equals(await readFile(baseFile))) continue;
    linkFile(baseFile, file);
    placeCompressed(baseFile, file);
    shared += 1;
  }
  return shared;
}

export function incrementalBuild(): AstroIntegration {
  let recorder: GraphRecorder | undefined;
  let plan: IncrementalPlan | undefined;
  let root = process.cwd();
  let outDir = path.join(root, 'dist');
  return {
    name: 'hgd:incremental',
    hooks: {
      'astro:config:done': ({ config }) => {
        root = fileURLToPath(config.root);
        outDir = fileURLToPath(config.outDir);
      },
      'astro:build:start': ({ logger, setPrerenderer }) => {
        /** Reads the plan of this build (INCREMENTAL_PLAN) and starts recording what each page reads. */
        const begin = async () => {
          reusedCompression.clear();
          carriedFromBase.clear();
          carriedPages.clear();
          const planFile = process.env[incrementalPlanVariable];
          plan = planFile ? (JSON.parse(await readFile(planFile, 'utf8')) as IncrementalPlan) : undefined;
          baseDir = plan?.baseDir;
          const base = plan ? readPageGraph(plan.baseDir) : undefined;
          if (plan && !base) throw new Error(`incremental build: ${plan.baseDir} has no ${pageGraphFile}`);
          recorder = startGraphRecorder(plan && base ? { base, changed: new Set(plan.changed) } : undefined);
          if (plan) logger.info(`incremental over ${plan.baseDir}: ${plan.changed.length} content keys changed`);
        };
        // Astro's own prerenderer is kept (it carries the build's app): its setup and its list of
        // paths are extended.
        setPrerenderer((standard) => {
          const setup = standard.setup?.bind(standard);
          const getStaticPaths = standard.getStaticPaths.bind(standard);
          standard.setup = async () => {
            await setup?.();
            // A held build (content/heldBuild.ts) waits here, its code bundled and loaded, for the
            // publication's content and plan; then it renders as any build does.
            if (isHeldBuild()) await awaitBuildOrder();
            await begin();
          };
          standard.getStaticPaths = async () => {
            const paths = await getStaticPaths();
            if (!recorder?.plan || !baseDir) return paths;
            const { routeCache } = (standard as { app?: { routeCache?: RouteCacheOfApp } }).app ?? {};
            const rendered: typeof paths = [];
            for (const entry of paths) {
              if (!carryPage(recorder, entry, routeCache, outDir, baseDir)) rendered.push(entry);
            }
            logger.info(
              `${carriedPages.size} unchanged pages taken from the base build, ${rendered.length} paths to render`,
            );
            return rendered;
          };
          return standard;
        });
      },
      'astro:build:done': async ({ dir, logger }) => {
        const builtDir = fileURLToPath(dir);
        if (plan) {
          const shared = await shareWithBase(builtDir, await filesOf(builtDir, carriedFromBase));
          logger.info(`${shared} other files unchanged, taken from the base build`);
        }
        const sources = sourceVersion(root);
        const graph: PageGraph = {
          codeVersion: codeVersion(root, sources),
          sourceVersion: sources,
          settings: buildSettingValues(),
          // By pathname: an incremental build records its carried pages before those it renders.
          pages: Object.fromEntries(
            Object.entries(recorder?.pages ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
          ),
        };
        await writeFile(path.join(builtDir, pageGraphFile), JSON.stringify(graph));
        stopGraphRecorder();
      },
    },
  };
}
