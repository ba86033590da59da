/**
 * Whether dist/ is older than its sources, so `npm start` and `npm test` build only when needed.
 */
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
export const distDir = join(root, 'dist');
const stampFile = join(distDir, '.build-stamp');
const sources = ['src', 'public', 'astro.config.mjs', 'package-lock.json'];

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path, { recursive: true })) {
    newest = Math.max(newest, statSync(join(path, String(entry))).mtimeMs);
  }
  return newest;
}

export function buildIsStale(): boolean {
  if (!existsSync(stampFile)) return true;
  const built = statSync(stampFile).mtimeMs;
  return sources.some((source) => newestMtime(join(root, source)) > built);
}

export function markBuilt(): void {
  writeFileSync(stampFile, new Date().toISOString());
}
