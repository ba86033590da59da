/**
 * Encrypted columns (GB/T 35273-2020 6.3, 等保 8.1.4.8): bank account numbers are kept sealed
 * with AES-256-GCM by a data key, and the data keys (`field_keys`) are kept wrapped by a key
 * derived from the server's root secret (secrets.ts). Each sealed value names its data key in a
 * column of its own with a foreign key, so the database refuses to delete a key a value still
 * needs. The column's name is the associated data: a value moved to another column does not open.
 *
 * Rotation (`npm run keys -- rotate`): a new data key becomes the newest, every value sealed by
 * another key (or not yet sealed) is opened and sealed again, then each older key is deleted —
 * unless a value written meanwhile still names it, which its foreign key tells.
 *
 * A value that needs a lookup would take a keyed blind index beside it; none of the sealed
 * columns is looked up by its value (a challenge is found by its hash, a binding by enterprise).
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { and, asc, desc, eq, inArray, isNull, ne, or, sql, type Column } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Database } from './db/client.ts';
import { sqlStateOf } from './db/errors.ts';
import { bankBindings, bankChallenges, fieldKeys } from './db/schema/index.ts';
import type { KeySource } from './secrets.ts';

/** A value as stored: the ciphertext and the data key that sealed it (null: a plain value from before). */
export interface SealedValue {
  value: string;
  keyId: number | null;
}

/** Opens and seals the values of the encrypted columns. */
export interface FieldCipher {
  /**
   * Seals `plain` for `column` with the newest data key (made on first use). Call it before the
   * writer's transaction: the keys may be read on first use, on a connection of their own.
   */
  seal(db: Database, column: SealedColumnName, plain: string): Promise<SealedValue & { keyId: number }>;
  /** The plain value; throws when it was not sealed for this column by a key of this server. */
  open(db: Database, column: SealedColumnName, sealed: SealedValue): Promise<string>;
  /** Throws, naming the key, unless every data key opens with this server's root secret. */
  verifyKeys(db: Database): Promise<void>;
}

/** Every encrypted column: what rotation walks. */
const sealedColumns = {
  'bank_bindings.account_no': {
    table: bankBindings,
    id: bankBindings.id,
    value: bankBindings.accountNo,
    key: bankBindings.accountNoKey,
    written: (sealed: SealedValue) => ({ accountNo: sealed.value, accountNoKey: sealed.keyId }),
  },
  'bank_challenges.account_no': {
    table: bankChallenges,
    id: bankChallenges.id,
    value: bankChallenges.accountNo,
    key: bankChallenges.accountNoKey,
    written: (sealed: SealedValue) => ({ accountNo: sealed.value, accountNoKey: sealed.keyId }),
  },
} satisfies Record<
  string,
  { table: PgTable; id: Column; value: Column; key: Column; written: (sealed: SealedValue) => object }
>;

export type SealedColumnName = keyof typeof sealedColumns;
export const sealedColumnNames = Object.keys(sealedColumns) as SealedColumnName[];

const cipherName = 'aes-256-gcm';

function encrypt(key: Buffer, associated: string, plain: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv(cipherName, key, iv);
  cipher.setAAD(Buffer.from(associated));
  const sealed = Buffer.concat([cipher.update(plain), cipher.final()]);
  return [iv, cipher.getAuthTag(), sealed].map((part) => part.toString('base64url')).join('.');
}

function decrypt(key: Buffer, associated: string, stored: string): Buffer {
  const [iv, tag, sealed] = stored.split('.');
  if (!iv || !tag || sealed === undefined) throw new Error(`${associated}: not a sealed value`);
  const decipher = createDecipheriv(cipherName, key, Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(associated));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]);
}

const wrappingContext = 'field-key';

/** Makes a new data key the newest one; answers its id. */
export async function createFieldKey(db: Database, keys: KeySource): Promise<number> {
  const { fieldKeyWrapping } = await keys();
  const [row] = await db
    .insert(fieldKeys)
    .values({ wrapped: encrypt(fieldKeyWrapping, wrappingContext, randomBytes(32)) })
    .returning({ id: fieldKeys.id });
  if (!row) throw new Error('field_keys: the new key was not stored');
  return row.id;
}

export function createFieldCipher(keys: KeySource): FieldCipher {
  // Unwrapped data keys by id: a key never changes once made, only goes.
  const unwrapped = new Map<number, Buffer>();
  async function dataKey(db: Database, id: number, wrapped?: string): Promise<Buffer> {
    const known = unwrapped.get(id);
    if (known) return known;
    let stored = wrapped;
    if (stored === undefined) {
      const [row] = await db.select({ wrapped: fieldKeys.wrapped }).from(fieldKeys).where(eq(fieldKeys.id, id));
      if (!row) throw new Error(`field_keys: no key ${id}`);
      stored = row.wrapped;
    }
    let key: Buffer;
    try {
      key = decrypt((await keys()).fieldKeyWrapping, wrappingContext, stored);
    } catch {
      throw new Error(
        `field_keys: key ${id} does not open with this root secret (APP_SECRET): see docs/operations.md, "Keys"`,
      );
    }
    unwrapped.set(id, key);
    return key;
  }
  return {
    async seal(db, column, plain) {
      // Read at every seal, never cached: after a rotation, every process seals with the new key at once.
      const [newest] = await db
        .select({ id: fieldKeys.id, wrapped: fieldKeys.wrapped })
        .from(fieldKeys)
        .orderBy(desc(fieldKeys.id))
        .limit(1);
      const keyId = newest?.id ?? (await createFieldKey(db, keys));
      const key = await dataKey(db, keyId, newest?.wrapped);
      return { value: encrypt(key, column, Buffer.from(plain, 'utf8')), keyId };
    },
    async open(db, column, sealed) {
      if (sealed.keyId === null) return sealed.value;
      return decrypt(await dataKey(db, sealed.keyId), column, sealed.value).toString('utf8');
    },
    async verifyKeys(db) {
      for (const row of await db.select().from(fieldKeys).orderBy(asc(fieldKeys.id)))
        await dataKey(db, row.id, row.wrapped);
    },
  };
}

export interface RotationReport {
  /** The data key every value is now sealed by. */
  keyId: number;
  /** Values sealed again, by column. */
  resealed: Record<SealedColumnName, number>;
  /** Older keys deleted. */
  deleted: number[];
  /** Older keys kept because a value written during the rotation still names them. */
  kept: number[];
}

const batchSize = 500;

/**
 * Seals again, with the newest key, every value of `column` that `stale` selects; answers how
 * many. Each row is written only if it still holds what was read, and is read once.
 */
async function resealColumn(db: Database, cipher: FieldCipher, column: SealedColumnName, stale: 'plain' | number) {
  const { table, id, value, key, written: columnsOf } = sealedColumns[column];
  const selected = stale === 'plain' ? isNull(key) : or(isNull(key), ne(key, stale));
  let count = 0;
  let after: number | string | undefined;
  for (;;) {
    const rows = (await db
      .select({ id, value, keyId: key })
      .from(table)
      .where(and(selected, after === undefined ? undefined : sql`${id} > ${after}`))
      .orderBy(asc(id))
      .limit(batchSize)) as { id: number | string; value: string; keyId: number | null }[];
    for (const row of rows) {
      const sealed = await cipher.seal(db, column, await cipher.open(db, column, row));
      const written = await db
        .update(table)
        .set(columnsOf(sealed) as never)
        .where(and(eq(id, row.id as never), eq(value, row.value)))
        .returning({ id });
      count += written.length;
    }
    if (rows.length < batchSize) return count;
    after = rows.at(-1)!.id;
  }
}

/** Seals the values written before encryption (at start-up; idempotent). */
export async function sealPlainValues(db: Database, cipher: FieldCipher): Promise<number> {
  let count = 0;
  for (const column of sealedColumnNames) count += await resealColumn(db, cipher, column, 'plain');
  return count;
}

/** `npm run keys -- rotate`: a new data key, every value sealed by it, the older keys deleted. */
export async function rotateFieldKeys(db: Database, keys: KeySource, cipher: FieldCipher): Promise<RotationReport> {
  // With another root secret, a new key would be one no server could open: refused before anything is written.
  await cipher.verifyKeys(db);
  const keyId = await createFieldKey(db, keys);
  const resealed = {} as Record<SealedColumnName, number>;
  for (const column of sealedColumnNames) resealed[column] = await resealColumn(db, cipher, column, keyId);
  const older = await db
    .select({ id: fieldKeys.id })
    .from(fieldKeys)
    .where(ne(fieldKeys.id, keyId))
    .orderBy(asc(fieldKeys.id));
  const deleted: number[] = [];
  const kept: number[] = [];
  for (const { id } of older) {
    try {
      await db.delete(fieldKeys).where(inArray(fieldKeys.id, [id]));
      deleted.push(id);
    } catch (error) {
      // Still named by a value written while the rotation ran (23001 restrict_violation since
      // PostgreSQL 17, 23503 before); the next rotation takes it.
      if (!['23001', '23503'].includes(sqlStateOf(error) ?? '')) throw error;
      kept.push(id);
    }
  }
  return { keyId, resealed, deleted, kept };
}

/** `npm run keys -- status`: each data key, and how many values it seals. */
export async function fieldKeyUse(db: Database): Promise<{ id: number; createdAt: Date; values: number }[]> {
  const rows = await db.select().from(fieldKeys).orderBy(asc(fieldKeys.id));
  const counts = new Map<number, number>();
  for (const column of sealedColumnNames) {
    const { table, key } = sealedColumns[column];
    const used = await db
      .select({ keyId: key, n: sql<number>`count(*)::int` })
      .from(table)
      .groupBy(key);
    for (const { keyId, n } of used as { keyId: number | null; n: number }[])
      if (keyId !== null) counts.set(keyId, (counts.get(keyId) ?? 0) + Number(n));
  }
  return rows.map((row) => ({ id: row.id, createdAt: row.createdAt, values: counts.get(row.id) ?? 0 }));
}
