/**
 * The SMS gateway behind verification codes. Production plugs a real gateway in (see http.ts);
 * the default outbox provider stores each message in `sms_outbox` (where the tests read the code)
 * and shows it on the terminal of a local run (DOMAIN.md, Security).
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

/**
 * Where the outbox shows a message as a phone would: the terminal the server runs in, when that
 * is a terminal. Piped to a file or a service manager's journal, stderr is a log, and no log holds
 * a code: the message is then only in `sms_outbox`.
 */
export function terminalScreen(stream: NodeJS.WriteStream = process.stderr): ((text: string) => void) | null {
  return stream.isTTY ? (text) => void stream.write(`${text}\n`) : null;
}

export function createOutboxProvider(
  db: Database,
  logger: Logger,
  screen: ((text: string) => void) | null = terminalScreen(),
): SmsProvider {
  return {
    name: 'outbox',
    async send(message) {
      const [row] = await db.insert(smsOutbox).values(message).returning({ id: smsOutbox.id });
      logger.info({ outboxId: row?.id, to: maskMobile(message.phone), purpose: message.purpose }, 'SMS outbox: stored');
      screen?.(`SMS outbox → ${maskMobile(message.phone)}: ${message.text}`);
    },
  };
}
