/**
 * On PostgreSQL every statement is prepared once per connection (client.ts postgresDrizzle), in
 * and out of transactions and savepoints: drizzle had every statement parsed and planned again.
 * pg_prepared_statements lists the statements of the connection asking, so each check asks from
 * inside a transaction (one connection). PostgreSQL only: the PGlite thread prepares its own
 * (pgliteThread.test.ts).
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rowsOf, type Database } from '../../src/server/db/client.ts';
import { createTestApp, openPerFile } from './harness.ts';

const t = openPerFile(createTestApp);

async function preparedTexts(db: Pick<Database, 'execute'>): Promise<string[]> {
  return rowsOf<{ statement: string }>(
    await db.execute(sql`select statement from pg_prepared_statements where not from_sql`),
  ).map((row) => row.statement);
}

describe('prepared statements on PostgreSQL', () => {
  it('prepares a statement once and runs it again by name, in a transaction and a savepoint too', async (context) => {
    if (t.kind !== 'postgres') context.skip();
    const marker = `prepared_${Date.now()}`;
    const statement = (value: number) => sql`select ${value}::int4 as n, ${marker}::text as marker`;
    await t.db.transaction(async (tx) => {
      const [first] = rowsOf<{ n: number }>(await tx.execute(statement(1)));
      const [second] = rowsOf<{ n: number }>(await tx.execute(statement(2)));
      expect([first?.n, second?.n]).toEqual([1, 2]);
      const mine = (await preparedTexts(tx)).filter((text) => text.includes('as marker'));
      expect(mine).toHaveLength(1);
      await tx.transaction(async (savepoint) => {
        await savepoint.execute(sql`select ${3}::int4 as in_savepoint`);
        expect((await preparedTexts(savepoint)).some((text) => text.includes('as in_savepoint'))).toBe(true);
      });
    });
  });
});
