/**
 * Runs a command of node_modules/.bin (or any command) with inherited output; resolves its exit
 * code. With `label`, every line it prints is written with `[label] ` before it, so that two
 * commands running side by side (npm test's lanes) stay readable, and its last lines are kept in
 * `tail` (a failure's cause, printed again at the end of a long log).
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/** How many of a labelled command's last lines `tail` keeps. */
const tailLines = 60;

export function run(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
  label?: string,
  tail: string[] = [],
): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      stdio: label === undefined ? 'inherit' : ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
    });
    const closed: Promise<void>[] = [];
    if (label !== undefined) {
      for (const [stream, out] of [
        [child.stdout, process.stdout],
        [child.stderr, process.stderr],
      ] as const) {
        const lines = createInterface({ input: stream!, crlfDelay: Infinity });
        lines.on('line', (line) => {
          out.write(`[${label}] ${line}\n`);
          tail.push(line);
          if (tail.length > tailLines) tail.shift();
        });
        closed.push(new Promise((done) => lines.once('close', done)));
      }
    }
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      void Promise.all(closed).then(() => resolve(code ?? (signal ? 1 : 0)));
    });
  });
}

/** Builds the static site when its sources changed since the last build (into a fresh directory, then `dist` switched to it). */
export async function buildIfStale(label?: string): Promise<void> {
  const { buildIsStale, buildSite } = await import('./build-state.ts');
  if (!buildIsStale()) return;
  await buildSite(label === undefined ? {} : { label });
}
