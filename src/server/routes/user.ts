/**
 * /api/front/user/*: calls of the logged-in user (spec §7) — current user and user info,
 * password and profile changes, a code to the account's own phone, enterprise binding, the
 * session list, consent to new legal documents, the person's own data and its copy, closing the
 * account, and two-step verification. Every route requires a session (901 otherwise).
 * Answers: docs/accounts.md.
 */
import { Hono } from 'hono';
import {
  bindBody,
  cancelAccountBody,
  changePasswordBody,
  changeUserInfoBody,
  endSessionBody,
  sendSmsByDefaultPhoneBody,
} from '../../lib/schemas/account.ts';
import { chinaDate } from '../../lib/chinaTime.ts';
import { consentBody } from '../../lib/schemas/consent.ts';
import { personalDataDownloadQuery } from '../../lib/schemas/personalData.ts';
import {
  confirmSecondFactorBody,
  enrolSecondFactorBody,
  secondFactorProofBody,
  verifySecondFactorBody,
  type RecoveryCodesData,
} from '../../lib/schemas/secondFactor.ts';
import { localeOf, message, ok } from '../envelope.ts';
import { accountRoles, requireSession } from '../middleware/session.ts';
import { clientIp } from '../request.ts';
import { changePassword, changeUserInfo } from '../services/accounts.ts';
import { writeAudit } from '../services/audit.ts';
import { requestCancellation } from '../services/cancellation.ts';
import {
  checkCurrentVersions,
  consentOwed,
  currentVersions,
  decideConsent,
  type ConsentRecord,
} from '../services/consent.ts';
import { contentStore } from '../services/contentStore.ts';
import { personalData, personalDataSheet } from '../services/personalData.ts';
import { bindEnterprise } from '../services/enterprises.ts';
import {
  confirmEnrolment,
  disableSecondFactor,
  regenerateRecoveryCodes,
  requiresSecondFactor,
  secondFactorStatus,
  startEnrolment,
  verifyInSession,
  type Actor,
} from '../services/secondFactor.ts';
import { endSession, listSessions } from '../services/sessionList.ts';
import { currentUserView, userInfoView } from '../services/users.ts';
import { clearSessionCookie, sessionPolicy } from '../session.ts';
import { signIn } from '../signIn.ts';
import { sendSmsCode } from '../sms/codes.ts';
import { maskMobile } from '../../lib/masking.ts';
import { describeCall } from '../openapi/describe.ts';
import type { ConsentDecision } from '../db/schema/index.ts';
import type { AppEnv, AuthedEnv, RouteDeps } from '../types.ts';
import type { Context } from 'hono';
import { validate } from '../validate.ts';
import { xlsxResponse, xlsxStream } from '../xlsx/writer.ts';
import { smsSent } from './system.ts';

export function createUserRoutes(deps: RouteDeps): Hono<AppEnv> {
  const { db, config } = deps;
  const policy = sessionPolicy(config);
  const routes = new Hono<AppEnv>();

  routes.get('/currentUser', describeCall({ summary: 'The signed-in user' }), requireSession, async (c) => {
    // The account's own roles, and what the role-guarded calls will refuse for until a second
    // factor is proved, so the pages can say it first (SessionGate); and the new versions of the
    // user agreement and privacy policy it has to agree to before going on.
    const owed = c.get('secondFactorDemand');
    const roles = owed?.accountRoles ?? c.var.user.roles;
    const consent = consentOwed(
      { roles, agreedVersions: c.var.user.agreedVersions },
      contentStore.current(),
      contentStore.localized(localeOf(c)),
    );
    return ok(c, {
      ...currentUserView({ ...c.get('user'), roles }),
      ...(owed ? { secondFactorRequired: owed.demand } : {}),
      ...(consent ? { consentOwed: consent } : {}),
    });
  });

  /** Agrees to the current versions (asked again after a new version took effect). */
  routes.post(
    '/consent',
    describeCall({ summary: 'Agree to the current user agreement and privacy policy', body: consentBody }),
    requireSession,
    async (c) => {
      const body = await validate(c, consentBody, 'body');
      const content = contentStore.current();
      checkCurrentVersions(content, body);
      await decideConsent(db, currentVersions(content), consentRecord(c, 'agreed'));
      return ok(c, {}, 'legal.reconsent.agreed');
    },
  );

  /** Declines the current versions: recorded, and this session ends (the person is signed out). */
  routes.post(
    '/declineConsent',
    describeCall({ summary: 'Decline the new user agreement or privacy policy (signs out)' }),
    requireSession,
    async (c) => {
      await decideConsent(db, currentVersions(contentStore.current()), consentRecord(c, 'declined'), c.var.session.id);
      clearSessionCookie(c, config);
      return ok(c, {}, 'api.logoutOk');
    },
  );

  // The spec lists it among the POST calls with no body; GET reads the same.
  routes.on(['GET', 'POST'], '/getUserInfo', describeCall({ summary: 'Get user info' }), requireSession, async (c) =>
    ok(c, await userInfoView(db, c.var.user.id)),
  );

  /** Other sessions end; this browser gets a new session id (a changed credential, a new session). */
  routes.post(
    '/changePwd',
    describeCall({ summary: 'Change the password', body: changePasswordBody }),
    requireSession,
    async (c) => {
      const body = await validate(c, changePasswordBody, 'body');
      await changePassword(db, {
        userId: c.var.user.id,
        oldPassword: body.oldPassword,
        newPassword: body.newPassword,
        ip: clientIp(c, config),
      });
      await signIn(c, deps, c.var.user.id, 'passwordChange', body.deviceId);
      return ok(c, {}, 'auth.passwordChanged');
    },
  );

  routes.post(
    '/changeUserInfo',
    describeCall({ summary: 'Change the profile', body: changeUserInfoBody }),
    requireSession,
    async (c) => {
      const body = await validate(c, changeUserInfoBody, 'body');
      await changeUserInfo(db, {
        userId: c.var.user.id,
        name: body.name,
        email: body.email,
        mobile: body.mobile,
        code: body.code,
        verifyCode: body.verifyCode,
        ip: clientIp(c, config),
      });
      return ok(c, await userInfoView(db, c.var.user.id), 'auth.infoChanged');
    },
  );

  /** A code to the account's own phone (before a sensitive change, or for binding). */
  routes.post(
    '/sendSMSByDefaultPhone',
    describeCall({ summary: "Send an SMS code to the account's own phone", body: sendSmsByDefaultPhoneBody }),
    requireSession,
    async (c) => {
      const body = await validate(c, sendSmsByDefaultPhoneBody, 'body');
      const phone = c.var.user.mobile;
      await sendSmsCode(db, deps.sms, { phone, purpose: body.type, ip: clientIp(c, config) });
      return ok(c, { ...smsSent, phone: maskMobile(phone) }, 'sms.sent');
    },
  );

  routes.post(
    '/bind',
    describeCall({ summary: 'Bind the account to an enterprise', body: bindBody }),
    requireSession,
    async (c) => {
      const body = await validate(c, bindBody, 'body');
      await bindEnterprise(db, c.var.user, { ...body, ip: clientIp(c, config) });
      return ok(c, await userInfoView(db, c.var.user.id), 'auth.bindOk');
    },
  );

  routes.get('/sessions', describeCall({ summary: "The account's live sessions" }), requireSession, async (c) =>
    ok(c, await listSessions(db, c.var.user.id, c.var.session.id, policy)),
  );

  routes.post(
    '/endSession',
    describeCall({ summary: "End one of the account's other sessions", body: endSessionBody }),
    requireSession,
    async (c) => {
      const { id } = await validate(c, endSessionBody, 'body');
      const { endedCurrent } = await endSession(
        db,
        { userId: c.var.user.id, publicId: id, currentId: c.var.session.id, ip: clientIp(c, config) },
        policy,
      );
      if (endedCurrent) {
        clearSessionCookie(c, config);
        return ok(c, [], 'auth.sessionEnded');
      }
      return ok(c, await listSessions(db, c.var.user.id, c.var.session.id, policy), 'auth.sessionEnded');
    },
  );

  // ---- Personal information (docs/privacy.md) ----

  const consentRecord = (c: Context<AuthedEnv>, decision: ConsentDecision): ConsentRecord => ({
    userId: c.var.user.id,
    decision,
    origin: 'reconsent',
    ip: clientIp(c, config),
    userAgent: c.req.header('user-agent') ?? null,
    deviceId: null,
  });

  const personalDataOf = (c: Context<AuthedEnv>) =>
    personalData(db, { userId: c.var.user.id, sessionId: c.var.session.id, locale: localeOf(c) }, policy);

  routes.get(
    '/personalData',
    describeCall({ summary: 'What the portal holds about the signed-in person' }),
    requireSession,
    async (c) => ok(c, await personalDataOf(c)),
  );

  /** A copy to keep, as a file (JSON or xlsx); each one is audited. */
  routes.get(
    '/exportPersonalData',
    describeCall({
      summary: "A copy of the signed-in person's personal information (JSON or xlsx)",
      query: personalDataDownloadQuery,
      download: 'application/octet-stream',
    }),
    requireSession,
    async (c) => {
      const { format } = await validate(c, personalDataDownloadQuery, 'query');
      const data = await personalDataOf(c);
      await writeAudit(db, {
        userId: c.var.user.id,
        action: 'user.dataExport',
        target: `user:${c.var.user.id}`,
        detail: { format },
        ip: clientIp(c, config),
      });
      const fileName = message(c, 'account.data.file', {
        date: chinaDate(data.generatedAt).replaceAll('-', ''),
        format,
      });
      if (format === 'xlsx') return xlsxResponse(xlsxStream(personalDataSheet(data, localeOf(c))), fileName);
      return new Response(JSON.stringify(data, null, 2), {
        headers: {
          // Not application/json: the request client reads a JSON answer as the envelope, a file as a file.
          'Content-Type': 'application/octet-stream',
          'Content-Disposition': `attachment; filename="personal-information.json"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
          'Cache-Control': 'no-store',
        },
      });
    },
  );

  /**
   * Asks to close the account (services/cancellation.ts): the cooling-off starts, every session
   * ends, this browser's cookie is cleared.
   */
  routes.post(
    '/cancelAccount',
    describeCall({
      summary: 'Ask to close the account (password or SMS code; erased after a 15-day cooling-off)',
      body: cancelAccountBody,
    }),
    requireSession,
    async (c) => {
      const body = await validate(c, cancelAccountBody, 'body');
      const proof = body.password !== undefined ? { password: body.password } : { code: body.code ?? '' };
      const { erasureDay } = await requestCancellation(db, { userId: c.var.user.id, proof, ip: clientIp(c, config) });
      clearSessionCookie(c, config);
      return ok(c, { erasureDay }, 'account.cancel.requested', { date: erasureDay });
    },
  );

  // ---- Two-step verification (docs/accounts.md) ----

  const actorOf = (c: Context<AuthedEnv>): Actor => ({
    userId: c.var.user.id,
    userName: c.var.user.userName,
    sessionId: c.var.session.id,
    sessionProved: c.var.session.secondFactorAt !== null,
    ip: clientIp(c, config),
    locale: localeOf(c),
  });
  const factorRequired = (c: Context<AuthedEnv>) => requiresSecondFactor(accountRoles(c), config.mfaRequiredRoles);

  routes.get(
    '/secondFactor',
    describeCall({ summary: "The account's second factor state" }),
    requireSession,
    async (c) =>
      ok(
        c,
        await secondFactorStatus(db, c.var.user.id, {
          required: factorRequired(c),
          sessionVerified: c.var.session.secondFactorAt !== null,
        }),
      ),
  );

  routes.post(
    '/enrolSecondFactor',
    describeCall({ summary: 'Start enrolling an authenticator (secret and QR code)', body: enrolSecondFactorBody }),
    requireSession,
    async (c) => {
      const { password } = await validate(c, enrolSecondFactorBody, 'body');
      return ok(c, await startEnrolment(db, await deps.keys(), actorOf(c), password));
    },
  );

  routes.post(
    '/confirmSecondFactor',
    describeCall({ summary: 'Confirm the enrolment with a first code', body: confirmSecondFactorBody }),
    requireSession,
    async (c) => {
      const { totpCode } = await validate(c, confirmSecondFactorBody, 'body');
      const recoveryCodes = await confirmEnrolment(db, await deps.keys(), actorOf(c), totpCode);
      return ok(c, { recoveryCodes } satisfies RecoveryCodesData, 'auth.secondFactorEnabled');
    },
  );

  routes.post(
    '/verifySecondFactor',
    describeCall({ summary: 'Verify the second factor for this session', body: verifySecondFactorBody }),
    requireSession,
    async (c) => {
      const { secondFactorCode } = await validate(c, verifySecondFactorBody, 'body');
      await verifyInSession(db, await deps.keys(), actorOf(c), secondFactorCode);
      return ok(c, {}, 'auth.secondFactorVerified');
    },
  );

  routes.post(
    '/disableSecondFactor',
    describeCall({ summary: 'Remove the second factor', body: secondFactorProofBody }),
    requireSession,
    async (c) => {
      const proof = await validate(c, secondFactorProofBody, 'body');
      await disableSecondFactor(db, await deps.keys(), actorOf(c), proof, factorRequired(c));
      return ok(c, {}, 'auth.secondFactorDisabled');
    },
  );

  routes.post(
    '/regenerateRecoveryCodes',
    describeCall({ summary: 'New recovery codes (the old ones stop working)', body: secondFactorProofBody }),
    requireSession,
    async (c) => {
      const proof = await validate(c, secondFactorProofBody, 'body');
      const recoveryCodes = await regenerateRecoveryCodes(db, await deps.keys(), actorOf(c), proof);
      return ok(c, { recoveryCodes } satisfies RecoveryCodesData, 'auth.recoveryCodesRegenerated');
    },
  );

  return routes;
}
