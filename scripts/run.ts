/** Runs a command of node_modules/.bin (or any command) with inherited output; resolves its exit code. */
import { spawn } from 'node:child_process';

export function run(command: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/** Builds the static site when its sources changed since the last build (into a fresh directory, then `dist` switched to it). */
export async function buildIfStale(): Promise<void> {
  const { buildIsStale, buildSite } = await import('./build-state.ts');
  if (!buildIsStale()) return;
  await buildSite();
}
