/**
 * The sandbox bank (BANK_PROVIDER=sandbox): a local stand-in for the bank's account service, its
 * USB keys and its authorisation register, so USB-key certification can be tried end to end
 * without a bank. Everything is deterministic:
 *
 * - a fixed list of accounts (`sandboxAccounts`), some of which misbehave on purpose: a frozen
 *   account, one whose lookup fails, one whose lookup never answers, and two whose authorisation
 *   (saveEmp) fails or never answers — so every failure path can be seen and tested;
 * - each account's USB key is an Ed25519 key derived from BANK_SANDBOX_SEED and the account number,
 *   unlocked by the demo PIN `sandboxPin`; `sign` stands in for the bank's browser signing driver
 *   (POST /api/sandbox/icbc/usbkey/sign) and `verifySignature` for the bank's verification;
 * - every call waits BANK_SANDBOX_LATENCY_MS first, and honours the caller's abort signal.
 *
 * The register of authorisations lives in memory: it is the bank's side, which the portal never
 * reads back, so losing it on restart loses nothing of the portal's.
 */
import { createHash, createPrivateKey, createPublicKey, randomBytes, sign, verify, type KeyObject } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  usbKeySignedText,
  type BankAccount,
  type BankProvider,
  type EmpAuthorisation,
  type SignatureCheck,
} from './provider.ts';

/** How an account behaves in the sandbox. */
export type SandboxBehaviour = 'normal' | 'frozen' | 'lookupFails' | 'lookupTimesOut' | 'saveFails' | 'saveTimesOut';

export interface SandboxAccount {
  accountNo: string;
  accountName: string;
  branchName: string;
  behaviour: SandboxBehaviour;
}

/** The demo PIN of every sandbox USB key (documented in docs/enterprises.md and README). */
export const sandboxPin = '123456';

export const sandboxBankName = '中国工商银行';

/** The name the misbehaving accounts are held by: add an enterprise of this name to try them. */
export const sandboxTrialEnterpriseName = '广州示例电子科技有限公司';

/**
 * The sandbox's accounts. The first three are held by the seeded demo enterprises (demo_company's
 * certified one and the two under review); the rest by `sandboxTrialEnterpriseName`.
 */
export const sandboxAccounts: readonly SandboxAccount[] = [
  {
    accountNo: '6222021001000000011',
    accountName: '广州明珠精密制造有限公司',
    branchName: '中国工商银行广州黄埔支行',
    behaviour: 'normal',
  },
  {
    accountNo: '6222021001000000029',
    accountName: '佛山华瑞新材料有限公司',
    branchName: '中国工商银行佛山顺德支行',
    behaviour: 'normal',
  },
  {
    accountNo: '6222021001000000037',
    accountName: '深圳蓝海国际物流有限公司',
    branchName: '中国工商银行深圳前海支行',
    behaviour: 'normal',
  },
  {
    accountNo: '6222021001000000045',
    accountName: sandboxTrialEnterpriseName,
    branchName: '中国工商银行广州天河支行',
    behaviour: 'normal',
  },
  {
    accountNo: '6222021001000000052',
    accountName: sandboxTrialEnterpriseName,
    branchName: '中国工商银行广州天河支行',
    behaviour: 'frozen',
  },
  {
    accountNo: '6222021001000000060',
    accountName: sandboxTrialEnterpriseName,
    branchName: '中国工商银行广州天河支行',
    behaviour: 'lookupFails',
  },
  {
    accountNo: '6222021001000000078',
    accountName: sandboxTrialEnterpriseName,
    branchName: '中国工商银行广州天河支行',
    behaviour: 'lookupTimesOut',
  },
  {
    accountNo: '6222021001000000086',
    accountName: sandboxTrialEnterpriseName,
    branchName: '中国工商银行广州天河支行',
    behaviour: 'saveFails',
  },
  {
    accountNo: '6222021001000000094',
    accountName: sandboxTrialEnterpriseName,
    branchName: '中国工商银行广州天河支行',
    behaviour: 'saveTimesOut',
  },
];

/** Why the sandbox key refused to sign. */
export class SandboxKeyError extends Error {
  readonly reason: 'noKey' | 'pinWrong';

  constructor(reason: 'noKey' | 'pinWrong') {
    super(reason);
    this.name = 'SandboxKeyError';
    this.reason = reason;
  }
}

export interface SandboxBank extends BankProvider {
  /** The USB key's signature over the portal's challenge (the browser driver's job at a real bank). */
  sign(input: {
    accountNo: string;
    pin: string;
    challenge: string;
  }): Promise<{ signature: string; certSerial: string }>;
}

export interface SandboxOptions {
  seed: string;
  latencyMs: number;
}

// PKCS#8 wrapping of a raw 32-byte Ed25519 private key (RFC 8410): this prefix, then the key.
const ed25519Pkcs8Prefix = Buffer.from('302e020100300506032b657004220420', 'hex');

interface SandboxKey {
  privateKey: KeyObject;
  publicKey: KeyObject;
  certSerial: string;
}

export function createSandboxBank(options: SandboxOptions): SandboxBank {
  const byNumber = new Map(sandboxAccounts.map((account) => [account.accountNo, account]));
  const keys = new Map<string, SandboxKey>();
  const register = new Map<string, EmpAuthorisation>();

  function keyOf(accountNo: string): SandboxKey {
    let key = keys.get(accountNo);
    if (!key) {
      const seed = createHash('sha256').update(`${options.seed}|usbkey|${accountNo}`).digest();
      const privateKey = createPrivateKey({
        key: Buffer.concat([ed25519Pkcs8Prefix, seed]),
        format: 'der',
        type: 'pkcs8',
      });
      const publicKey = createPublicKey(privateKey);
      const fingerprint = createHash('sha256')
        .update(publicKey.export({ format: 'der', type: 'spki' }))
        .digest('hex');
      key = { privateKey, publicKey, certSerial: `SBX-${fingerprint.slice(0, 16).toUpperCase()}` };
      keys.set(accountNo, key);
    }
    return key;
  }

  /** The sandbox's answer time; an abort ends the wait with the abort's error. */
  async function answerAfterLatency(signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    if (options.latencyMs > 0) await sleep(options.latencyMs, undefined, { signal });
  }

  /** A bank that never answers: wait for the caller to give up. */
  function never(signal: AbortSignal): Promise<never> {
    return new Promise((_, reject) => {
      signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
    });
  }

  return {
    bank: 'icbc',

    async lookupAccount(accountNo, signal): Promise<BankAccount | null> {
      await answerAfterLatency(signal);
      const account = byNumber.get(accountNo);
      if (!account) return null;
      if (account.behaviour === 'lookupFails') throw new Error('sandbox bank: account service unavailable');
      if (account.behaviour === 'lookupTimesOut') return never(signal);
      return {
        accountNo: account.accountNo,
        accountName: account.accountName,
        bankName: sandboxBankName,
        branchName: account.branchName,
        frozen: account.behaviour === 'frozen',
      };
    },

    async verifySignature(check: SignatureCheck, signal): Promise<boolean> {
      await answerAfterLatency(signal);
      if (!byNumber.has(check.accountNo)) return false;
      const key = keyOf(check.accountNo);
      if (check.certSerial !== key.certSerial) return false;
      const signature = Buffer.from(check.signature, 'base64');
      if (signature.length !== 64) return false;
      return verify(null, Buffer.from(check.signedText, 'utf8'), key.publicKey, signature);
    },

    async saveEmp(authorisation, signal) {
      await answerAfterLatency(signal);
      const account = byNumber.get(authorisation.accountNo);
      if (account?.behaviour === 'saveFails') throw new Error('sandbox bank: authorisation register unavailable');
      if (account?.behaviour === 'saveTimesOut') return never(signal);
      const reference = `SBX${Date.now().toString(36).toUpperCase()}${randomBytes(6).toString('hex').toUpperCase()}`;
      register.set(reference, authorisation);
      return { reference };
    },

    async revokeEmp(input, signal) {
      await answerAfterLatency(signal);
      const account = byNumber.get(input.accountNo);
      if (account?.behaviour === 'saveFails') throw new Error('sandbox bank: authorisation register unavailable');
      if (account?.behaviour === 'saveTimesOut') return never(signal);
      // Idempotent: a reference the register forgot (a restart) is as revoked as one it removes.
      register.delete(input.reference);
    },

    async sign(input) {
      if (!byNumber.has(input.accountNo)) throw new SandboxKeyError('noKey');
      if (input.pin !== sandboxPin) throw new SandboxKeyError('pinWrong');
      const key = keyOf(input.accountNo);
      const text = usbKeySignedText(input.accountNo, input.challenge);
      const signature = sign(null, Buffer.from(text, 'utf8'), key.privateKey).toString('base64');
      return { signature, certSerial: key.certSerial };
    },
  };
}
