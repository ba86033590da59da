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
  /** Told the number of pages written so far, as the build goes. */
  onPage?: (pages: number) => void;
  /** More environment for the build (BUILD_LOCALES for a preview). */
  env?: Readonly<Record<string, string>>;
}

/** A page in `astro build`'s output: `  └─ /welcome/home/index.html (+3ms)`. */
const pageLine = /\.html \(\+\d/;

/** Output lines as plain text: Astro colours its output whatever FORCE_COLOR says. */
export function outputLines(chunk: string): string[] {
  return stripVTControlCharacters(chunk).split(/\r?\n/);
}

/** Whether an output line reports a page written. */
export function isPageLine(line: string): boolean {
  return pageLine.test(line);
}

/** Builds the site; rejects with an Error whose message says why (the build's last output lines). */
export type BuildCommand = (request: BuildRequest) => Promise<void>;

/** Output lines kept for the failure reason recorded in `site_builds.error`. */
const keptLines = 40;

/** `astro build` of the project in `projectRoot` (the server's working directory by default). */
export function astroBuildCommand(projectRoot: string = process.cwd()): BuildCommand {
  // The bin is not among astro's exports; its package.json is, and the bin sits beside it.
  const astroPackage = createRequire(path.join(projectRoot, 'package.json')).resolve('astro/package.json');
  const astroBin = path.join(path.dirname(astroPackage), 'bin', 'astro.mjs');
  return ({ contentDir, outDir, signal, onPage, env = {} }) =>
    new Promise<void>((resolve, reject) => {
      const tail: string[] = [];
      let pages = 0;
      const keep = (chunk: Buffer) => {
        for (const line of outputLines(chunk.toString('utf8'))) {
          if (line.trim() === '') continue;
          if (onPage && isPageLine(line)) onPage((pages += 1));
          tail.push(line);
          if (tail.length > keptLines) tail.shift();
        }
      };
      // process.execPath: the Node that runs the server (Node 24 from the `node` devDependency).
      const child = spawn(process.execPath, [astroBin, 'build', '--outDir', outDir], {
        cwd: projectRoot,
        env: { ...process.env, ...env, CONTENT_DIR: contentDir, ASTRO_TELEMETRY_DISABLED: '1', FORCE_COLOR: '0' },
        stdio: ['ignore', 'pipe', 'pipe'],
        signal,
        killSignal: 'SIGTERM',
      });
      child.stdout.on('data', keep);
      child.stderr.on('data', keep);
      child.once('error', (error) => {
        reject(new Error(signal.aborted ? `build stopped: ${String(signal.reason)}` : `build could not run: ${error.message}`));
      });
      child.once('close', (code, killedBy) => {
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
