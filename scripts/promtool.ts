/**
 * promtool, Prometheus' own checker of the text format, for the metrics tests: Debian's
 * `prometheus` package brings it (/usr/bin/promtool). Where it is not installed and we run as
 * root (a fresh CI machine), installs that package, as scripts/postgres.ts does for PostgreSQL.
 * @example
 * const promtool = await ensurePromtool();
 * const { code, output } = await checkMetrics(promtool, await (await fetch(url)).text());
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { aptInstall, isRoot } from './debian.ts';

/** promtool on the PATH, or undefined. */
export function findPromtool(): string | undefined {
  for (const dir of (process.env['PATH'] ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, 'promtool');
    if (dir && existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** Finds promtool, installing Debian's `prometheus` package when missing and we are root. */
export async function ensurePromtool(): Promise<string> {
  const found = findPromtool();
  if (found) return found;
  if (!isRoot())
    throw new Error('promtool is not installed: run `sudo apt-get install -y --no-install-recommends prometheus`.');
  console.log("Installing Debian's prometheus package (for promtool) for the tests…");
  await aptInstall(['prometheus'], { recommends: false });
  const installed = findPromtool();
  if (!installed) throw new Error('prometheus installed but no promtool on the PATH');
  return installed;
}

/**
 * `promtool check metrics` on an exposition (the Prometheus text format, from stdin): exit code 0
 * and no output when it parses and passes promtool's lint (names, units, `_total`, HELP).
 */
export function checkMetrics(promtool: string, exposition: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(promtool, ['check', 'metrics'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code: code ?? 1, output: output.trim() }));
    child.stdin.end(exposition);
  });
}
