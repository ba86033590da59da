/**
 * The release a process runs: package.json's version and the git commit, answered by the health
 * calls (routes/health.ts, which the operator console's footer reads) and exported as the
 * `hgd_build_info` metric (metrics/instruments.ts).
 *
 * The commit, in this order:
 * 1. `git rev-parse HEAD`, when the project is a git checkout: its own `.git`, so that a tree
 *    copied into another repository's folder does not take that repository's commit;
 * 2. the record `npm run build` leaves in the build it makes (`dist/.release.json`,
 *    scripts/build-state.ts), for a deployment shipped without `.git` — used only when it names
 *    this version, since a record of another release would name the wrong commit;
 * 3. `unknown`.
 *
 * Read once per process (`currentRelease`): the code a process runs does not change under it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Release {
  /** package.json's `version` (semantic versioning; CHANGELOG.md says what each one holds). */
  version: string;
  /** The full commit hash, or `unknown`. */
  commit: string;
}

export const unknownCommit = 'unknown';
/** The record of a build's release, beside its pages (a hidden file: neither served nor uploaded to the CDN). */
export const releaseRecordName = '.release.json';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
const commitPattern = /^[0-9a-f]{40,64}$/;
/** `git` answers in milliseconds; a hung one (a network file system) must not hold a start up. */
const gitTimeoutMs = 5000;

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as unknown;
  } catch {
    return undefined;
  }
}

function stringField(value: unknown, name: string): string | undefined {
  const field = value && typeof value === 'object' ? (value as Record<string, unknown>)[name] : undefined;
  return typeof field === 'string' ? field : undefined;
}

function gitCommit(root: string): string | undefined {
  if (!existsSync(path.join(root, '.git'))) return undefined;
  try {
    const commit = execFileSync('git', ['rev-parse', 'HEAD'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: gitTimeoutMs,
    }).trim();
    return commitPattern.test(commit) ? commit : undefined;
  } catch {
    // No git installed, a checkout owned by another user (git's safe.directory), no commit yet.
    return undefined;
  }
}

function recordedCommit(root: string, version: string): string | undefined {
  const record = readJson(path.join(root, 'dist', releaseRecordName));
  const commit = stringField(record, 'commit');
  return stringField(record, 'version') === version && commit && commitPattern.test(commit) ? commit : undefined;
}

/** The release of the project in `root`, read now. */
export function readRelease(root: string = projectRoot): Release {
  const version = stringField(readJson(path.join(root, 'package.json')), 'version') ?? 'unknown';
  return { version, commit: gitCommit(root) ?? recordedCommit(root, version) ?? unknownCommit };
}

let current: Release | undefined;

/** The release this process runs. */
export function currentRelease(): Release {
  current ??= readRelease();
  return current;
}

/** Writes the release of `root` into a finished build directory, for a process that will find no `.git`. */
export function recordRelease(buildDir: string, root: string = projectRoot): Release {
  const release = readRelease(root);
  writeFileSync(path.join(buildDir, releaseRecordName), `${JSON.stringify(release)}\n`);
  return release;
}
