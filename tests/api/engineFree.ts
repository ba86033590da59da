/**
 * API test files that the test database never reaches: they start the server's processes, its
 * command line or its storage on an embedded database or a directory of their own, or test no
 * database at all. Run on PostgreSQL (TEST_DATABASE_URL) they would do exactly what they do on
 * PGlite, so vitest.config.ts leaves them out of the PostgreSQL run. tests/unit/engineFree.test.ts
 * checks that none of them reads TEST_DATABASE_URL or opens the test database, through any
 * file it imports.
 */
export const engineFreeApiTests = [
  'tests/api/auditCli.test.ts',
  'tests/api/buildStops.test.ts',
  'tests/api/config.test.ts',
  'tests/api/dataDirLock.test.ts',
  'tests/api/healthDrain.test.ts',
  'tests/api/heldBuild.test.ts',
  'tests/api/objectStore.test.ts',
  'tests/api/queryString.test.ts',
  'tests/api/server.test.ts',
  'tests/api/userCli.test.ts',
];
