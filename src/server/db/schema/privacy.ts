/**
 * Evidence of personal-information consent (PIPL art. 14, GB/T 35273-2020 5.4): each agreement to
 * (or refusal of) a version of the user agreement or the privacy policy, with when and from which
 * device. Rows are never updated or deleted; a cancelled account's rows are kept de-identified.
 */
import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, text, timestamp, varchar } from 'drizzle-orm/pg-core';
import { legalDocumentIds, type LegalDocumentId } from '../../../content/schemas.ts';
import { users } from './foundation.ts';

export const consentDecisions = ['agreed', 'declined'] as const;
export type ConsentDecision = (typeof consentDecisions)[number];
/** Where it was given: at registration, or asked again after a new version took effect. */
export const consentOrigins = ['register', 'reconsent'] as const;
export type ConsentOrigin = (typeof consentOrigins)[number];

export const consents = pgTable(
  'consents',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    document: text('document').$type<LegalDocumentId>().notNull(),
    version: varchar('version', { length: 16 }).notNull(),
    decision: text('decision').$type<ConsentDecision>().notNull(),
    origin: text('origin').$type<ConsentOrigin>().notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    ip: text('ip'),
    /** The browser's User-Agent (what "device" means for the web) and the client's device id. */
    userAgent: text('user_agent'),
    deviceId: varchar('device_id', { length: 32 }),
  },
  (t) => [
    index('consents_user_id_document_at_idx').on(t.userId, t.document, t.at),
    check('consents_document_check', sql.raw(`document in (${legalDocumentIds.map((id) => `'${id}'`).join(', ')})`)),
    check('consents_decision_check', sql`${t.decision} in ('agreed', 'declined')`),
    check('consents_origin_check', sql`${t.origin} in ('register', 'reconsent')`),
  ],
);
