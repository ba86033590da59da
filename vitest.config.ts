import { defineConfig } from 'vitest/config';

// Unit tests (pure logic, stores, request client) and API tests (in-process server on a real
// PGlite database). Browser tests are Playwright's, in tests/e2e.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          environment: 'node',
          // Migrates + seeds one database per run; each file opens an in-memory copy of it.
          globalSetup: ['tests/api/globalSetup.ts'],
          // Each file opens its own in-memory database from the migrated snapshot.
          testTimeout: 20_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
