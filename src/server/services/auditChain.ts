/**
 * The audit log as a chain (GB/T 22239-2019 8.1.4.3 d, PIPL art. 51): each entry carries its place
 * `seq` (1, 2, 3… with no gap), the hash of the entry before it and its own hash, an HMAC-SHA256
 * keyed from the server's root secret over its fields and that previous hash. Whoever edits a row
 * without the key breaks its hash; deleting a row leaves a hole in `seq` and breaks the next row's
 * link; an inserted row has no valid hash. Deleting the newest rows leaves a shorter, valid chain:
 * the head (`seq` and hash) logged by housekeeping, or printed by `npm run audit -- head`, is what
 * `verify --head` compares against.
 *
 * Writers append under a transaction-scoped advisory lock (services/audit.ts), so N processes
 * extend one chain; the lock is held until the writer's transaction ends, the link is therefore
 * never to a row that rolls back.
 */
import { createHmac } from 'node:crypto';
import { asc, gt, isNotNull, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { auditLog } from '../db/schema/index.ts';

/** The link of the first entry. */
export const genesisHash = '0'.repeat(64);

/** The fields a hash covers, as stored. */
export interface ChainedFields {
  seq: number;
  at: Date;
  userId: number | null;
  action: string;
  target: string | null;
  detail: Record<string, unknown>;
  ip: string | null;
}

/** JSON with object keys sorted at every level: jsonb keeps no key order, so the hash must not depend on it. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export function entryHash(key: Buffer, fields: ChainedFields, prevHash: string): string {
  const message = canonicalJson([
    fields.seq,
    fields.at.toISOString(),
    fields.userId,
    fields.action,
    fields.target,
    // What jsonb gives back: a Date becomes its ISO text, undefined members vanish.
    JSON.parse(JSON.stringify(fields.detail ?? {})) as unknown,
    fields.ip,
    prevHash,
  ]);
  return createHmac('sha256', key).update(message).digest('hex');
}

/** The newest chained entry, or the genesis link when the chain is empty. */
export interface ChainHead {
  seq: number;
  hash: string;
}

export async function chainHead(db: Database): Promise<ChainHead> {
  const [row] = await db
    .select({ seq: auditLog.seq, hash: auditLog.hash })
    .from(auditLog)
    .where(isNotNull(auditLog.seq))
    .orderBy(sql`${auditLog.seq} desc`)
    .limit(1);
  return row?.seq && row.hash ? { seq: row.seq, hash: row.hash } : { seq: 0, hash: genesisHash };
}

/** One thing `verify` found wrong, naming the row. */
export interface ChainFinding {
  kind: 'changed' | 'deleted' | 'inserted' | 'truncated';
  /** The row's id (absent for deleted rows, which are named by their `seq`). */
  id?: number;
  seq?: number;
  /** For deleted rows: the missing places, first to last. */
  missing?: [number, number];
}

export interface ChainReport {
  /** Chained entries checked. */
  checked: number;
  /** Entries written before the chain existed (no `seq`), which nothing can vouch for. */
  unchained: number;
  head: ChainHead;
  findings: ChainFinding[];
}

const pageSize = 2_000;

/**
 * Walks the whole chain in `seq` order (in pages, so a long log needs little memory) and names
 * every row that was changed, inserted or deleted. `expectedHead`, a head noted earlier, catches
 * the newest rows' deletion.
 */
export async function verifyChain(db: Database, key: Buffer, expectedHead?: ChainHead): Promise<ChainReport> {
  const findings: ChainFinding[] = [];
  let previous: ChainHead = { seq: 0, hash: genesisHash };
  // A row's link is only judged after a row that verified: the row after a changed one names
  // that row's original hash, which says nothing new.
  let previousValid = true;
  let checked = 0;
  let noted: { seq: number; hash: string | null } | undefined;
  for (;;) {
    const rows = await db
      .select()
      .from(auditLog)
      .where(gt(auditLog.seq, previous.seq))
      .orderBy(asc(auditLog.seq))
      .limit(pageSize);
    for (const row of rows) {
      const seq = row.seq ?? 0;
      checked += 1;
      if (seq > previous.seq + 1) findings.push({ kind: 'deleted', missing: [previous.seq + 1, seq - 1] });
      const valid = row.hash === entryHash(key, { ...row, seq }, row.prevHash ?? '');
      if (!valid) findings.push({ kind: 'changed', id: row.id, seq });
      // A valid row whose link misses its predecessor was moved or its predecessor replaced; the
      // link is not judged after a hole (the deletion is named already).
      else if (previousValid && seq === previous.seq + 1 && row.prevHash !== previous.hash)
        findings.push({ kind: 'inserted', id: row.id, seq });
      if (expectedHead && seq === expectedHead.seq) noted = { seq, hash: row.hash };
      previous = { seq, hash: row.hash ?? '' };
      previousValid = valid;
    }
    if (rows.length < pageSize) break;
  }
  // Rows without a place after the chain began were written around the audit writer.
  const [counts] = await db
    .select({
      unchained: sql<number>`count(*) filter (where ${auditLog.seq} is null and ${auditLog.id} < coalesce((select min(id) from audit_log where seq is not null), 9223372036854775807))::int`,
    })
    .from(auditLog);
  const stray = await db
    .select({ id: auditLog.id })
    .from(auditLog)
    .where(
      sql`${auditLog.seq} is null and ${auditLog.id} > coalesce((select min(id) from audit_log where seq is not null), 9223372036854775807)`,
    )
    .orderBy(asc(auditLog.id));
  for (const row of stray) findings.push({ kind: 'inserted', id: row.id });
  if (expectedHead && expectedHead.seq > 0 && (!noted || noted.hash !== expectedHead.hash))
    findings.push({ kind: 'truncated', seq: expectedHead.seq });
  return { checked, unchained: counts?.unchained ?? 0, head: previous, findings };
}
