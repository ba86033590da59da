/**
 * First-start data: the five provinces of the southern grid (DOMAIN.md, Regions) and the demo
 * accounts, one per role (two partner staff: a branch's and a head office's) — the enterprise user
 * bound to a certified enterprise with orders in every state (seed/demoOrders.ts), each with a few
 * notices — and the partner institutions with referred enterprises, their orders and two years of
 * settlement results (seed/demoPartners.ts), so that every flow can be tried at once.
 * Runs only on an empty database (no regions), all in one transaction, under the schema advisory
 * lock so that two processes starting together cannot both seed.
 * It sits beside db/, not in it, because it writes through services and the studio, and db/ imports
 * nothing above itself.
 */
import { defaultContentDir } from '../../content/load.ts';
import { seedContentIfEmpty } from '../studio/contentRepo.ts';
import { createHash, randomBytes } from 'node:crypto';
import { and, count, eq, inArray, sql } from 'drizzle-orm';
import { hashPassword, verifyPassword } from '../password.ts';
import { currentVersions, owesConsent, recordConsent } from '../services/consent.ts';
import { contentStore } from '../services/contentStore.ts';
import type { ObjectStore } from '../storage/objectStore.ts';
import { uploadKey } from '../uploads/storage.ts';
import type { Database } from '../db/client.ts';
import { demoPdf, demoPng } from './demoFiles.ts';
import { seedDemoOrders } from './demoOrders.ts';
import { seedDemoPartners } from './demoPartners.ts';
import { schemaLockKey } from '../db/migrate.ts';
import {
  enterpriseAuthFiles,
  enterprises,
  notices,
  regions,
  users,
  type AuthFileKind,
  type NoticeType,
  type UserRole,
} from '../db/schema/index.ts';

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
    description: '合作机构员工，工商银行广东省分行 (partner staff, ICBC Guangdong branch and its sub-branches)',
  },
  {
    userName: 'demo_bank',
    mobile: '13800138007',
    password: 'Bank2025',
    role: 'partner',
    name: '刘洋',
    description: '合作机构总行员工，工商银行全部机构 (partner head-office staff, the whole ICBC tree)',
  },
  {
    userName: 'demo_operator',
    mobile: '13800138004',
    password: 'Operator2025',
    role: 'operator',
    name: '赵强',
    description:
      '售电公司运营人员：认证审核、订单办理、结算导入 (retail company operator: reviews, orders, settlements)',
  },
  {
    userName: 'demo_editor',
    mobile: '13800138008',
    password: 'Editor2025',
    role: 'editor',
    name: '陈静',
    description: '内容编辑，在 /studio 编辑并发布网站内容 (content editor: edits and publishes the site at /studio)',
  },
  {
    userName: 'demo_admin',
    mobile: '13800138009',
    password: 'Admin2025',
    role: 'admin',
    name: '周敏',
    description:
      '系统管理员，在 /ops/staff 管理员工账户、角色和两步验证 (administrator: staff accounts, roles, second factors)',
  },
  {
    userName: 'demo_auditor',
    mobile: '13800138010',
    password: 'Auditor2025',
    role: 'auditor',
    name: '吴磊',
    description: '审计管理员，在 /ops/audit 查阅和导出审计记录 (auditor: reads and exports the audit trail)',
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
  // GB/T 4754 section C (制造业) and a `voltageLevel` dictionary code, as the enterprise form stores them.
  industry: 'C',
  areaCode: '440000',
  clearanceAccount: '0300012345678',
  electricityAccounts: ['0300012345678001'],
  voltageLevel: 'kv10',
  annualConsumption: '8600.000',
  authStatus: 2,
  authType: 'certificate',
} as const;

interface DemoAuthFile {
  kind: AuthFileKind;
  originalName: string;
  contentType: 'application/pdf' | 'image/png';
  bytes: () => Uint8Array;
}

export interface DemoReviewEnterprise {
  owner: Omit<DemoAccount, 'role' | 'description'>;
  enterpriseName: string;
  creditCode: string;
  legalPerson: string;
  address: string;
  industry: string;
  areaCode: string;
  clearanceAccount: string;
  electricityAccounts: readonly string[];
  voltageLevel: string;
  annualConsumption: string;
  /** Hours before the seeding it was submitted: the operator's queue is oldest first. */
  submittedHoursAgo: number;
  files: readonly DemoAuthFile[];
}

/**
 * Two enterprises under review (status 1) with both certification files, so the operator's queue
 * (/ops/certifications) has work on first start. Their owners can log in too (docs/enterprises.md);
 * the sandbox bank holds an account in each name (bank/sandbox.ts).
 */
export const demoReviewEnterprises: readonly DemoReviewEnterprise[] = [
  {
    owner: { userName: 'demo_foshan', mobile: '13800138005', password: 'Foshan2025', name: '周婷' },
    enterpriseName: '佛山华瑞新材料有限公司',
    creditCode: '91440606MA4WK7P3QE',
    legalPerson: '周建国',
    address: '佛山市顺德区大良街道新城路 66 号',
    industry: 'C',
    areaCode: '440000',
    clearanceAccount: '0300023456789',
    electricityAccounts: ['0300023456789001', '0300023456789002'],
    voltageLevel: 'kv10',
    annualConsumption: '5200.000',
    submittedHoursAgo: 26,
    files: [
      { kind: 'businessLicence', originalName: '营业执照.png', contentType: 'image/png', bytes: () => demoPng(1) },
      {
        kind: 'authLetter',
        originalName: '授权委托书.pdf',
        contentType: 'application/pdf',
        bytes: () =>
          demoPdf([
            'Letter of authorisation (demo)',
            'Foshan Huarui New Materials Co., Ltd.',
            'USCC 91440606MA4WK7P3QE',
            'Authorised: Zhou Ting, 13800138005',
          ]),
      },
    ],
  },
  {
    owner: { userName: 'demo_shenzhen', mobile: '13800138006', password: 'Shenzhen2025', name: '黄磊' },
    enterpriseName: '深圳蓝海国际物流有限公司',
    creditCode: '91440300MA5FT8L2N2',
    legalPerson: '林海',
    address: '深圳市南山区前海深港合作区前湾一路 1 号',
    industry: 'G',
    areaCode: '440000',
    clearanceAccount: '0300034567890',
    electricityAccounts: ['0300034567890001'],
    voltageLevel: 'kv0_4',
    annualConsumption: '1800.000',
    submittedHoursAgo: 5,
    files: [
      {
        kind: 'businessLicence',
        originalName: '营业执照.pdf',
        contentType: 'application/pdf',
        bytes: () =>
          demoPdf([
            'Business licence (demo)',
            'Shenzhen Lanhai International Logistics Co., Ltd.',
            'USCC 91440300MA5FT8L2N2',
            'Legal representative: Lin Hai',
          ]),
      },
      { kind: 'authLetter', originalName: '授权委托书.png', contentType: 'image/png', bytes: () => demoPng(2) },
    ],
  },
];

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
  {
    userName: 'demo_person',
    type: 'notification',
    title: '欢迎使用汇购电',
    description: '绑定企业并完成企业认证后，即可在线订购售电套餐。',
    hoursAgo: 72,
    read: true,
  },
  {
    userName: 'demo_person',
    type: 'message',
    title: '请完善账户信息',
    description: '为保障账户安全，建议在账户设置中填写邮箱。',
    hoursAgo: 20,
    read: false,
  },
  {
    userName: 'demo_company',
    type: 'notification',
    title: '企业认证已通过',
    description: '广州明珠精密制造有限公司的证书认证已审核通过，现在可以订购套餐。',
    hoursAgo: 96,
    read: true,
  },
  {
    userName: 'demo_company',
    type: 'message',
    title: '2026 年度零售套餐已上架',
    description: '广东地区新增固定价格、分时电价等套餐，欢迎在产品与服务中查看。',
    hoursAgo: 30,
    read: false,
  },
  {
    userName: 'demo_company',
    type: 'event',
    title: '账户在新设备登录',
    description: '如非本人操作，请立即修改密码并在账户设置中结束其他会话。',
    hoursAgo: 2,
    read: false,
  },
  {
    userName: 'demo_partner',
    type: 'notification',
    title: '合作机构账户已开通',
    description: '可在合作机构专区查询所辖企业的结算信息与统计分析。',
    hoursAgo: 120,
    read: true,
  },
  {
    userName: 'demo_partner',
    type: 'event',
    title: '结算数据已更新',
    description: '上月结算结果已导入，可在结算查询中查看。',
    hoursAgo: 6,
    read: false,
  },
  {
    userName: 'demo_bank',
    type: 'notification',
    title: '合作机构账户已开通',
    description: '可查看工商银行全部分支机构的结算信息与统计分析。',
    hoursAgo: 120,
    read: true,
  },
  {
    userName: 'demo_bank',
    type: 'message',
    title: '年度统计已可查询',
    description: '各分行、支行的推荐企业数、订单与结算汇总可在统计分析中按年、月查看。',
    hoursAgo: 26,
    read: false,
  },
  {
    userName: 'demo_operator',
    type: 'notification',
    title: '运营账户已开通',
    description: '可在运营审核中处理企业认证与订单。',
    hoursAgo: 120,
    read: true,
  },
  {
    userName: 'demo_operator',
    type: 'message',
    title: '认证审核时限提醒',
    description: '企业提交的认证资料请在 2 个工作日内完成审核。',
    hoursAgo: 10,
    read: false,
  },
];

export interface SeedOptions {
  /** Insert the demo accounts too (SEED_DEMO_ACCOUNTS; default on). */
  demoAccounts: boolean;
  /** Where the demo certification files' bytes go (the object store); omitted: rows only (tests). */
  objects?: ObjectStore;
  /** The content files seeding an empty content table (CONTENT_DIR or src/content when omitted). */
  contentDir?: string;
}

/**
 * Seeds an empty database; returns whether it did. The site's content is seeded on its own (an
 * empty content table takes the content files: CONTENT_DIR or src/content), also in a database
 * that predates the editors' studio.
 */
export async function seedIfEmpty(db: Database, options: SeedOptions): Promise<boolean> {
  await seedContentIfEmpty(db, options.contentDir ?? defaultContentDir());
  if (!(await isEmpty(db))) return false;
  // Hash outside the transaction: argon2 takes tens of milliseconds each (docs/performance.md) and
  // needs no lock.
  const accounts = options.demoAccounts
    ? await Promise.all(
        [
          ...demoAccounts,
          ...demoReviewEnterprises.map((enterprise) => ({ ...enterprise.owner, role: 'enterprise' as const })),
        ].map(async (account) => ({
          userName: account.userName,
          mobile: account.mobile,
          name: account.name,
          passwordHash: await hashPassword(account.password),
          roles: [account.role],
        })),
      )
    : [];
  // The demo files' bytes, with their generated names; written to disk once the rows are committed.
  const demoFiles = options.demoAccounts
    ? demoReviewEnterprises.map((enterprise) =>
        enterprise.files.map((file) => {
          const bytes = file.bytes();
          return {
            ...file,
            bytes,
            storedName: randomBytes(16).toString('hex'),
            sha256: createHash('sha256').update(bytes).digest('hex'),
          };
        }),
      )
    : [];
  const seeded = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${schemaLockKey})`);
    if (!(await isEmpty(tx))) return false;
    await tx.insert(regions).values(seedRegions.map((region) => ({ ...region, enabled: true })));
    if (accounts.length) {
      const inserted = await tx.insert(users).values(accounts).returning({ id: users.id, userName: users.userName });
      const idOf = new Map(inserted.map((row) => [row.userName, row.id]));
      const { owner, ...enterprise } = demoEnterprise;
      const ownerId = idOf.get(owner);
      const company = accounts.find((account) => account.userName === owner);
      let demoEnterpriseId: number | null = null;
      if (ownerId !== undefined && company) {
        const [created] = await tx
          .insert(enterprises)
          .values({
            ...enterprise,
            electricityAccounts: [...enterprise.electricityAccounts],
            ownerUserId: ownerId,
            contactName: company.name,
            contactPhone: company.mobile,
          })
          .returning({ id: enterprises.id });
        demoEnterpriseId = created!.id;
        // Its orders in every state, with history, notices and audit (seed/demoOrders.ts).
        await seedDemoOrders(tx, contentStore.current(), {
          userId: ownerId,
          enterpriseId: created!.id,
          operatorId: idOf.get('demo_operator') ?? null,
        });
      }
      const now = Date.now();
      const rows = demoNotices.flatMap((notice) => {
        const userId = idOf.get(notice.userName);
        if (userId === undefined) return [];
        const createdAt = new Date(now - notice.hoursAgo * 3_600_000);
        return [
          {
            userId,
            type: notice.type,
            title: notice.title,
            description: notice.description,
            createdAt,
            readAt: notice.read ? createdAt : null,
          },
        ];
      });
      if (rows.length) await tx.insert(notices).values(rows);
      // The demo people agreed to the published agreement and policy when they "registered".
      const versions = currentVersions(contentStore.current());
      for (const account of accounts) {
        const userId = idOf.get(account.userName);
        if (userId === undefined || !owesConsent(account.roles)) continue;
        await recordConsent(tx, versions, {
          userId,
          decision: 'agreed',
          origin: 'register',
          ip: null,
          userAgent: null,
          deviceId: null,
        });
      }
      for (const [i, review] of demoReviewEnterprises.entries()) {
        const reviewOwnerId = idOf.get(review.owner.userName);
        if (reviewOwnerId === undefined) continue;
        const [created] = await tx
          .insert(enterprises)
          .values({
            ownerUserId: reviewOwnerId,
            enterpriseName: review.enterpriseName,
            creditCode: review.creditCode,
            legalPerson: review.legalPerson,
            contactName: review.owner.name,
            contactPhone: review.owner.mobile,
            address: review.address,
            industry: review.industry,
            areaCode: review.areaCode,
            clearanceAccount: review.clearanceAccount,
            electricityAccounts: [...review.electricityAccounts],
            voltageLevel: review.voltageLevel,
            annualConsumption: review.annualConsumption,
            authStatus: 1,
            authType: 'certificate',
            submittedAt: new Date(now - review.submittedHoursAgo * 3_600_000),
          })
          .returning({ id: enterprises.id });
        await tx.insert(enterpriseAuthFiles).values(
          (demoFiles[i] ?? []).map((file) => ({
            enterpriseId: created!.id,
            kind: file.kind,
            originalName: file.originalName,
            storedName: file.storedName,
            contentType: file.contentType,
            size: file.bytes.length,
            sha256: file.sha256,
            uploadedByUserId: reviewOwnerId,
          })),
        );
      }
      // The partner institutions, demo_partner's and demo_bank's relations, demo_company's
      // referral and the generated referred enterprises with their settlements (seed/demoPartners.ts).
      await seedDemoPartners(tx, contentStore.current(), { idOf, demoEnterpriseId });
    }
    return true;
  });
  if (seeded && options.objects) {
    for (const file of demoFiles.flat()) {
      await options.objects.put(uploadKey(file.storedName), file.bytes, {
        size: file.bytes.length,
        contentType: file.contentType,
      });
    }
  }
  return seeded;
}

async function isEmpty(db: Database): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(regions);
  return (row?.n ?? 0) === 0;
}

/**
 * The demo accounts (those of the README and the banner) that are active and still open with
 * their published password, by user name. In a deployment each is a door anyone can open: the
 * start-up banner names them (main.ts), so a database seeded before SEED_DEMO_ACCOUNTS' default
 * changed, or seeded as a demo and then put to real use, does not keep them unnoticed.
 */
export async function demoAccountsWithPublicPasswords(db: Database): Promise<string[]> {
  const published = new Map<string, string>(
    [...demoAccounts, ...demoReviewEnterprises.map((enterprise) => enterprise.owner)].map((account) => [
      account.userName.toLowerCase(),
      account.password,
    ]),
  );
  const rows = await db
    .select({ userName: users.userName, passwordHash: users.passwordHash })
    .from(users)
    .where(and(inArray(sql<string>`lower(${users.userName})`, [...published.keys()]), eq(users.status, 'active')))
    .orderBy(users.id);
  const open = await Promise.all(
    rows.map(async (row) =>
      (await verifyPassword(row.passwordHash, published.get(row.userName.toLowerCase()) ?? '')) ? row.userName : null,
    ),
  );
  return open.filter((name): name is string => name !== null);
}
