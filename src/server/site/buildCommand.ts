/**
 * The build an editors' rebuild runs: `astro build --outDir <fresh dir>` in a child process with
 * CONTENT_DIR pointing at the content snapshot. A child process, not an in-process build, because
 * a build takes most of a CPU for a while and must never stall or crash the server answering
 * visitors. The process that runs builds keeps one started ahead (`heldAstroBuildCommand`), so
 * that a publication does not wait for Astro's start and bundling. Tests inject their own
 * `BuildCommand` (rebuild.ts) to exercise swap and failure fast.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { heldBuildVariable, type HeldBuildOrder, type HeldBuildReady } from '../../content/heldBuild.ts';
import { incrementalPlanVariable } from '../../content/pageGraph.ts';
import type { Config } from '../config.ts';
import { siteLayout } from './servedSite.ts';

export interface BuildRequest {
  /** The content snapshot the build must read. */
  contentDir: string;
  /** A fresh, empty directory the build must write into. */
  outDir: string;
  /** Aborted when the build runs past its time limit. */
  signal: AbortSignal;
  /** Told, as the build goes, the pages written so far, then the pages indexed and the files compressed of how many. */
  onProgress?: (step: BuildStep, done: number, total?: number) => void;
  /** More environment for the build (INCREMENTAL_PLAN; BUILD_LOCALES in the tests' builds). */
  env?: Readonly<Record<string, string>>;
  /**
   * Settles when the job the build is for has ended (published, or failed): a held build's
   * successor starts bundling then, not while the job still stores, stages and publishes.
   */
  jobEnded?: Promise<unknown>;
}

/** The steps of `astro build` the output reports progress of. */
export type BuildStep = 'build' | 'index' | 'compress';

/** A page in `astro build`'s output: `  └─ /welcome/home/index.html (+3ms)`. */
const pageLine = /\.html \(\+\d/;
/** The search index integration's progress: `[hgd:search-index] indexed 120 / 770 pages`. */
const indexLine = /\bindexed (\d+) \/ (\d+) pages/;
/** The precompress integration's progress: `[hgd:precompress] compressed 40 / 382`. */
const compressLine = /\bcompressed (\d+) \/ (\d+)/;

/** Output lines as plain text: Astro colours its output whatever FORCE_COLOR says. */
export function outputLines(chunk: string): string[] {
  return stripVTControlCharacters(chunk).split(/\r?\n/);
}

/**
 * Complete output lines, as plain text, from a stream's chunks. Astro writes a page's path, renders
 * the page, then writes its time: a line arrives in pieces, and only a whole line says a page was
 * written (the rest of a chunk waits for the next).
 */
export function lineReader(onLines: (lines: string[]) => void): { push(chunk: string): void; end(): void } {
  let partial = '';
  return {
    push(chunk) {
      const lines = outputLines(partial + chunk);
      partial = lines.pop() ?? '';
      onLines(lines);
    },
    end() {
      if (partial) onLines(outputLines(partial));
      partial = '';
    },
  };
}

/** Whether an output line reports a page written. */
export function isPageLine(line: string): boolean {
  return pageLine.test(line);
}

/** Files compressed and of how many, when an output line reports them. */
export function compressProgress(line: string): { done: number; total: number } | undefined {
  const match = compressLine.exec(line);
  return match ? { done: Number(match[1]), total: Number(match[2]) } : undefined;
}

/** Pages put in the search index and of how many, when an output line reports them. */
export function indexProgress(line: string): { done: number; total: number } | undefined {
  const match = indexLine.exec(line);
  return match ? { done: Number(match[1]), total: Number(match[2]) } : undefined;
}

/** Builds the site; rejects with an Error whose message says why (the build's last output lines). */
export type BuildCommand = (request: BuildRequest) => Promise<void>;

/** Output lines kept for the failure reason recorded in `site_builds.error`. */
const keptLines = 40;

/**
 * Loaded first in the build's process: it exits when its parent's IPC channel closes (the parent
 * died). The channel is unref'd, so that it does not keep a finished build alive.
 */
const exitWithParent = `data:text/javascript,${encodeURIComponent(
  "process.channel?.unref(); process.on('disconnect', () => process.exit(1));",
)}`;

/** Where the `astro` bin of `projectRoot` is: not among astro's exports; its package.json is, and the bin sits beside it. */
function astroBinOf(projectRoot: string): string {
  const astroPackage = createRequire(path.join(projectRoot, 'package.json')).resolve('astro/package.json');
  return path.join(path.dirname(astroPackage), 'bin', 'astro.mjs');
}

/** One `astro build` process: its output read for progress and kept for the failure reason. */
interface AstroBuild {
  child: ChildProcess;
  /** Resolves when it exits 0; rejects with its last lines otherwise, or with the reason it was stopped. */
  done: Promise<void>;
  /** Resolves true when a held build says it is ready for its order, false if it ended first. */
  ready: Promise<boolean>;
  /** Where its progress goes from now on. */
  report(onProgress: BuildRequest['onProgress']): void;
  /** Ends its whole process group (esbuild's service too); `done` then rejects with `reason`. */
  stop(reason: unknown): void;
}

/**
 * Starts `astro build` of `projectRoot` into `outDir`, in `cwd`. Astro bundles the pages it
 * renders into `<outDir>/.prerender` when `outDir` is inside its working directory, and into the
 * project's `.astro/.prerender` otherwise — shared by every build of the project, so a build held
 * while another runs must work where its `outDir` is (see `heldAstroBuildCommand`).
 */
function spawnAstroBuild(
  projectRoot: string,
  outDir: string,
  env: Readonly<Record<string, string>>,
  cwd: string = projectRoot,
): AstroBuild {
  const tail: string[] = [];
  let pages = 0;
  let onProgress: BuildRequest['onProgress'];
  let stopReason: { reason: unknown } | undefined;
  const keepLines = (lines: string[]) => {
    for (const line of lines) {
      if (line.trim() === '') continue;
      if (isPageLine(line)) onProgress?.('build', (pages += 1));
      const indexed = indexProgress(line);
      if (indexed) onProgress?.('index', indexed.done, indexed.total);
      const compressed = compressProgress(line);
      if (compressed) onProgress?.('compress', compressed.done, compressed.total);
      tail.push(line);
      if (tail.length > keptLines) tail.shift();
    }
  };
  // process.execPath: the Node that runs the server (Node 24 from the `node` devDependency).
  // A process group of its own: a stop sent to the worker's group (systemd's default) must not
  // end the build, which the stopping worker lets finish (WORKER_STOP_SECONDS). Its IPC channel
  // closes when the worker dies, however it dies, and the build exits with it.
  const child = spawn(
    process.execPath,
    ['--import', exitWithParent, astroBinOf(projectRoot), 'build', '--root', projectRoot, '--outDir', outDir],
    {
      cwd,
      env: { ...process.env, ...env, ASTRO_TELEMETRY_DISABLED: '1', FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      detached: true,
    },
  );
  for (const stream of [child.stdout, child.stderr]) {
    // Piped, so never null.
    if (!stream) continue;
    const reader = lineReader(keepLines);
    stream.setEncoding('utf8');
    stream.on('data', reader.push);
    stream.once('end', reader.end);
  }
  const ready = new Promise<boolean>((resolve) => {
    child.on('message', (message: HeldBuildReady) => {
      if (message?.type === 'ready') resolve(true);
    });
    child.once('exit', () => resolve(false));
  });
  const done = new Promise<void>((resolve, reject) => {
    child.once('error', (error) => {
      reject(
        new Error(stopReason ? `build stopped: ${String(stopReason.reason)}` : `build could not run: ${error.message}`),
      );
    });
    child.once('close', (code, killedBy) => {
      if (code === 0) resolve();
      else if (stopReason) reject(new Error(`build stopped: ${String(stopReason.reason)}`));
      else reject(new Error(`astro build exited with ${code ?? killedBy}:\n${tail.join('\n')}`));
    });
  });
  return {
    child,
    done,
    ready,
    report: (next) => {
      onProgress = next;
    },
    stop: (reason) => {
      stopReason = { reason };
      if (child.pid !== undefined && child.exitCode === null) {
        try {
          process.kill(-child.pid, 'SIGTERM');
        } catch {
          // Ended meanwhile.
        }
      }
    },
  };
}

/** Runs `build` for `request`: its progress reported, ended when the request's signal aborts. */
async function runFor(build: AstroBuild, request: BuildRequest): Promise<void> {
  const { signal } = request;
  build.report(request.onProgress);
  const abort = () => build.stop(signal.reason);
  if (signal.aborted) abort();
  else signal.addEventListener('abort', abort, { once: true });
  try {
    await build.done;
  } finally {
    signal.removeEventListener('abort', abort);
  }
}

/** `astro build` of the project in `projectRoot` (the server's working directory by default), started when asked. */
export function astroBuildCommand(projectRoot: string = process.cwd()): BuildCommand {
  return (request) =>
    runFor(spawnAstroBuild(projectRoot, request.outDir, { ...request.env, CONTENT_DIR: request.contentDir }), request);
}

/** What a request may add to a held build's environment: the rest was fixed when it started. */
const orderVariables = new Set([incrementalPlanVariable]);

export interface HeldBuildOptions {
  /** A directory on the builds' file system where the held build writes (moved to the request's `outDir` after). */
  spareDir: string;
  projectRoot?: string;
  /** The environment every build of this command has (a request that differs gets a build of its own). */
  env?: Readonly<Record<string, string>>;
}

export interface HeldBuildCommand extends BuildCommand {
  /** Starts the held build now (a worker's start), so that the first publication finds it ready. */
  hold(): void;
  /** Ends the held build; later requests are built as `astroBuildCommand` builds. */
  close(): void;
  /** Requests built by a held build and by a build of their own. */
  readonly served: { held: number; cold: number };
}

/**
 * `astro build` held ready (content/heldBuild.ts): one build is always started ahead, bundled and
 * waiting; a request gives it its content and plan, and the next is started as it finishes. A
 * request whose environment differs from the held build's (other locales) is built as
 * `astroBuildCommand` builds, and so is any request when the held build ended before it was ready.
 * The output is the same: one code path renders both.
 */
export function heldAstroBuildCommand(options: HeldBuildOptions): HeldBuildCommand {
  const projectRoot = options.projectRoot ?? process.cwd();
  const baseEnv = options.env ?? {};
  const cold = astroBuildCommand(projectRoot);
  let held: { build: AstroBuild; outDir: string } | undefined;
  let closed = false;
  let count = 0;
  const served = { held: 0, cold: 0 };
  const ownBuild = (request: BuildRequest) => {
    served.cold += 1;
    return cold(request);
  };
  // One process owns a DATA_DIR (dataDirLock.ts): what is here was held by a process that ended.
  rmSync(options.spareDir, { recursive: true, force: true });
  mkdirSync(options.spareDir, { recursive: true });
  // Held builds work in the spare directory, their bundles in their own output (spawnAstroBuild);
  // the bundles' imports of packages find the project's through this link.
  symlinkSync(path.join(projectRoot, 'node_modules'), path.join(options.spareDir, 'node_modules'));
  // Paths a build resolves from its working directory are the project's.
  const heldEnv = {
    CONTENT_DIR: path.resolve(process.env['CONTENT_DIR'] ?? path.join(projectRoot, 'src/content')),
    ...baseEnv,
    [heldBuildVariable]: '1',
  };

  /** While held it must not keep the worker's event loop alive; once ordered it must. */
  const holdLoose = (build: AstroBuild, loose: boolean) => {
    // The pipes are sockets (typed as streams): they hold the loop as the process does.
    const { child } = build;
    const handles = [child, child.stdout, child.stderr, child.channel] as ({ ref(): void; unref(): void } | null)[];
    for (const handle of handles)
      if (loose) handle?.unref();
      else handle?.ref();
  };

  const holdNext = () => {
    if (closed) return;
    count += 1;
    const outDir = path.join(options.spareDir, `held-${process.pid}-${count}`);
    rmSync(outDir, { recursive: true, force: true });
    mkdirSync(outDir, { recursive: true });
    const build = spawnAstroBuild(projectRoot, outDir, heldEnv, options.spareDir);
    build.done.catch(() => {});
    holdLoose(build, true);
    held = { build, outDir };
  };

  const sameSettings = (env: Readonly<Record<string, string>>) =>
    Object.entries(env).every(([name, value]) => orderVariables.has(name) || baseEnv[name] === value) &&
    Object.entries(baseEnv).every(([name, value]) => env[name] === value);

  return Object.assign(
    async (request: BuildRequest) => {
      const env = request.env ?? {};
      if (closed || !sameSettings(env)) return ownBuild(request);
      if (!held) holdNext();
      const { build, outDir } = held!;
      held = undefined;
      holdLoose(build, false);
      // A held build still bundling counts against the request's time limit too.
      const stopWaiting = () => build.stop(request.signal.reason);
      if (request.signal.aborted) stopWaiting();
      else request.signal.addEventListener('abort', stopWaiting, { once: true });
      const ready = await build.ready;
      request.signal.removeEventListener('abort', stopWaiting);
      if (!ready) {
        rmSync(outDir, { recursive: true, force: true });
        holdNext();
        if (request.signal.aborted) throw new Error(`build stopped: ${String(request.signal.reason)}`);
        return ownBuild(request);
      }
      const order: HeldBuildOrder = {
        type: 'build',
        env: {
          CONTENT_DIR: request.contentDir,
          ...Object.fromEntries(Object.entries(env).filter(([name]) => orderVariables.has(name))),
        },
      };
      build.child.send(order);
      served.held += 1;
      try {
        await runFor(build, request);
      } catch (error) {
        rmSync(outDir, { recursive: true, force: true });
        throw error;
      } finally {
        if (request.jobEnded) void request.jobEnded.finally(holdNext);
        else holdNext();
      }
      // The request's directory is new and empty (buildJob.ts): the held build's output takes its place.
      rmSync(request.outDir, { recursive: true, force: true });
      renameSync(outDir, request.outDir);
    },
    {
      served,
      hold() {
        if (!held) holdNext();
      },
      close() {
        closed = true;
        held?.build.stop('the command was closed');
        held = undefined;
      },
    },
  );
}

/** The held build of the process that runs builds under `config` (its DATA_DIR), unless SITE_BUILD_HELD=false. */
export function heldBuildFor(config: Pick<Config, 'siteBuildHeld' | 'dataDir'>): HeldBuildCommand | undefined {
  return config.siteBuildHeld ? heldAstroBuildCommand({ spareDir: siteLayout(config.dataDir).heldDir }) : undefined;
}

/** Pages a build wrote: its HTML files (one per page, locale and region, plus the not-found pages). */
export async function countPages(outDir: string): Promise<number> {
  const entries = await readdir(outDir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile() && entry.name.endsWith('.html')).length;
}
