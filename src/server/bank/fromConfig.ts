/** The bank provider BANK_PROVIDER names (bank/provider.ts); one per app. */
import type { Config } from '../config.ts';
import type { BankProvider } from './provider.ts';
import { createSandboxBank } from './sandbox.ts';

export function bankProviderFromConfig(
  config: Pick<Config, 'bankProvider' | 'bankSandboxSeed' | 'bankSandboxLatencyMs'>,
): BankProvider {
  switch (config.bankProvider) {
    case 'sandbox':
      return createSandboxBank({ seed: config.bankSandboxSeed, latencyMs: config.bankSandboxLatencyMs });
  }
}
