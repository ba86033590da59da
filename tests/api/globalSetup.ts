/**
 * Makes the API tests' database snapshot (or PostgreSQL template) once per run (snapshot.ts), and
 * the directory the run's log goes to; at the end, scans that log for personal data (logScan.ts).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { scanRunLogs } from './logScan.ts';
import { createPostgresTemplate, writePgliteSnapshot } from './snapshot.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteSnapshot: string;
    postgresTemplate: string;
    runLogDir: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const runLogDir = await mkdtemp(path.join(tmpdir(), 'hgd-api-log-'));
  project.provide('runLogDir', runLogDir);
  const scanLogs = async () => {
    const scan = scanRunLogs(runLogDir);
    await rm(runLogDir, { recursive: true, force: true });
    if (scan.findings.length > 0)
      throw new Error(`The test run's log holds personal data or secrets:\n${scan.findings.join('\n')}`);
    process.stdout.write(`Log scan: ${scan.lines} lines from ${scan.files} files, no personal data or secret.\n`);
  };
  const serverUrl = process.env['TEST_DATABASE_URL'];
  if (serverUrl) {
    const template = await createPostgresTemplate(serverUrl);
    project.provide('postgresTemplate', template.name);
    return async () => {
      await template.cleanup();
      await scanLogs();
    };
  }
  const snapshot = await writePgliteSnapshot();
  project.provide('pgliteSnapshot', snapshot.file);
  return async () => {
    await snapshot.cleanup();
    await scanLogs();
  };
}
