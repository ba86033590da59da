/** The bank call deadline (bank/provider.ts) and the sandbox bank's keys (bank/sandbox.ts). */
import { describe, expect, it } from 'vitest';
import { BankUnavailableError, callBank, usbKeySignedText } from '../../src/server/bank/provider.ts';
import { createSandboxBank, sandboxAccounts, sandboxPin } from '../../src/server/bank/sandbox.ts';
import { bankBannerLines, bankProviderFromConfig, usbKeyBankInfo } from '../../src/server/bank/fromConfig.ts';

describe('callBank', () => {
  it('stops waiting at the deadline even for a provider that ignores the abort signal', async () => {
    const started = Date.now();
    const error = await callBank(50, () => new Promise(() => {})).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BankUnavailableError);
    expect((error as BankUnavailableError).reason).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('turns any provider error into "unavailable" and passes answers through', async () => {
    const error = await callBank(1_000, () => Promise.reject(new Error('ECONNRESET'))).catch((e: unknown) => e);
    expect((error as BankUnavailableError).reason).toBe('unavailable');
    expect(await callBank(1_000, async () => 42)).toBe(42);
  });
});

describe('sandbox bank', () => {
  const accountNo = sandboxAccounts[0]!.accountNo;
  const challenge = 'f'.repeat(64);

  it('derives the same key from the same seed, another from another seed', async () => {
    const a = createSandboxBank({ seed: 'seed-for-unit-tests-1', latencyMs: 0 });
    const b = createSandboxBank({ seed: 'seed-for-unit-tests-1', latencyMs: 0 });
    const c = createSandboxBank({ seed: 'seed-for-unit-tests-2', latencyMs: 0 });
    const signature = await a.sign({ accountNo, pin: sandboxPin, challenge });
    const check = { accountNo, signedText: usbKeySignedText(accountNo, challenge), ...signature };
    const signal = new AbortController().signal;
    expect(await b.verifySignature(check, signal)).toBe(true);
    expect(await c.verifySignature(check, signal)).toBe(false);
    expect(await a.verifySignature({ ...check, signedText: usbKeySignedText(accountNo, 'e'.repeat(64)) }, signal)).toBe(
      false,
    );
    expect(await a.verifySignature({ ...check, signature: 'AAAA' }, signal)).toBe(false);
  });

  it('waits its latency and gives up when the caller aborts', async () => {
    const bank = createSandboxBank({ seed: 'seed-for-unit-tests-1', latencyMs: 5_000 });
    const controller = new AbortController();
    const pending = bank.lookupAccount(accountNo, controller.signal);
    controller.abort();
    await expect(pending).rejects.toThrow();
  });
});

describe('the bank BANK_PROVIDER names', () => {
  const sandbox = {
    bankProvider: 'sandbox',
    bankSandboxSeed: 'seed-for-unit-tests-1',
    bankSandboxLatencyMs: 0,
    publicOrigin: undefined,
  } as const;

  it('sandbox: the stand-in bank, demo mode said in the banner and told to the page', () => {
    expect(bankProviderFromConfig(sandbox)?.bank).toBe('icbc');
    expect(usbKeyBankInfo(sandbox)).toEqual({
      provider: 'sandbox',
      available: true,
      sandbox: true,
      demoPin: sandboxPin,
    });
    const banner = bankBannerLines(sandbox).join('\n');
    expect(banner).toContain('DEMO MODE');
    expect(banner).toContain(`demo PIN ${sandboxPin}`);
    expect(banner).toContain('not for production');
    expect(bankBannerLines({ ...sandbox, publicOrigin: 'https://portal.example.com' }).join('\n')).toContain(
      'BANK_SANDBOX_ALLOWED=true',
    );
  });

  it('none: no bank, nothing offered, and the banner says so', () => {
    const none = { ...sandbox, bankProvider: 'none' } as const;
    expect(bankProviderFromConfig(none)).toBeNull();
    expect(usbKeyBankInfo(none)).toEqual({ provider: 'none', available: false, sandbox: false, demoPin: null });
    expect(bankBannerLines(none).join('\n')).not.toContain('DEMO MODE');
  });
});
