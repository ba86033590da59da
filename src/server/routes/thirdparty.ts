/**
 * /api/front/thirdparty/*: bank USB-key certification (docs/enterprises.md) — the account lookup
 * that hands out the challenge, and saveEmp with the key's signature. The caller's own enterprise
 * only; the bank behind them is BANK_PROVIDER's (bank/provider.ts). getUsbKeyBank tells the page
 * which bank that is (the sandbox of demo mode, or none), without a session: it is configuration.
 */
import { Hono } from 'hono';
import { icbcAccountInfoQuery, saveEmpBody } from '../../lib/schemas/enterprise.ts';
import { usbKeyBankInfo } from '../bank/fromConfig.ts';
import { localeOf, ok } from '../envelope.ts';
import { requireSession } from '../middleware/session.ts';
import { lookupIcbcAccount, saveIcbcEmp } from '../services/bankCertification.ts';
import { enterpriseDataById } from '../services/enterpriseView.ts';
import { describeCall } from '../openapi/describe.ts';
import type { AppEnv, RouteDeps } from '../types.ts';
import { validate } from '../validate.ts';
import { enterpriseActor } from './enterpriseActor.ts';

export function createThirdpartyRoutes(deps: RouteDeps): Hono<AppEnv> {
  const { db, config } = deps;
  const bank = { bank: deps.bank, timeoutMs: config.bankTimeoutMs, cipher: deps.cipher };
  const routes = new Hono<AppEnv>();

  const bankInfo = usbKeyBankInfo(config);
  routes.get('/getUsbKeyBank', describeCall({ summary: "Which bank's USB key certification is offered" }), (c) =>
    ok(c, bankInfo),
  );

  routes.get(
    '/getIcbcAccountInfo',
    describeCall({ summary: 'Look up the bank account and get the challenge to sign', query: icbcAccountInfoQuery }),
    requireSession,
    async (c) => {
      const { accountNo } = await validate(c, icbcAccountInfoQuery, 'query');
      return ok(c, await lookupIcbcAccount(db, bank, enterpriseActor(c, config), accountNo));
    },
  );

  routes.post(
    '/saveEmp',
    describeCall({ summary: "Certify the enterprise with the USB key's signature", body: saveEmpBody }),
    requireSession,
    async (c) => {
      const body = await validate(c, saveEmpBody, 'body');
      const id = await saveIcbcEmp(db, bank, enterpriseActor(c, config), body);
      return ok(c, await enterpriseDataById(db, id, localeOf(c), c.var.user.id), 'bank.certified');
    },
  );

  return routes;
}
