/**
 * The SMS gateway behind verification codes. Production plugs a real gateway in (see http.ts);
 * the default outbox provider stores each message in `sms_outbox` and writes it to the server
 * log, so that a local run and the tests can read the code (DOMAIN.md, Security).
 */
import { maskMobile } from '../../lib/masking.ts';
import type { Database } from '../db/client.ts';
import { smsOutbox, type SmsPurpose } from '../db/schema/index.ts';
import type { Logger } from '../logger.ts';

export interface SmsMessage {
  phone: string;
  purpose: SmsPurpose;
  /** The full text as the phone shows it, code included. */
  text: string;
}

export interface SmsProvider {
  /** Short name for logs and docs: `outbox`, `http`. */
  readonly name: string;
  /** Resolves once the gateway accepted the message; rejects when it did not. */
  send(message: SmsMessage): Promise<void>;
}

export function createOutboxProvider(db: Database, logger: Logger): SmsProvider {
  return {
    name: 'outbox',
    async send(message) {
      const [row] = await db.insert(smsOutbox).values(message).returning({ id: smsOutbox.id });
      // This line is the outbox's delivery channel (the "phone screen" of a local run); a real
      // gateway never logs the text.
      logger.info(
        { outboxId: row?.id, to: maskMobile(message.phone), purpose: message.purpose },
        `SMS outbox: ${message.text}`,
      );
    },
  };
}
