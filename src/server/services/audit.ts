/** The audit log (DOMAIN.md, Security): logins, logouts, certification and order transitions, exports. */
import type { Database } from '../db/client.ts';
import { auditLog } from '../db/schema/index.ts';

export interface AuditEntry {
  userId: number | null;
  /** Dotted verb: `session.login`, `session.logout`, `order.accept`… */
  action: string;
  target?: string | null;
  /** No secrets here: no passwords, codes or tokens. */
  detail?: Record<string, unknown>;
  ip?: string | null;
}

export async function writeAudit(db: Database, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({
    userId: entry.userId,
    action: entry.action,
    target: entry.target ?? null,
    detail: entry.detail ?? {},
    ip: entry.ip ?? null,
  });
}
