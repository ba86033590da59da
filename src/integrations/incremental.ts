/**
 * The page graph of every build, and the incremental build (src/content/pageGraph.ts):
 *
 *   build:start  starts the recorder — with the base build's graph and the changed content keys
 *                when INCREMENTAL_PLAN names a plan, empty otherwise
 *   build:done   (first of the build:done hooks) puts the base build's bytes where the middleware
 *                left the unchanged-page marker, reuses the base's compressed copies of every file
 *                whose bytes did not change (precompress skips them), and writes `.pages.json`
 *
 * Files written after the pages (the search index) take the base's file where their bytes are
 * the same (`shareWithBase`), so the build's archive carries only what changed (site/artifacts.ts).
 *
 * Pages a full build would not write (a removed item's) are not in the output, so they are gone.
 */
import type { AstroIntegration } from 'astro';
import { copyFile, link, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  buildSettingValues,
  codeVersion,
  sourceVersion,
  incrementalPlanVariable,
  pageGraphFile,
  readPageGraph,
  startGraphRecorder,
  stopGraphRecorder,
  unchangedPageMarker,
  type GraphRecorder,
  type IncrementalPlan,
  type PageGraph,
} from '../content/pageGraph.ts';
import { awaitBuildOrder, isHeldBuild } from '../content/heldBuild.ts';

/** Files of this build whose `.br` and `.gz` are the base build's (read by precompress). */
export const reusedCompression = new Set<string>();
/** Pages of this build that are the base build's, unchanged (the page-policy check skips them). */
export const carriedFromBase = new Set<string>();
/** The base build's output directory, in an incremental build. */
let baseDir: string | undefined;

/** Hard link (same file system: the builds' directory), else a copy. */
async function place(from: string, to: string): Promise<void> {
  await rm(to, { force: true });
  try {
    await link(from, to);
  } catch {
    await copyFile(from, to);
  }
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

const markerBytes = Buffer.byteLength(unchangedPageMarker);
const compressedSuffixes = ['.br', '.gz'];

/** Fills the unchanged pages from `baseDir` and reuses its compressed copies; answers the pages taken from it. */
async function fillFromBase(outDir: string, baseDir: string): Promise<number> {
  const entries = await readdir(outDir, { recursive: true, withFileTypes: true });
  let carried = 0;
  for (const entry of entries) {
    if (!entry.isFile() || compressedSuffixes.some((suffix) => entry.name.endsWith(suffix))) continue;
    const file = path.join(entry.parentPath, entry.name);
    const relative = path.relative(outDir, file);
    const baseFile = path.join(baseDir, relative);
    const { size } = await stat(file);
    const baseSize = await stat(baseFile).then(
      (found) => found.size,
      () => undefined,
    );
    if (size === markerBytes && (await readFile(file, 'utf8')) === unchangedPageMarker) {
      if (baseSize === undefined) throw new Error(`incremental build: the base build has no ${relative}`);
      await place(baseFile, file);
      carriedFromBase.add(file);
      carried += 1;
    } else if (baseSize !== size || !(await readFile(file)).equals(await readFile(baseFile))) continue;
    let reused = true;
    for (const suffix of compressedSuffixes) {
      if (await exists(baseFile + suffix)) await place(baseFile + suffix, file + suffix);
      else reused = false;
    }
    if (reused) reusedCompression.add(file);
  }
  return carried;
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
    await place(baseFile, file);
    let reused = true;
    for (const suffix of compressedSuffixes) {
      if (await exists(baseFile + suffix)) await place(baseFile + suffix, file + suffix);
      else reused = false;
    }
    if (reused) reusedCompression.add(file);
    shared += 1;
  }
  return shared;
}

export function incrementalBuild(): AstroIntegration {
  let recorder: GraphRecorder | undefined;
  let plan: IncrementalPlan | undefined;
  let root = process.cwd();
  return {
    name: 'hgd:incremental',
    hooks: {
      'astro:config:done': ({ config }) => {
        root = fileURLToPath(config.root);
      },
      'astro:build:start': async ({ logger, setPrerenderer }) => {
        /** Reads the plan of this build (INCREMENTAL_PLAN) and starts recording what each page reads. */
        const begin = async () => {
          reusedCompression.clear();
          carriedFromBase.clear();
          const planFile = process.env[incrementalPlanVariable];
          plan = planFile ? (JSON.parse(await readFile(planFile, 'utf8')) as IncrementalPlan) : undefined;
          baseDir = plan?.baseDir;
          const base = plan ? readPageGraph(plan.baseDir) : undefined;
          if (plan && !base) throw new Error(`incremental build: ${plan.baseDir} has no ${pageGraphFile}`);
          recorder = startGraphRecorder(plan && base ? { base, changed: new Set(plan.changed) } : undefined);
          if (plan) logger.info(`incremental over ${plan.baseDir}: ${plan.changed.length} content keys changed`);
        };
        if (!isHeldBuild()) return begin();
        // A held build (content/heldBuild.ts) waits, its code bundled and loaded, for the
        // publication's content and plan; then it renders as any build does. Astro's own
        // prerenderer is kept (it carries the build's app): only its setup is extended.
        setPrerenderer((standard) => {
          const setup = standard.setup?.bind(standard);
          standard.setup = async () => {
            await setup?.();
            await awaitBuildOrder();
            await begin();
          };
          return standard;
        });
      },
      'astro:build:done': async ({ dir, logger }) => {
        const outDir = fileURLToPath(dir);
        if (plan) {
          const carried = await fillFromBase(outDir, plan.baseDir);
          logger.info(`${carried} unchanged pages taken from the base build`);
        }
        const sources = sourceVersion(root);
        const graph: PageGraph = {
          codeVersion: codeVersion(root, sources),
          sourceVersion: sources,
          settings: buildSettingValues(),
          pages: recorder?.pages ?? {},
        };
        await writeFile(path.join(outDir, pageGraphFile), JSON.stringify(graph));
        stopGraphRecorder();
      },
    },
  };
}
