/** Makes the API tests' database snapshot (or PostgreSQL template) once per run; see snapshot.ts. */
import type { TestProject } from 'vitest/node';
import { createPostgresTemplate, writePgliteSnapshot } from './snapshot.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteSnapshot: string;
    postgresTemplate: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const serverUrl = process.env['TEST_DATABASE_URL'];
  if (serverUrl) {
    const template = await createPostgresTemplate(serverUrl);
    project.provide('postgresTemplate', template.name);
    return template.cleanup;
  }
  const snapshot = await writePgliteSnapshot();
  project.provide('pgliteSnapshot', snapshot.file);
  return snapshot.cleanup;
}
