/**
 * First-start data: the five provinces of the southern grid (DOMAIN.md, Regions) and four demo
 * accounts, one per role — the enterprise user bound to a certified enterprise, each with a few
 * notices — so that every flow can be tried at once. Runs only on an empty database
 * (no regions), all in one transaction, under the schema advisory lock so that two processes
 * starting together cannot both seed.
 */
import { count, sql } from 'drizzle-orm';
import { hashPassword } from '../password.ts';
import type { Database } from './client.ts';
import { schemaLockKey } from './migrate.ts';
import { enterprises, notices, regions, users, type NoticeType, type UserRole } from './schema/index.ts';

export interface SeedRegion {
  areaCode: string;
  name: string;
  shortName: string;
  sort: number;
  hotline: string;
}

/** 440000 (Guangdong) first: it is the spec's default region. */
export const seedRegions: readonly SeedRegion[] = [
  { areaCode: '440000', name: '广东省', shortName: '广东', sort: 1, hotline: '020-95598' },
  { areaCode: '450000', name: '广西壮族自治区', shortName: '广西', sort: 2, hotline: '0771-95598' },
  { areaCode: '460000', name: '海南省', shortName: '海南', sort: 3, hotline: '0898-95598' },
  { areaCode: '520000', name: '贵州省', shortName: '贵州', sort: 4, hotline: '0851-95598' },
  { areaCode: '530000', name: '云南省', shortName: '云南', sort: 5, hotline: '0871-95598' },
];

export interface DemoAccount {
  userName: string;
  mobile: string;
  /** Demo only: printed at start and in the README. 8–64 characters with letters and digits. */
  password: string;
  role: UserRole;
  name: string;
  description: string;
}

export const demoAccounts: readonly DemoAccount[] = [
  {
    userName: 'demo_person',
    mobile: '13800138001',
    password: 'Person2025',
    role: 'individual',
    name: '张明',
    description: '个人用户，未绑定企业 (individual user, no enterprise yet)',
  },
  {
    userName: 'demo_company',
    mobile: '13800138002',
    password: 'Company2025',
    role: 'enterprise',
    name: '李华',
    description: '企业用户，已绑定广州明珠精密制造有限公司 (enterprise user, certified enterprise)',
  },
  {
    userName: 'demo_partner',
    mobile: '13800138003',
    password: 'Partner2025',
    role: 'partner',
    name: '王芳',
    description: '合作机构员工 (partner institution staff)',
  },
  {
    userName: 'demo_operator',
    mobile: '13800138004',
    password: 'Operator2025',
    role: 'operator',
    name: '赵强',
    description: '售电公司运营人员 (retail company operator)',
  },
];

/** The enterprise demo_company is bound to: certified, so ordering can be tried at once. */
export const demoEnterprise = {
  owner: 'demo_company',
  enterpriseName: '广州明珠精密制造有限公司',
  // A valid unified social credit code (GB 32100-2015 check character), invented for the demo.
  creditCode: '91440101MA59K3R2XE',
  legalPerson: '陈志远',
  address: '广州市黄埔区科学大道 188 号',
  industry: '通用设备制造业',
  areaCode: '440000',
  clearanceAccount: '0300012345678',
  electricityAccounts: ['0300012345678001'],
  voltageLevel: '10kV',
  annualConsumption: '8600.000',
  authStatus: 2,
  authType: 'certificate',
} as const;

interface DemoNotice {
  userName: string;
  type: NoticeType;
  title: string;
  description: string;
  /** Hours before the seeding. */
  hoursAgo: number;
  read: boolean;
}

/** A few notices per demo account, of the kinds later flows create, so the bell has something to show. */
export const demoNotices: readonly DemoNotice[] = [
  { userName: 'demo_person', type: 'notification', title: '欢迎使用汇购电', description: '绑定企业并完成企业认证后，即可在线订购售电套餐。', hoursAgo: 72, read: true },
  { userName: 'demo_person', type: 'message', title: '请完善账户信息', description: '为保障账户安全，建议在账户设置中填写邮箱。', hoursAgo: 20, read: false },
  { userName: 'demo_company', type: 'notification', title: '企业认证已通过', description: '广州明珠精密制造有限公司的证书认证已审核通过，现在可以订购套餐。', hoursAgo: 96, read: true },
  { userName: 'demo_company', type: 'message', title: '2026 年度零售套餐已上架', description: '广东地区新增固定价格、分时电价等套餐，欢迎在产品与服务中查看。', hoursAgo: 30, read: false },
  { userName: 'demo_company', type: 'event', title: '账户在新设备登录', description: '如非本人操作，请立即修改密码并在账户设置中结束其他会话。', hoursAgo: 2, read: false },
  { userName: 'demo_partner', type: 'notification', title: '合作机构账户已开通', description: '可在合作机构专区查询所辖企业的结算信息与统计分析。', hoursAgo: 120, read: true },
  { userName: 'demo_partner', type: 'event', title: '结算数据已更新', description: '上月结算结果已导入，可在结算查询中查看。', hoursAgo: 6, read: false },
  { userName: 'demo_operator', type: 'notification', title: '运营账户已开通', description: '可在运营审核中处理企业认证与订单。', hoursAgo: 120, read: true },
  { userName: 'demo_operator', type: 'message', title: '认证审核时限提醒', description: '企业提交的认证资料请在 2 个工作日内完成审核。', hoursAgo: 10, read: false },
];

export interface SeedOptions {
  /** Insert the demo accounts too (SEED_DEMO_ACCOUNTS; default on). */
  demoAccounts: boolean;
}

/** Seeds an empty database; returns whether it did. */
export async function seedIfEmpty(db: Database, options: SeedOptions): Promise<boolean> {
  if (!(await isEmpty(db))) return false;
  // Hash outside the transaction: argon2 takes ~26 ms each and needs no lock.
  const accounts = options.demoAccounts
    ? await Promise.all(
        demoAccounts.map(async (account) => ({
          userName: account.userName,
          mobile: account.mobile,
          name: account.name,
          passwordHash: await hashPassword(account.password),
          roles: [account.role],
        })),
      )
    : [];
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${schemaLockKey})`);
    if (!(await isEmpty(tx))) return false;
    await tx.insert(regions).values(seedRegions.map((region) => ({ ...region, enabled: true })));
    if (accounts.length) {
      const inserted = await tx.insert(users).values(accounts).returning({ id: users.id, userName: users.userName });
      const idOf = new Map(inserted.map((row) => [row.userName, row.id]));
      const { owner, ...enterprise } = demoEnterprise;
      const ownerId = idOf.get(owner);
      const company = accounts.find((account) => account.userName === owner);
      if (ownerId !== undefined && company) {
        await tx.insert(enterprises).values({
          ...enterprise,
          electricityAccounts: [...enterprise.electricityAccounts],
          ownerUserId: ownerId,
          contactName: company.name,
          contactPhone: company.mobile,
        });
      }
      const now = Date.now();
      const rows = demoNotices.flatMap((notice) => {
        const userId = idOf.get(notice.userName);
        if (userId === undefined) return [];
        const createdAt = new Date(now - notice.hoursAgo * 3_600_000);
        return [{ userId, type: notice.type, title: notice.title, description: notice.description, createdAt, readAt: notice.read ? createdAt : null }];
      });
      if (rows.length) await tx.insert(notices).values(rows);
    }
    return true;
  });
}

async function isEmpty(db: Database): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(regions);
  return (row?.n ?? 0) === 0;
}
