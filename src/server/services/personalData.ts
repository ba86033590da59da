/**
 * What the portal holds about one person, gathered for account settings and for the copy they may
 * download (PIPL art. 45): the account, the enterprise it owns with its bank confirmation, its
 * orders, notices, sign-ins of the last 180 days (from the audit trail) and live sessions. A
 * download is itself audited (`user.dataExport`).
 */
import { and, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import { chinaDateTimeLocal } from '../../lib/chinaTime.ts';
import { t, type Locale, type MessageKey } from '../../lib/i18n/index.ts';
import type { PersonalData } from '../../lib/schemas/personalData.ts';
import type { Database } from '../db/client.ts';
import { auditLog, enterprises, orders } from '../db/schema/index.ts';
import type { SessionPolicy } from '../session.ts';
import type { XlsxCell, XlsxSheet } from '../xlsx/writer.ts';
import { enterpriseData } from './enterpriseView.ts';
import { consentHistory } from './consent.ts';
import { listNotices } from './notices.ts';
import { listSessions } from './sessionList.ts';
import { findUserById } from './users.ts';

const signInActions = ['session.login', 'session.loginFailed'];
const signInDays = 180;
const signInLimit = 100;

export async function personalData(
  db: Database,
  input: { userId: number; sessionId: string; locale: Locale },
  policy: SessionPolicy,
): Promise<PersonalData> {
  const user = await findUserById(db, input.userId);
  if (!user) throw new Error(`user ${input.userId} vanished`);
  const [enterprise] = await db.select().from(enterprises).where(eq(enterprises.ownerUserId, user.id)).limit(1);
  const orderRows = await db
    .select()
    .from(orders)
    .where(eq(orders.userId, user.id))
    .orderBy(desc(orders.createdAt), desc(orders.id));
  const signIns = await db
    .select({ at: auditLog.at, action: auditLog.action, ip: auditLog.ip, detail: auditLog.detail })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.userId, user.id),
        inArray(auditLog.action, signInActions),
        gt(auditLog.at, sql`now() - make_interval(days => ${signInDays})`),
      ),
    )
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(signInLimit);
  return {
    generatedAt: new Date().toISOString(),
    account: {
      userId: user.id,
      userName: user.userName,
      name: user.name,
      mobile: user.mobile,
      email: user.email,
      roles: user.roles,
      createdAt: user.createdAt.toISOString(),
    },
    enterprise: enterprise ? await enterpriseData(db, enterprise, input.locale, user.id) : null,
    orders: orderRows.map((row) => ({
      orderNo: row.orderNo,
      setName: row.setName,
      orgComName: row.orgComName,
      status: row.status,
      contractStart: row.contractStart,
      contractMonths: row.contractMonths,
      estimatedConsumption: row.estimatedConsumption,
      createdAt: row.createdAt.toISOString(),
    })),
    notices: (await listNotices(db, user.id, { locale: input.locale, limit: 1_000 })).map((notice) => ({
      type: notice.type,
      title: notice.title,
      description: notice.description,
      createdAt: notice.datetime,
      read: notice.read,
    })),
    signIns: signIns.map((row) => ({
      at: row.at.toISOString(),
      succeeded: row.action === 'session.login',
      ip: row.ip,
      method: typeof row.detail['method'] === 'string' ? row.detail['method'] : '',
    })),
    sessions: await listSessions(db, user.id, input.sessionId, policy),
    consents: (await consentHistory(db, user.id)).map((row) => ({
      document: row.document,
      version: row.version,
      decision: row.decision,
      at: row.at.toISOString(),
      ip: row.ip,
    })),
  };
}

/**
 * The same as one sheet a person can read: section, item, value — one row per field, order,
 * notice, sign-in and session, labelled in their language.
 */
export function personalDataSheet(data: PersonalData, locale: Locale): XlsxSheet {
  const label = (key: MessageKey) => t(locale, key);
  const rows: XlsxCell[][] = [];
  const section = (key: MessageKey, items: [string, XlsxCell][]) => {
    for (const [item, value] of items) rows.push([label(key), item, value]);
  };
  const field = (key: MessageKey, value: XlsxCell): [string, XlsxCell] => [label(key), value];
  // Times as China reads them (UTC+8), to the minute.
  const when = (iso: string) => chinaDateTimeLocal(iso).replace('T', ' ');
  const { account, enterprise } = data;
  section('account.data.section.account', [
    field('field.userName', account.userName),
    field('field.name', account.name),
    field('field.phone', account.mobile),
    field('field.email', account.email),
    field('field.role', account.roles.map((role) => label(`account.role.${role}` as MessageKey)).join('、')),
    field('account.data.createdAt', when(account.createdAt)),
  ]);
  if (enterprise) {
    section('account.data.section.enterprise', [
      field('field.enterpriseName', enterprise.enterpriseName),
      field('field.creditCode', enterprise.creditCode ?? ''),
      field('field.legalPerson', enterprise.legalPerson),
      field('field.contactName', enterprise.contactName),
      field('field.contactPhone', enterprise.contactPhone),
      field('field.address', enterprise.address),
      field('field.industry', enterprise.industryName),
      field('field.clearanceAccount', enterprise.clearanceAccount),
      field('field.electricityAccounts', enterprise.electricityAccounts.join('、')),
      field('field.voltageLevel', enterprise.voltageLevel),
      field('account.data.authStatus', label(`authStatus.${enterprise.authStatus}` as MessageKey)),
      field('account.data.createdAt', when(enterprise.createdAt)),
      ...(enterprise.bankBinding
        ? [
            field('field.accountNo', enterprise.bankBinding.accountNoMasked),
            field('field.empName', enterprise.bankBinding.empName),
          ]
        : []),
    ]);
  }
  section(
    'account.data.section.orders',
    data.orders.map((order) => [
      order.orderNo,
      [order.setName, order.orgComName, label(`orderStatus.${order.status}` as MessageKey), when(order.createdAt)].join(
        ' · ',
      ),
    ]),
  );
  section(
    'account.data.section.notices',
    data.notices.map((notice) => [when(notice.createdAt), `${notice.title}：${notice.description}`]),
  );
  section(
    'account.data.section.signIns',
    data.signIns.map((signIn) => [
      when(signIn.at),
      `${label(signIn.succeeded ? 'account.data.signInOk' : 'account.data.signInFailed')} · ${signIn.ip ?? ''}`,
    ]),
  );
  section(
    'account.data.section.sessions',
    data.sessions.map((session) => [when(session.createdAt), `${session.device} · ${session.ip ?? ''}`]),
  );
  section(
    'account.data.section.consents',
    data.consents.map((consent) => [
      when(consent.at),
      [
        label(consent.document === 'user-agreement' ? 'legal.userAgreement' : 'legal.privacyPolicy'),
        consent.version,
        label(consent.decision === 'agreed' ? 'account.data.agreed' : 'account.data.declined'),
      ].join(' · '),
    ]),
  );
  return {
    name: label('account.data.sheet'),
    columns: [
      { header: label('account.data.column.section'), format: 'text', width: 14 },
      { header: label('account.data.column.item'), format: 'text', width: 26 },
      { header: label('account.data.column.value'), format: 'text', width: 60 },
    ],
    rows,
  };
}
