/**
 * First-start data: the five provinces of the southern grid (DOMAIN.md, Regions) and four demo
 * accounts, one per role, so that every flow can be tried at once. Runs only on an empty database
 * (no regions), all in one transaction, under the schema advisory lock so that two processes
 * starting together cannot both seed.
 */
import { count, sql } from 'drizzle-orm';
import { hashPassword } from '../password.ts';
import type { Database } from './client.ts';
import { schemaLockKey } from './migrate.ts';
import { regions, users, type UserRole } from './schema/index.ts';

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
    description: '企业用户 (enterprise user)',
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
    if (accounts.length) await tx.insert(users).values(accounts);
    return true;
  });
}

async function isEmpty(db: Database): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(regions);
  return (row?.n ?? 0) === 0;
}
