/**
 * The real server (src/server/main.ts `startServer`: the built site and /api on an embedded
 * PGlite database, migrated and seeded as `npm start` does), started inside the Playwright worker
 * so that the test can read what only a phone owner or a person looking at the screen could
 * read: the SMS outbox and the captcha.
 *
 * Nothing here asks anything of production code. The outbox provider writes every message to
 * `sms_outbox` (docs/accounts.md): the test reads the table of the database this server uses, as
 * a local run reads the log. The captcha table keeps only an HMAC of the lower-cased answer,
 * keyed with the server's captcha key; the test holds the server's runtime (and so its keys, as
 * an operator of the machine would) and recovers the answer by trying every 4-character text of
 * the captcha's alphabet (390 625 HMACs, under a second) — it reads the image's text, it does
 * not change what the server checks.
 */
import { hash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, desc, eq, isNull, like, or, sql } from 'drizzle-orm';
import { loadConfig } from '../../../src/server/config.ts';
import { captchas, rateLimits, smsOutbox, users, type SmsPurpose } from '../../../src/server/db/schema/index.ts';
import type { Database } from '../../../src/server/db/client.ts';
import { startServer } from '../../../src/server/main.ts';
import { captchaAlphabet, captchaRules, hashCaptchaAnswer } from '../../../src/server/services/captcha.ts';
import { loginRules } from '../../../src/server/services/login.ts';

export interface AccountsServer {
  url: string;
  db: Database;
  close(): Promise<void>;
  /** The 6-digit code of the newest SMS sent to `phone` (for `purpose`, when given); waits for it briefly. */
  smsCode(phone: string, purpose?: SmsPurpose): Promise<string>;
  /** The text of the newest captcha image not yet used. */
  captchaAnswer(): Promise<string>;
  /** The user name of the account with this mobile number. */
  userNameOf(mobile: string): Promise<string | undefined>;
  /** Forgets the per-address limits (login tries, login failures, captcha images): the next test is a new visitor. */
  forgetAddressLimits(): Promise<void>;
}

const captchaChars = [...new Set(captchaAlphabet.toLowerCase())].join('');

/**
 * HMAC-SHA256 with the key's pads computed once (RFC 2104): createHmac per candidate costs ~15 µs,
 * two one-shot hashes ~2 µs. Checked against the server's own hashCaptchaAnswer before use.
 */
function answerHasher(key: Buffer): (answer: string) => string {
  const inner = Buffer.alloc(64, 0x36);
  const outer = Buffer.alloc(64, 0x5c);
  for (let i = 0; i < key.length; i++) {
    inner[i]! ^= key[i]!;
    outer[i]! ^= key[i]!;
  }
  const hmac = (answer: string) =>
    hash(
      'sha256',
      Buffer.concat([outer, hash('sha256', Buffer.concat([inner, Buffer.from(answer)]), 'buffer')]),
      'hex',
    );
  if (hmac('abcd') !== hashCaptchaAnswer(key, 'abcd'))
    throw new Error('the captcha answer is no longer an HMAC-SHA256 of the lower-cased text');
  return hmac;
}

function crackCaptcha(key: Buffer, answerHash: string): string {
  const hashOf = answerHasher(key);
  const n = captchaChars.length;
  for (let i = 0; i < n ** 4; i++) {
    const text =
      captchaChars.charAt(Math.floor(i / n ** 3) % n) +
      captchaChars.charAt(Math.floor(i / n ** 2) % n) +
      captchaChars.charAt(Math.floor(i / n) % n) +
      captchaChars.charAt(i % n);
    if (hashOf(text) === answerHash) return text;
  }
  throw new Error('captcha answer not found: has the captcha alphabet, length or hashing changed?');
}

async function poll<T>(read: () => Promise<T | undefined>, what: string, timeoutMs = 5000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function startAccountsServer(): Promise<AccountsServer> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'hgd-e2e-accounts-'));
  const config = loadConfig({
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dataDir,
    STATIC_DIR: 'dist',
    LOG_LEVEL: 'silent',
    SEED_DEMO_ACCOUNTS: 'true',
  });
  const running = await startServer(config);
  const address = running.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const db = running.runtime.db;

  return {
    url: `http://127.0.0.1:${port}`,
    db,
    close: async () => {
      await running.close();
      await rm(dataDir, { recursive: true, force: true });
    },
    smsCode: (phone, purpose) =>
      poll(async () => {
        const [row] = await db
          .select({ text: smsOutbox.text })
          .from(smsOutbox)
          .where(and(eq(smsOutbox.phone, phone), purpose === undefined ? undefined : eq(smsOutbox.purpose, purpose)))
          .orderBy(desc(smsOutbox.id))
          .limit(1);
        return row?.text.match(/\d{6}/)?.[0];
      }, `an SMS to ${phone}`),
    captchaAnswer: async () => {
      const row = await poll(async () => {
        const [found] = await db
          .select({ answerHash: captchas.answerHash })
          .from(captchas)
          .where(isNull(captchas.usedAt))
          .orderBy(desc(captchas.createdAt))
          .limit(1);
        return found;
      }, 'a captcha');
      return crackCaptcha(running.runtime.keys.captcha, row.answerHash);
    },
    forgetAddressLimits: async () => {
      const rules = [loginRules.perIp, loginRules.failuresPerIp, captchaRules.perIp];
      await db.delete(rateLimits).where(or(...rules.map((rule) => like(rateLimits.key, `${rule.name}:%`))));
    },
    userNameOf: async (mobile) => {
      const [row] = await db.select({ userName: users.userName }).from(users).where(eq(users.mobile, mobile)).limit(1);
      return row?.userName;
    },
  };
}

/**
 * Ends the 60 s wait between two codes to one phone, as a minute passing would: the wait is a
 * rate-limit window in the database, and the test closes it instead of sleeping for a minute.
 */
export async function endResendWait(db: Database, phone: string): Promise<void> {
  await db
    .update(rateLimits)
    .set({ expiresAt: sql`now()` })
    .where(eq(rateLimits.key, `sms.interval:${phone}`));
}
