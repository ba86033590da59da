/**
 * POST /api/sandbox/icbc/usbkey/sign: the sandbox bank's USB key (bank/sandbox.ts), standing in for
 * the browser signing driver a real bank installs. Present only with BANK_PROVIDER=sandbox (demo
 * mode); with `none` or any other bank the path is unknown (HTTP 404). Signs with the key of the
 * account once the demo PIN is given. Needs a session like the calls it serves.
 */
import { Hono } from 'hono';
import { usbKeySignBody } from '../../lib/schemas/enterprise.ts';
import { ApiError } from '../apiError.ts';
import { ok } from '../envelope.ts';
import { requireSession } from '../middleware/session.ts';
import type { BankProvider } from '../bank/provider.ts';
import { createSandboxBank, SandboxKeyError, type SandboxBank } from '../bank/sandbox.ts';
import { describeCall } from '../openapi/describe.ts';
import type { AppEnv, RouteDeps } from '../types.ts';
import { validate } from '../validate.ts';

function isSandboxBank(bank: BankProvider | null): bank is SandboxBank {
  return bank !== null && typeof (bank as Partial<SandboxBank>).sign === 'function';
}

export function createBankSandboxRoutes(deps: RouteDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  if (deps.config.bankProvider !== 'sandbox') return routes;
  // Keys derive from the seed, so a separate sandbox instance signs exactly as the app's bank verifies.
  const signer = isSandboxBank(deps.bank)
    ? deps.bank
    : createSandboxBank({ seed: deps.config.bankSandboxSeed, latencyMs: deps.config.bankSandboxLatencyMs });

  routes.post(
    '/usbkey/sign',
    describeCall({
      summary: "Sign the bank's challenge with the sandbox USB key (demo mode only)",
      body: usbKeySignBody,
      codes: { 400: '`bank.error.pinWrong`, `bank.error.noKey`' },
    }),
    requireSession,
    async (c) => {
      const body = await validate(c, usbKeySignBody, 'body');
      try {
        return ok(c, await signer.sign(body));
      } catch (error) {
        if (error instanceof SandboxKeyError) {
          throw error.reason === 'pinWrong'
            ? ApiError.badRequest('bank.error.pinWrong')
            : ApiError.badRequest('bank.error.noKey');
        }
        throw error;
      }
    },
  );

  return routes;
}
