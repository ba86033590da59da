import { configDefaults, defineConfig } from 'vitest/config';
import { engineFreeApiTests } from './tests/api/engineFree.ts';

// Unit tests (pure logic, stores, request client), API tests (in-process server on a real
// PGlite database) and the cluster test (two server processes on PostgreSQL; `npm run test:cluster`,
// after a build). Browser tests are Playwright's, in tests/e2e.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          environment: 'node',
          // The slowest unit test takes under 2 s alone; npm test runs another lane on the same cores.
          testTimeout: 15_000,
        },
      },
      {
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          // On PostgreSQL (TEST_DATABASE_URL), only the files the test database reaches: the others
          // run as on PGlite, so they run once, in the PGlite run.
          exclude: [...configDefaults.exclude, ...(process.env['TEST_DATABASE_URL'] ? engineFreeApiTests : [])],
          environment: 'node',
          // Migrates + seeds one database per run; each file opens an in-memory copy of it.
          globalSetup: ['tests/api/globalSetup.ts'],
          // Each file opens its own in-memory database from the migrated snapshot.
          testTimeout: 20_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          // Real `astro build`s compared (incremental against full: tests/build). Minutes, not seconds.
          name: 'build',
          include: ['tests/build/**/*.test.ts'],
          environment: 'node',
          testTimeout: 10 * 60_000,
          hookTimeout: 6 * 60_000,
        },
      },
      {
        test: {
          // Real API processes on PostgreSQL and an S3-compatible server, with real rebuilds
          // (tests/cluster/cluster.ts). Needs the built site: run after `npm run build` (npm test does).
          name: 'cluster',
          include: ['tests/cluster/**/*.test.ts'],
          environment: 'node',
          testTimeout: 9 * 60_000,
          hookTimeout: 4 * 60_000,
        },
      },
    ],
  },
});
