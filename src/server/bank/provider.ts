/**
 * The bank behind USB-key certification (U盾认证; docs/enterprises.md). The portal asks the bank
 * three things: who holds an account (lookupAccount), whether a signature over the portal's
 * challenge was made with the key the bank issued for that account (verifySignature), and to
 * record — or revoke — the enterprise's authorisation of the key holder (saveEmp, revokeEmp).
 *
 * BANK_PROVIDER picks the implementation (bank/fromConfig.ts); `sandbox` (bank/sandbox.ts) is a local stand-in with
 * deterministic accounts and keys. A production bank implements this interface over its gateway.
 * Every call gets an AbortSignal and is also cut off by `callBank` after BANK_TIMEOUT_MS, so a
 * bank that hangs costs the user one timeout and changes nothing.
 */
/** What the bank knows about an account. */
export interface BankAccount {
  accountNo: string;
  /** The account holder's registered name (an enterprise's name for a corporate account). */
  accountName: string;
  bankName: string;
  branchName: string;
  /** A frozen account cannot be used to certify. */
  frozen: boolean;
}

export interface SignatureCheck {
  accountNo: string;
  /** The exact bytes that were signed: `usbKeySignedText(accountNo, challenge)`. */
  signedText: string;
  signature: string;
  certSerial: string;
}

export interface EmpAuthorisation {
  accountNo: string;
  accountName: string;
  empName: string;
  empNo: string;
  certSerial: string;
}

export interface BankProvider {
  /** For logs and the binding row (`icbc`). */
  readonly bank: string;
  /** Null when the bank has no such account. */
  lookupAccount(accountNo: string, signal: AbortSignal): Promise<BankAccount | null>;
  verifySignature(check: SignatureCheck, signal: AbortSignal): Promise<boolean>;
  /** Records the authorisation; answers the bank's reference for reconciliation. */
  saveEmp(authorisation: EmpAuthorisation, signal: AbortSignal): Promise<{ reference: string }>;
  /** Withdraws it (removeIcbcAuth). */
  revokeEmp(input: { accountNo: string; reference: string }, signal: AbortSignal): Promise<void>;
}

/** Why a bank call did not answer: it said it failed, or it did not answer in time. */
export class BankUnavailableError extends Error {
  readonly reason: 'unavailable' | 'timeout';

  constructor(reason: 'unavailable' | 'timeout', message: string) {
    super(message);
    this.name = 'BankUnavailableError';
    this.reason = reason;
  }
}

/**
 * The text a USB key signs: the account and the portal's one-time challenge, so a signature made
 * for one account or one challenge proves nothing about another.
 */
export function usbKeySignedText(accountNo: string, challenge: string): string {
  return `hgd-usbkey-v1|${accountNo}|${challenge}`;
}

/**
 * Runs one bank call with a deadline: the call's signal is aborted after `timeoutMs`, and the
 * caller stops waiting then even if the provider ignores the signal.
 */
export async function callBank<T>(timeoutMs: number, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new BankUnavailableError('timeout', `bank call exceeded ${timeoutMs} ms`));
    }, timeoutMs);
  });
  try {
    return await Promise.race([call(controller.signal), deadline]);
  } catch (error) {
    if (error instanceof BankUnavailableError) throw error;
    if (controller.signal.aborted) throw new BankUnavailableError('timeout', `bank call exceeded ${timeoutMs} ms`);
    // Anything else the provider threw (network error, bad answer) is the bank being unavailable.
    throw new BankUnavailableError('unavailable', error instanceof Error ? error.message : String(error));
  } finally {
    clearTimeout(timer);
  }
}
