/**
 * The build an editors' rebuild runs: `astro build --outDir <fresh dir>` in a child process with
 * CONTENT_DIR pointing at the content snapshot. A child process, not an in-process build, because
 * a build takes most of a CPU for a while and must never stall or crash the server answering
 * visitors. Tests inject their own `BuildCommand` (rebuild.ts) to exercise swap and failure fast.
 */
import { spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';

export interface BuildRequest {
  /** The content snapshot the build must read. */
  contentDir: string;
  /** A fresh, empty directory the build must write into. */
  outDir: string;
  /** Aborted when the build runs past its time limit. */
  signal: AbortSignal;
  /** Told, as the build goes, the pages written so far, then the pages indexed and the files compressed of how many. */
  onProgress?: (step: BuildStep, done: number, total?: number) => void;
  /** More environment for the build (BUILD_LOCALES for a preview, INCREMENTAL_PLAN). */
  env?: Readonly<Record<string, string>>;
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

/** `astro build` of the project in `projectRoot` (the server's working directory by default). */
export function astroBuildCommand(projectRoot: string = process.cwd()): BuildCommand {
  // The bin is not among astro's exports; its package.json is, and the bin sits beside it.
  const astroPackage = createRequire(path.join(projectRoot, 'package.json')).resolve('astro/package.json');
  const astroBin = path.join(path.dirname(astroPackage), 'bin', 'astro.mjs');
  return ({ contentDir, outDir, signal, onProgress, env = {} }) =>
    new Promise<void>((resolve, reject) => {
      const tail: string[] = [];
      let pages = 0;
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
      const child = spawn(process.execPath, ['--import', exitWithParent, astroBin, 'build', '--outDir', outDir], {
        cwd: projectRoot,
        env: { ...process.env, ...env, CONTENT_DIR: contentDir, ASTRO_TELEMETRY_DISABLED: '1', FORCE_COLOR: '0' },
        stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
        detached: true,
      });
      // The time limit, or a worker handing its job back, ends the whole group (esbuild's service too).
      const stop = () => {
        if (child.pid !== undefined && child.exitCode === null) {
          try {
            process.kill(-child.pid, 'SIGTERM');
          } catch {
            // Ended meanwhile.
          }
        }
      };
      if (signal.aborted) stop();
      else signal.addEventListener('abort', stop, { once: true });
      for (const stream of [child.stdout, child.stderr]) {
        // Piped, so never null.
        if (!stream) continue;
        const reader = lineReader(keepLines);
        stream.setEncoding('utf8');
        stream.on('data', reader.push);
        stream.once('end', reader.end);
      }
      child.once('error', (error) => {
        reject(
          new Error(
            signal.aborted ? `build stopped: ${String(signal.reason)}` : `build could not run: ${error.message}`,
          ),
        );
      });
      child.once('close', (code, killedBy) => {
        signal.removeEventListener('abort', stop);
        if (code === 0) resolve();
        else if (!signal.aborted) {
          reject(new Error(`astro build exited with ${code ?? killedBy}:\n${tail.join('\n')}`));
        }
      });
    });
}

/** Pages a build wrote: its HTML files (one per page, locale and region, plus the not-found pages). */
export async function countPages(outDir: string): Promise<number> {
  const entries = await readdir(outDir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile() && entry.name.endsWith('.html')).length;
}
