/**
 * The API's OpenAPI document, exactly as the app serves it at /api/openapi.json:
 * - `node scripts/api-description.ts <file>` writes it to a file;
 * - `node scripts/api-description.ts --lint` (`npm run check:api`, part of `npm run check`) writes
 *   it to a temporary file and lints it with Redocly CLI and redocly.yaml — an independent tool, so
 *   a description that is not valid OpenAPI 3.1 fails the check. Offline: no telemetry, no update check.
 * The app runs on an empty in-memory database: the document depends on the routes only. A rebuild
 * token is set so that the token-guarded calls register their (internal) descriptions too.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApp } from '../src/server/app.ts';
import { loadConfig } from '../src/server/config.ts';
import { openPglite } from '../src/server/db/client.ts';
import { createLogger } from '../src/server/logger.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const argument = process.argv[2];
if (!argument) {
  console.error('usage: node scripts/api-description.ts <file> | --lint');
  process.exit(2);
}

async function documentText(): Promise<string> {
  const config = loadConfig({ SITE_WORKER: 'external', METRICS_ENABLED: 'false', REBUILD_TOKEN: 'x'.repeat(32) });
  const handle = await openPglite({}, config);
  try {
    const app = createApp({ db: handle.db, config, logger: createLogger({ logLevel: 'silent' }) });
    const res = await app.request('/api/openapi.json');
    if (res.status !== 200) throw new Error(`/api/openapi.json answered HTTP ${res.status}`);
    return await res.text();
  } finally {
    await handle.close();
  }
}

if (argument === '--lint') {
  const dir = await mkdtemp(path.join(tmpdir(), 'openapi-'));
  const file = path.join(dir, 'openapi.json');
  try {
    await writeFile(file, await documentText());
    execFileSync(
      process.execPath,
      [
        path.join(root, 'node_modules/@redocly/cli/bin/cli.js'),
        'lint',
        '--config',
        path.join(root, 'redocly.yaml'),
        file,
      ],
      {
        stdio: 'inherit',
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      },
    );
  } catch (error) {
    // Redocly has printed its findings; exit non-zero without a stack.
    process.exitCode = 1;
    if (!(error instanceof Error && 'status' in error)) throw error;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
} else {
  await writeFile(argument, await documentText());
}
