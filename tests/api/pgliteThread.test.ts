/**
 * PGlite on its own thread (db/pgliteThread.ts): the server's thread keeps answering while
 * the database runs a long statement, and the drizzle database keeps its behaviour — transactions
 * in order and alone, rollback, errors with their SQLSTATE, LISTEN/NOTIFY at commit, dumps.
 * PGlite only: on PostgreSQL the database is another process anyway.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite, rowsOf, type PgliteHandle } from '../../src/server/db/client.ts';
import { isUniqueViolation, sqlStateOf } from '../../src/server/db/errors.ts';
import { listenToChannel, notify } from '../../src/server/db/changeNotifications.ts';
import { createTestApp, type TestApp } from './harness.ts';

const onPglite = !process.env['TEST_DATABASE_URL'];

/** Runs `during` repeatedly while `work` runs; answers how long `work` took and the slowest `during`. */
async function whileRunning(
  work: () => Promise<unknown>,
  during: () => Promise<unknown>,
): Promise<{ workMs: number; slowestMs: number; rounds: number }> {
  let done = false;
  let slowestMs = 0;
  let rounds = 0;
  const started = performance.now();
  const working = work().finally(() => {
    done = true;
  });
  const probing = (async () => {
    while (!done) {
      const at = performance.now();
      await during();
      slowestMs = Math.max(slowestMs, performance.now() - at);
      rounds += 1;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  let workMs = 0;
  await Promise.all([working.then(() => (workMs = performance.now() - started)), probing]);
  return { workMs, slowestMs, rounds };
}

describe.runIf(onPglite)('PGlite off the main thread', () => {
  let handle: PgliteHandle;
  beforeAll(async () => {
    handle = await openPglite({}, { dbStatementTimeoutMs: 60_000 });
    await handle.db.execute(sql`create table t (id int primary key, note text)`);
  });
  afterAll(async () => {
    await handle.close();
  });

  it('the event loop keeps turning while a statement runs for 1.5 s', async () => {
    let timerGapMs = 0;
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      timerGapMs = Math.max(timerGapMs, now - last);
      last = now;
    }, 10);
    const { workMs, rounds } = await whileRunning(
      () => handle.db.execute(sql`select pg_sleep(1.5)`),
      async () => {},
    ).finally(() => clearInterval(timer));
    expect(workMs).toBeGreaterThanOrEqual(1400);
    // On the server's thread the 10 ms timer waited the whole 1.5 s.
    expect(timerGapMs).toBeLessThan(400);
    expect(rounds).toBeGreaterThan(20);
  });

  it("a transaction's statements run in order with nothing between them; a statement outside waits for its commit", async () => {
    const order: string[] = [];
    const inside = handle.db.transaction(async (tx) => {
      await tx.execute(sql`insert into t values (1, 'a')`);
      order.push('tx: first insert');
      // The server's thread does other work in the middle of the transaction.
      await new Promise((resolve) => setTimeout(resolve, 100));
      await tx.execute(sql`insert into t values (2, 'b')`);
      order.push('tx: second insert');
      return rowsOf<{ n: number }>(await tx.execute(sql`select count(*)::int as n from t`))[0]?.n;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const outside = handle.db.execute(sql`select count(*)::int as n from t`).then((result) => {
      order.push('outside: count');
      return rowsOf<{ n: number }>(result)[0]?.n;
    });
    expect(await inside).toBe(2);
    // The outside count saw both rows or neither; it ran after the commit.
    expect(await outside).toBe(2);
    expect(order).toEqual(['tx: first insert', 'tx: second insert', 'outside: count']);
  });

  it('a transaction whose callback throws is rolled back, and so is a savepoint', async () => {
    await expect(
      handle.db.transaction(async (tx) => {
        await tx.execute(sql`insert into t values (10, 'gone')`);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    await handle.db.transaction(async (tx) => {
      await tx.execute(sql`insert into t values (11, 'kept')`);
      await tx
        .transaction(async (inner) => {
          await inner.execute(sql`insert into t values (12, 'gone')`);
          inner.rollback();
        })
        .catch(() => {});
    });
    const ids = rowsOf<{ id: number }>(await handle.db.execute(sql`select id from t where id >= 10 order by id`)).map(
      (row) => row.id,
    );
    expect(ids).toEqual([11]);
  });

  it("errors keep the driver's SQLSTATE and fields, and the connection goes on", async () => {
    const error = await handle.db.execute(sql`insert into t values (1, 'again')`).catch((caught: unknown) => caught);
    expect(isUniqueViolation(error)).toBe(true);
    expect(JSON.stringify(error, Object.getOwnPropertyNames(error))).toContain('t_pkey');
    const failedTx = await handle.db
      .transaction(async (tx) => {
        await tx.execute(sql`insert into t values (20, 'x')`);
        await tx.execute(sql`select 1 / 0`);
      })
      .catch((caught: unknown) => caught);
    expect(sqlStateOf(failedTx)).toBe('22012');
    expect(rowsOf(await handle.db.execute(sql`select id from t where id = 20`))).toEqual([]);
  });

  it('a NOTIFY sent in a transaction arrives at its commit, never for a rollback', async () => {
    const received: string[] = [];
    const stop = await listenToChannel(handle, 'thread_test', (payload) => received.push(payload));
    await handle.db.transaction(async (tx) => {
      await notify(tx, 'thread_test', 'committed');
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(received).toEqual([]);
    });
    await handle.db
      .transaction(async (tx) => {
        await notify(tx, 'thread_test', 'rolled back');
        throw new Error('no');
      })
      .catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(received).toEqual(['committed']);
    await stop();
    await handle.db.execute(sql`select pg_notify('thread_test', 'after stop')`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(received).toEqual(['committed']);
  });

  it('a dump opens again as its own database, with the trigram extension available', async () => {
    const copy = await openPglite({ loadDataDir: await handle.client.dumpDataDir() }, { dbStatementTimeoutMs: 60_000 });
    try {
      expect(rowsOf(await copy.db.execute(sql`select id from t order by id`)).map((row) => row['id'])).toEqual([
        1, 2, 11,
      ]);
      await copy.db.execute(sql`create extension if not exists pg_trgm`);
      expect(
        rowsOf(await copy.db.execute(sql`select similarity('精密仪器', '精密') > 0 as similar`))[0]?.['similar'],
      ).toBe(true);
    } finally {
      await copy.close();
    }
  });

  it('a closed database refuses statements with an error, not a hang', async () => {
    const other = await openPglite({}, { dbStatementTimeoutMs: 60_000 });
    await other.close();
    await expect(other.db.execute(sql`select 1`)).rejects.toThrow();
  });
});

describe.runIf(onPglite)('the server answers while the database works', () => {
  let t: TestApp;
  let dist: string;
  beforeAll(async () => {
    dist = await mkdtemp(path.join(tmpdir(), 'hgd-thread-static-'));
    await writeFile(path.join(dist, 'robots.txt'), 'User-agent: *');
    t = await createTestApp({ staticDir: dist });
  });
  afterAll(async () => {
    await t.close();
    await rm(dist, { recursive: true, force: true });
  });

  it('static pages answer within 400 ms while a 2-second statement runs', async () => {
    const { workMs, slowestMs, rounds } = await whileRunning(
      () => t.db.execute(sql`select pg_sleep(2)`),
      async () => {
        const response = await t.app.request('/robots.txt');
        expect(response.status).toBe(200);
        expect(await response.text()).toBe('User-agent: *');
      },
    );
    expect(workMs).toBeGreaterThanOrEqual(1900);
    expect(rounds).toBeGreaterThan(10);
    expect(slowestMs).toBeLessThan(400);
  });

  it('health answers while the database is busy, saying so, and ok once it is free', async () => {
    const busy = t.db.execute(sql`select pg_sleep(2.5)`).then(() => {}); // started now (drizzle's queries run when awaited)
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = performance.now();
    const during = (await (await t.app.request('/api/health')).json()) as {
      code: number;
      data: { status: string; database: string };
    };
    expect(performance.now() - started).toBeLessThan(1800);
    expect(during).toMatchObject({ code: 200, data: { status: 'ok', database: 'busy' } });
    await busy;
    const after = (await (await t.app.request('/api/health')).json()) as { data: { database: string } };
    expect(after.data.database).toBe('ok');
  });
});
