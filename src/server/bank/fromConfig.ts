/**
 * The bank provider BANK_PROVIDER names (bank/provider.ts); one per app. `none` has no bank:
 * USB-key certification answers 409 U盾认证未开通 and the sandbox's signer is not mounted.
 * When the sandbox is on the portal is in demo mode (config.ts, bankProviderRule): the start-up
 * banner and the USB-key page say so.
 */
import type { Config } from '../config.ts';
import type { UsbKeyBankData } from '../../lib/enterpriseCertification.ts';
import type { BankProvider } from './provider.ts';
import { createSandboxBank, sandboxPin } from './sandbox.ts';

export function bankProviderFromConfig(
  config: Pick<Config, 'bankProvider' | 'bankSandboxSeed' | 'bankSandboxLatencyMs'>,
): BankProvider | null {
  switch (config.bankProvider) {
    case 'sandbox':
      return createSandboxBank({ seed: config.bankSandboxSeed, latencyMs: config.bankSandboxLatencyMs });
    case 'none':
      return null;
  }
}

/** What the USB-key page is told about the bank (GET /api/front/thirdparty/getUsbKeyBank). */
export function usbKeyBankInfo(config: Pick<Config, 'bankProvider'>): UsbKeyBankData {
  const sandbox = config.bankProvider === 'sandbox';
  return {
    provider: config.bankProvider,
    available: config.bankProvider !== 'none',
    sandbox,
    demoPin: sandbox ? sandboxPin : null,
  };
}

/** The start-up banner's lines about the bank: demo mode said plainly, nothing when it is off. */
export function bankBannerLines(config: Pick<Config, 'bankProvider' | 'publicOrigin'>): string[] {
  if (config.bankProvider === 'none') return ['  USB-key certification: not offered (BANK_PROVIDER=none).'];
  return [
    '',
    `  DEMO MODE: USB-key certification uses the local sandbox bank, demo PIN ${sandboxPin} — not for production.`,
    config.publicOrigin === undefined
      ? '  (BANK_PROVIDER=none turns it off; it is off by default once PUBLIC_ORIGIN is set.)'
      : `  Public origin ${config.publicOrigin}: allowed by BANK_SANDBOX_ALLOWED=true — anyone can certify an enterprise here.`,
  ];
}
