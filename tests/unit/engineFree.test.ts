/**
 * The API test files left out of the PostgreSQL run (tests/api/engineFree.ts) must be ones the
 * test database never reaches: neither they nor any file they import (followed through relative
 * imports) reads TEST_DATABASE_URL, which is how harness.ts, tableFixture.ts and the fuzz worker
 * choose PostgreSQL. Otherwise a file that starts testing the database would silently run on
 * PGlite alone.
 */
import { existsSync, readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsOf } from '../../scripts/import-layers.ts';
import { engineFreeApiTests } from '../api/engineFree.ts';

const root = resolve(import.meta.dirname, '../..');
/** The variable's documentation, not a reader of it. */
const documentation = new Set(['src/server/configDocs.ts']);

function readersOfTestDatabase(start: string): string[] {
  const seen = new Set<string>();
  const readers: string[] = [];
  const visit = (file: string) => {
    if (seen.has(file) || !existsSync(file) || file.includes('node_modules')) return;
    seen.add(file);
    const name = relative(root, file);
    if (!documentation.has(name) && readFileSync(file, 'utf8').includes('TEST_DATABASE_URL')) readers.push(name);
    for (const imported of importsOf(file)) visit(imported);
  };
  visit(resolve(root, start));
  return readers;
}

describe('API test files run on PGlite only', () => {
  it.each(engineFreeApiTests)('%s never reaches the test database', (file) => {
    expect(existsSync(resolve(root, file))).toBe(true);
    expect(readersOfTestDatabase(file)).toEqual([]);
  });

  it('would notice a file that does', () => {
    expect(readersOfTestDatabase('tests/api/order.test.ts')).toContain('tests/api/harness.ts');
  });
});
