/**
 * The audit log (DOMAIN.md, Security): sign-ins and their failures, logouts, privileged actions,
 * certification and order transitions, exports. Each entry is appended to the keyed hash chain of
 * services/auditChain.ts; nothing else writes the table and nothing deletes from it.
 */
import { sql } from 'drizzle-orm';
import type { AuditAction } from '../../lib/auditTrail.ts';
import type { Database } from '../db/client.ts';
import { auditLog } from '../db/schema/index.ts';
import { deriveServerKeys, storedRootSecret } from '../secrets.ts';
import { chainHead, entryHash } from './auditChain.ts';

export interface AuditEntry {
  userId: number | null;
  /** One of the trail's actions (lib/auditTrail.ts), each named in the dictionaries. */
  action: AuditAction;
  target?: string | null;
  /** No secrets here: no passwords, codes or tokens. */
  detail?: Record<string, unknown>;
  ip?: string | null;
  /** When it happened; now when omitted (the demo seed backdates its history). */
  at?: Date;
}

/** Appends one at a time across every process: the chain has one head. */
const auditLockKey = 6_849_636_403;

let processKey: Buffer | undefined;

/**
 * The chain's key for this process (runtime.ts, from the configured or stored root secret). Without
 * it — the test harness, the seed of a test snapshot — the key comes from the database's stored root
 * secret, which is what `loadServerKeys` gives when APP_SECRET is not set.
 */
export function useAuditKey(key: Buffer): void {
  processKey = key;
}

async function auditKey(db: Database): Promise<Buffer> {
  return processKey ?? deriveServerKeys(await storedRootSecret(db)).auditChain;
}

/**
 * Appends the entries, in order, after the chain's head. Inside a caller's transaction this is a
 * savepoint and the lock is held until that transaction ends, so an entry is never linked to one
 * that rolls back.
 */
export async function writeAudit(db: Database, entries: AuditEntry | AuditEntry[]): Promise<void> {
  const list = Array.isArray(entries) ? entries : [entries];
  if (list.length === 0) return;
  const key = await auditKey(db);
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${auditLockKey})`);
    let head = await chainHead(tx);
    const rows = list.map((entry) => {
      const fields = {
        seq: head.seq + 1,
        at: entry.at ?? new Date(),
        userId: entry.userId,
        action: entry.action,
        target: entry.target ?? null,
        detail: entry.detail ?? {},
        ip: entry.ip ?? null,
      };
      const hash = entryHash(key, fields, head.hash);
      const row = { ...fields, prevHash: head.hash, hash };
      head = { seq: fields.seq, hash };
      return row;
    });
    // Large batches (the demo seed) in slices, well under the driver's parameter limit.
    for (let i = 0; i < rows.length; i += 500) await tx.insert(auditLog).values(rows.slice(i, i + 500));
  });
}
