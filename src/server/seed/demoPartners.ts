/**
 * The partner area's data: the demo institution tree and its staff relations, and the
 * generator of referred enterprises, their orders and monthly settlement results that both the
 * demo seed (~60 enterprises) and the partner bench (bench/partner.ts, a million settlement rows)
 * run, at different sizes.
 *
 * The generator is bulk SQL (`insert … select … from generate_series`): a million rows are written
 * by a few dozen statements instead of a round trip each. Every "random" choice is a hash of the
 * row's number and a salt (`hashint8`, the same function on PGlite and PostgreSQL), never of a
 * generated id, so the same size, seed and date give the same rows on every run, on both
 * databases and whatever the database already holds; only the calendar moves them (the window is
 * the 24 months up to last month, in China time). Run it inside a transaction: its working tables
 * are temporary tables dropped at commit.
 *
 * Settlement rows follow the formulas of docs/partner.md: energy in MWh (3 decimals), prices in
 * 元/kWh (5 decimals), `settled_amount = round(energy × 1000 × contract price, 2)` and
 * `saving = round(energy × 1000 × (market price − contract price), 2)`; last month's rows are
 * provisional (1), earlier ones final (2). The roll-up (settlement_monthly) is rewritten for the
 * months written, in the caller's transaction (services/settlementRollup.ts).
 */
import { eq, sql, type SQL } from 'drizzle-orm';
import type { SiteContent } from '../../content/schemas.ts';
import { getSet, getSellingSet } from '../../content/query.ts';
import { addMonths, chinaMonth } from '../../lib/schemas/order.ts';
import { schemeParamSnapshot } from '../services/orders.ts';
import { refreshSettlementMonthly } from '../services/settlementRollup.ts';
import { rowsOf, type Database } from '../db/client.ts';
import { enterprises, orders, partnerAccounts } from '../db/schema/index.ts';

// ---------------------------------------------------------------------------------------------
// Institutions

/** One institution to insert, with its children (head office > branch > sub-branch). */
export interface InstitutionSpec {
  code: string;
  name: string;
  /** Province (GB/T 2260); null for a head office. */
  areaCode: string | null;
  /** The city it serves: generated enterprises referred by it are named and addressed there. */
  city: string;
  address: string;
  phone: string;
  contactName: string;
  children?: readonly InstitutionSpec[];
}

/** An inserted institution. */
export interface InsertedInstitution {
  id: number;
  code: string;
  name: string;
  level: 1 | 2 | 3;
  path: string;
  areaCode: string | null;
  city: string;
}

/**
 * The demo tree: ICBC with its five southern-grid provincial branches and their sub-branches, and
 * CCB with one branch and two sub-branches, so that scoping is visible (demo_partner sees ICBC
 * Guangdong only, demo_bank the whole ICBC tree, nobody in the demo the CCB tree). Codes follow one
 * pattern: bank (4 digits) + city (GB/T 2260, 4 digits) + a number; a branch ends in 0000.
 */
export const demoInstitutionTree: readonly InstitutionSpec[] = [
  {
    code: '0102000000',
    name: '中国工商银行股份有限公司',
    areaCode: null,
    city: '北京',
    address: '北京市西城区复兴门内大街 55 号',
    phone: '010-66106114',
    contactName: '孙立群',
    children: [
      {
        code: '0102440000',
        name: '广东省分行',
        areaCode: '440000',
        city: '广州',
        address: '广州市天河区华夏路 8 号',
        phone: '020-83088888',
        contactName: '陈嘉豪',
        children: [
          {
            code: '0102440101',
            name: '广州天河支行',
            areaCode: '440000',
            city: '广州',
            address: '广州市天河区天河路 228 号',
            phone: '020-38812345',
            contactName: '黄晓婷',
          },
          {
            code: '0102440102',
            name: '广州越秀支行',
            areaCode: '440000',
            city: '广州',
            address: '广州市越秀区中山五路 219 号',
            phone: '020-83376521',
            contactName: '梁志明',
          },
          {
            code: '0102440301',
            name: '深圳南山支行',
            areaCode: '440000',
            city: '深圳',
            address: '深圳市南山区南海大道 2163 号',
            phone: '0755-26531188',
            contactName: '吴嘉欣',
          },
          {
            code: '0102440601',
            name: '佛山禅城支行',
            areaCode: '440000',
            city: '佛山',
            address: '佛山市禅城区季华五路 23 号',
            phone: '0757-83326688',
            contactName: '何伟强',
          },
          {
            code: '0102441901',
            name: '东莞南城支行',
            areaCode: '440000',
            city: '东莞',
            address: '东莞市南城街道鸿福路 106 号',
            phone: '0769-22881166',
            contactName: '叶丽芳',
          },
        ],
      },
      {
        code: '0102450000',
        name: '广西区分行',
        areaCode: '450000',
        city: '南宁',
        address: '南宁市青秀区民族大道 128 号',
        phone: '0771-5512888',
        contactName: '韦海燕',
        children: [
          {
            code: '0102450101',
            name: '南宁青秀支行',
            areaCode: '450000',
            city: '南宁',
            address: '南宁市青秀区金湖路 63 号',
            phone: '0771-5726611',
            contactName: '覃振宇',
          },
          {
            code: '0102450102',
            name: '南宁江南支行',
            areaCode: '450000',
            city: '南宁',
            address: '南宁市江南区星光大道 17 号',
            phone: '0771-4832209',
            contactName: '农秀英',
          },
          {
            code: '0102450201',
            name: '柳州城中支行',
            areaCode: '450000',
            city: '柳州',
            address: '柳州市城中区文惠路 22 号',
            phone: '0772-2823456',
            contactName: '莫建华',
          },
          {
            code: '0102450301',
            name: '桂林七星支行',
            areaCode: '450000',
            city: '桂林',
            address: '桂林市七星区漓江路 18 号',
            phone: '0773-5856721',
            contactName: '蒋丽华',
          },
        ],
      },
      {
        code: '0102460000',
        name: '海南省分行',
        areaCode: '460000',
        city: '海口',
        address: '海口市龙华区滨海大道 81 号',
        phone: '0898-66788888',
        contactName: '符永刚',
        children: [
          {
            code: '0102460101',
            name: '海口龙华支行',
            areaCode: '460000',
            city: '海口',
            address: '海口市龙华区金贸西路 5 号',
            phone: '0898-68523311',
            contactName: '王海琼',
          },
          {
            code: '0102460102',
            name: '海口美兰支行',
            areaCode: '460000',
            city: '海口',
            address: '海口市美兰区海府路 46 号',
            phone: '0898-65361122',
            contactName: '林小燕',
          },
          {
            code: '0102460201',
            name: '三亚河东支行',
            areaCode: '460000',
            city: '三亚',
            address: '三亚市吉阳区解放路 368 号',
            phone: '0898-88275566',
            contactName: '陈德明',
          },
        ],
      },
      {
        code: '0102520000',
        name: '贵州省分行',
        areaCode: '520000',
        city: '贵阳',
        address: '贵阳市云岩区中华北路 200 号',
        phone: '0851-85288888',
        contactName: '杨光华',
        children: [
          {
            code: '0102520101',
            name: '贵阳云岩支行',
            areaCode: '520000',
            city: '贵阳',
            address: '贵阳市云岩区延安中路 1 号',
            phone: '0851-85823467',
            contactName: '龙婷婷',
          },
          {
            code: '0102520102',
            name: '贵阳南明支行',
            areaCode: '520000',
            city: '贵阳',
            address: '贵阳市南明区遵义路 58 号',
            phone: '0851-85961234',
            contactName: '吴国庆',
          },
          {
            code: '0102520301',
            name: '遵义汇川支行',
            areaCode: '520000',
            city: '遵义',
            address: '遵义市汇川区上海路 99 号',
            phone: '0851-28621155',
            contactName: '罗春梅',
          },
        ],
      },
      {
        code: '0102530000',
        name: '云南省分行',
        areaCode: '530000',
        city: '昆明',
        address: '昆明市五华区青年路 395 号',
        phone: '0871-63133888',
        contactName: '李云鹏',
        children: [
          {
            code: '0102530101',
            name: '昆明五华支行',
            areaCode: '530000',
            city: '昆明',
            address: '昆明市五华区东风西路 11 号',
            phone: '0871-63614567',
            contactName: '段晓雯',
          },
          {
            code: '0102530102',
            name: '昆明盘龙支行',
            areaCode: '530000',
            city: '昆明',
            address: '昆明市盘龙区北京路 618 号',
            phone: '0871-65732245',
            contactName: '张志刚',
          },
          {
            code: '0102530301',
            name: '曲靖麒麟支行',
            areaCode: '530000',
            city: '曲靖',
            address: '曲靖市麒麟区麒麟南路 88 号',
            phone: '0874-3126677',
            contactName: '浦海燕',
          },
          {
            code: '0102532901',
            name: '大理下关支行',
            areaCode: '530000',
            city: '大理',
            address: '大理市下关镇人民南路 36 号',
            phone: '0872-2125533',
            contactName: '杨丽娟',
          },
        ],
      },
    ],
  },
  {
    code: '0105000000',
    name: '中国建设银行股份有限公司',
    areaCode: null,
    city: '北京',
    address: '北京市西城区金融大街 25 号',
    phone: '010-66215533',
    contactName: '周文博',
    children: [
      {
        code: '0105440000',
        name: '广东省分行',
        areaCode: '440000',
        city: '广州',
        address: '广州市天河区天河路 123 号',
        phone: '020-83608888',
        contactName: '郑少华',
        children: [
          {
            code: '0105440101',
            name: '广州海珠支行',
            areaCode: '440000',
            city: '广州',
            address: '广州市海珠区江南大道中 180 号',
            phone: '020-84216677',
            contactName: '冯敏仪',
          },
          {
            code: '0105440301',
            name: '深圳福田支行',
            areaCode: '440000',
            city: '深圳',
            address: '深圳市福田区深南中路 2068 号',
            phone: '0755-83245566',
            contactName: '谢俊杰',
          },
        ],
      },
    ],
  },
];

/** Codes the demo (and tests) refer to. */
export const demoPartnerCodes = {
  icbc: '0102000000',
  icbcGuangdong: '0102440000',
  icbcTianhe: '0102440101',
  ccb: '0105000000',
} as const;

/** Staff relations of the demo accounts: user name → institution code and staff number. */
export const demoPartnerRelations: readonly { userName: string; code: string; empId: string }[] = [
  { userName: 'demo_partner', code: demoPartnerCodes.icbcGuangdong, empId: 'GD0001' },
  { userName: 'demo_bank', code: demoPartnerCodes.icbc, empId: 'HO0001' },
];

/** Demo: generated enterprises referred by the demo tree's sub-branches. */
export const demoEnterpriseCount = 60;

/**
 * Inserts a tree of institutions (in the caller's transaction) with their materialised paths.
 * The ids are drawn from the identity sequence first, so each row is written once, path included.
 */
export async function insertInstitutions(
  tx: Database,
  roots: readonly InstitutionSpec[],
): Promise<InsertedInstitution[]> {
  const flat: { spec: InstitutionSpec; parent: number; level: 1 | 2 | 3 }[] = [];
  const walk = (specs: readonly InstitutionSpec[], parent: number, level: 1 | 2 | 3) => {
    for (const spec of specs) {
      const index = flat.length;
      flat.push({ spec, parent, level });
      if (spec.children?.length) {
        if (level === 3) throw new Error(`institution ${spec.code}: a sub-branch has no children`);
        walk(spec.children, index, (level + 1) as 2 | 3);
      }
    }
  };
  walk(roots, -1, 1);
  if (flat.length === 0) return [];
  const ids = rowsOf(
    await tx.execute(
      sql`select nextval(pg_get_serial_sequence('partner_institutions', 'id'))::int4 as id from generate_series(1, ${flat.length}::int4)`,
    ),
  ).map((row) => Number(row['id']));
  const inserted: InsertedInstitution[] = [];
  for (const [index, { spec, parent, level }] of flat.entries()) {
    const id = ids[index]!;
    const path = `${parent < 0 ? '/' : inserted[parent]!.path}${id}/`;
    inserted.push({ id, code: spec.code, name: spec.name, level, path, areaCode: spec.areaCode, city: spec.city });
  }
  // Batches of 500 rows keep every statement well under the bind-parameter limit.
  for (let start = 0; start < flat.length; start += 500) {
    const values = flat.slice(start, start + 500).map(({ spec, parent }, offset) => {
      const row = inserted[start + offset]!;
      return sql`(${row.id}::int4, ${spec.code}, ${spec.name}, ${parent < 0 ? null : inserted[parent]!.id}::int4, ${row.level}::int2, ${row.path}, ${spec.areaCode}, ${spec.address}, ${spec.phone}, ${spec.contactName})`;
    });
    await tx.execute(sql`
      insert into partner_institutions (id, code, name, parent_id, level, path, area_code, address, phone, contact_name)
      overriding system value values ${sql.join(values, sql`, `)}`);
  }
  return inserted;
}

// ---------------------------------------------------------------------------------------------
// The generator

/** A catalogue offer an order can be of: a selling set with one of its set's scheme parameters. */
interface Offer {
  areaCode: string;
  productId: string;
  setId: string;
  setName: string;
  sellingSetId: string;
  orgComId: string;
  orgComName: string;
  schemeParamId: string;
  schemeParam: Record<string, unknown>;
  contractMonths: number[];
  voltages: string[];
  consumptionMin: number;
  consumptionMax: number | null;
}

/** Every selling set of an online set, with each of its scheme parameters, from the content. */
export function catalogueOffers(content: SiteContent): Offer[] {
  const offers: Offer[] = [];
  for (const selling of content.sellingSets) {
    const view = getSellingSet(content, selling.sellingSetId);
    const set = getSet(content, selling.setId);
    if (!view || !set?.online) continue;
    for (const param of set.schemeParams) {
      offers.push({
        areaCode: selling.areaCode,
        productId: set.productId,
        setId: set.setId,
        setName: set.name,
        sellingSetId: selling.sellingSetId,
        orgComId: selling.orgComId,
        orgComName: view.orgCom.name,
        schemeParamId: param.schemeParamId,
        schemeParam: { ...schemeParamSnapshot(param) },
        contractMonths: [...param.contractMonths],
        voltages: [...param.voltageLevels],
        consumptionMin: param.consumptionMin,
        consumptionMax: param.consumptionMax ?? null,
      });
    }
  }
  return offers;
}

export interface VolumeOptions {
  /** How many enterprises (each with an owner) to generate. */
  enterprises: number;
  /** Institutions the enterprises are referred by, spread evenly (round robin). */
  referrers: readonly Pick<InsertedInstitution, 'id' | 'areaCode' | 'city'>[];
  /** Distinguishes generated values between runs on one database: user names, mobiles, accounts. */
  userPrefix: string;
  /** 3–7 digits; the mobile is this plus the enterprise's number, 11 digits in all. */
  mobilePrefix: string;
  /** 4 digits; the clearance account is this plus the number, 13 digits. */
  accountPrefix: string;
  /** The operator the generated order history names (accept, confirm), or null. */
  operatorId: number | null;
  /** Salt of every hash: another seed, other (equally deterministic) data. */
  seed?: number;
  /** Write order status history too (the demo's order details show it; the bench skips it). */
  history?: boolean;
  /** Months per settlement statement (the bench writes a million rows in bounded statements). */
  monthsPerBatch?: number;
  now?: Date;
}

export interface VolumeResult {
  enterprises: number;
  orders: number;
  settlements: number;
  /** The months settlement rows were written for (`YYYY-MM`), oldest first. */
  months: string[];
}

/** The settlement window on `now`: the 24 months up to last month (China time). */
export function settlementWindow(now: Date = new Date()): { first: string; last: string; months: string[] } {
  const current = chinaMonth(now);
  const months = Array.from({ length: 24 }, (_, i) => addMonths(current, i - 24));
  return { first: months[0]!, last: months[23]!, months };
}

/** A number in [0, 1) from a row number and a salt: the generator's seeded randomness. */
function rand(expr: SQL, salt: number): SQL {
  return sql`((hashint8((${expr})::int8 * 1000003 + ${sql.raw(String(Math.trunc(salt)))}) & 2147483647)::float8 / 2147483648.0)`;
}

/** An integer in [0, n) from a row number and a salt. */
function pick(expr: SQL, salt: number, n: number | SQL): SQL {
  return sql`floor(${rand(expr, salt)} * ${typeof n === 'number' ? sql.raw(String(n)) : n})::int4`;
}

/** A PostgreSQL array literal of texts (drizzle expands a JS array into a row, not an array). */
function textArray(values: readonly string[]): SQL {
  const quoted = values.map((value) => `"${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`);
  return sql`${`{${quoted.join(',')}}`}::text[]`;
}

function intArray(values: readonly number[]): SQL {
  return sql`${`{${values.map((value) => String(Math.trunc(value))).join(',')}}`}::int4[]`;
}

const surnames = [
  '王',
  '李',
  '张',
  '刘',
  '陈',
  '杨',
  '黄',
  '赵',
  '吴',
  '周',
  '徐',
  '孙',
  '马',
  '朱',
  '胡',
  '郭',
  '何',
  '林',
  '罗',
  '高',
  '梁',
  '郑',
  '谢',
  '宋',
];
const givenNames = [
  '伟',
  '芳',
  '娜',
  '敏',
  '静',
  '丽',
  '强',
  '磊',
  '军',
  '洋',
  '勇',
  '艳',
  '杰',
  '娟',
  '涛',
  '明',
  '超',
  '秀英',
  '华',
  '慧',
  '建国',
  '志强',
  '海燕',
  '晓东',
  '嘉怡',
  '俊杰',
  '文静',
  '国华',
];
const brands = [
  '恒信',
  '嘉禾',
  '宏达',
  '瑞丰',
  '鼎盛',
  '华通',
  '永昌',
  '金源',
  '新域',
  '天成',
  '聚力',
  '盛业',
  '恒泰',
  '广源',
  '同创',
  '远航',
  '中泰',
  '锦程',
  '立信',
  '东润',
  '信达',
  '泰和',
  '众合',
  '启明',
];
/** Business lines with their GB/T 4754 section, as the enterprise form stores the industry. */
const lines: readonly [string, string][] = [
  ['精密机械', 'C'],
  ['电子科技', 'C'],
  ['新材料', 'C'],
  ['食品', 'C'],
  ['纺织服装', 'C'],
  ['塑胶制品', 'C'],
  ['五金制品', 'C'],
  ['陶瓷', 'C'],
  ['包装印刷', 'C'],
  ['医药', 'C'],
  ['冷链物流', 'G'],
  ['商贸', 'F'],
  ['数据科技', 'I'],
  ['酒店管理', 'H'],
];
const roads = [
  '工业大道',
  '科技路',
  '创新路',
  '建设路',
  '人民路',
  '解放路',
  '中山路',
  '长江路',
  '产业园路',
  '高新大道',
  '环城路',
  '滨江路',
];
const creditAlphabet = '0123456789ABCDEFGHJKLMNPQRTUWXY';

/**
 * The coal-fired benchmark price of each province (元/kWh): the market reference price of a month
 * is drawn around it (±7 %), which is what the saving of a contract is measured against.
 */
const benchmarkPrices: Record<string, number> = {
  '440000': 0.453,
  '450000': 0.4207,
  '460000': 0.4298,
  '520000': 0.3515,
  '530000': 0.3358,
};

/** Consumption by calendar month relative to the average (summer cooling load in the south). */
const seasonal = [0.92, 0.84, 0.95, 0.98, 1.05, 1.12, 1.18, 1.2, 1.1, 1.02, 0.86, 0.78];

/**
 * Generates `enterprises` referred enterprises with their owners, orders (renewal chains over the
 * past years, mostly in force or completed) and the settlement results of the settlement window,
 * then the roll-up of those months; all in the caller's transaction. Same options, same rows.
 */
export async function generatePartnerVolume(
  tx: Database,
  content: SiteContent,
  options: VolumeOptions,
): Promise<VolumeResult> {
  const now = options.now ?? new Date();
  const seed = (options.seed ?? 1) * 1000;
  const n = options.enterprises;
  if (n <= 0 || options.referrers.length === 0) return { enterprises: 0, orders: 0, settlements: 0, months: [] };
  const mobileDigits = 11 - options.mobilePrefix.length;
  if (n >= 10 ** mobileDigits || !/^\d{4}$/.test(options.accountPrefix))
    throw new Error('generatePartnerVolume: prefixes too long for the size');
  const current = chinaMonth(now);
  const currentFirst = `${current}-01`;
  const at = sql`${now.toISOString()}::timestamptz`;
  const g = sql`g`;
  const offers = catalogueOffers(content);
  const referrers = options.referrers;

  // The enterprises' attributes, drawn once and kept for the statements that follow.
  await tx.execute(sql`drop table if exists pg_temp.gen_enterprise`);
  await tx.execute(sql`
    create temp table gen_enterprise on commit drop as
    select g, x.*,
      -- Certified ones have orders; the rest registered and never finished certification.
      ${rand(g, seed + 2)} < 0.85 as certified,
      -- The first contract started 6 to 32 months ago; up to three renewals follow it.
      (${currentFirst}::date - make_interval(months => 6 + ${pick(g, seed + 3, 27)}))::date as first_start,
      1 + ${pick(g, seed + 4, 3)} as order_count,
      round((300 * power(100, ${rand(g, seed + 5)}))::numeric, 3) as annual
    from generate_series(1, ${n}::int4) g
    cross join lateral (
      select (${intArray(referrers.map((r) => r.id))})[1 + (g - 1) % ${referrers.length}::int4] as partner_id,
             (${textArray(referrers.map((r) => r.areaCode ?? '440000'))})[1 + (g - 1) % ${referrers.length}::int4] as area_code,
             (${textArray(referrers.map((r) => r.city))})[1 + (g - 1) % ${referrers.length}::int4] as city,
             ${options.userPrefix} || lpad(g::text, 6, '0') as user_name,
             ${options.mobilePrefix} || lpad(g::text, ${mobileDigits}::int4, '0') as mobile,
             ${options.accountPrefix} || lpad(g::text, 9, '0') as clearance_account,
             (${textArray(surnames)})[1 + ${pick(g, seed + 6, surnames.length)}] || (${textArray(givenNames)})[1 + ${pick(g, seed + 7, givenNames.length)}] as person,
             (${textArray(surnames)})[1 + ${pick(g, seed + 8, surnames.length)}] || (${textArray(givenNames)})[1 + ${pick(g, seed + 9, givenNames.length)}] as legal_person,
             -- A permutation of the brand × business-line pairs: names repeat only past 336.
             ((g - 1) * 97) % ${brands.length * lines.length}::int4 as name_index
    ) x`);
  await tx.execute(sql`
    alter table gen_enterprise add column user_id int4, add column enterprise_id int4,
      add column created_at timestamptz, add column reviewed_at timestamptz, add column voltage text`);
  await tx.execute(sql`
    update gen_enterprise set
      created_at = case when certified
        then (first_start - make_interval(days => 60 + ${pick(g, seed + 10, 90)}) + make_interval(hours => 9 + ${pick(g, seed + 11, 9)})) at time zone 'Asia/Shanghai'
        else ${at} - make_interval(days => 1 + ${pick(g, seed + 12, 700)}, hours => ${pick(g, seed + 13, 12)}) end,
      voltage = case when annual < 1500 then (array['kv0_4', 'kv10'])[1 + ${pick(g, seed + 14, 2)}]
                     when annual < 8000 then 'kv10' when annual < 20000 then 'kv35' else 'kv110' end`);
  await tx.execute(
    sql`update gen_enterprise set reviewed_at = created_at + make_interval(days => 2 + ${pick(g, seed + 15, 7)}, hours => 3) where certified`,
  );
  await tx.execute(sql`
    with owner as (
      insert into users (user_name, mobile, name, password_hash, roles, created_at, updated_at)
      -- Unusable password hashes: the generated owners exist for their enterprises, not to log in.
      select user_name, mobile, person, '!generated:' || md5(random()::text || g::text), array['individual', 'enterprise']::text[], created_at, created_at
      from gen_enterprise
      returning id, user_name
    )
    update gen_enterprise e set user_id = owner.id from owner where owner.user_name = e.user_name`);

  const alphabet = sql`${creditAlphabet}::text`;
  await tx.execute(sql`
    with made as (
      insert into enterprises (owner_user_id, enterprise_name, credit_code, legal_person, contact_name, contact_phone, address, industry,
                               area_code, clearance_account, electricity_accounts, voltage_level, annual_consumption, partner_id,
                               auth_status, auth_type, submitted_at, reviewed_at, created_at, updated_at)
      select e.user_id,
             e.city || '市' || (${textArray(brands)})[1 + e.name_index % ${brands.length}::int4]
               || (${textArray(lines.map(([line]) => line))})[1 + e.name_index / ${brands.length}::int4] || '有限公司',
             case when e.certified then c.first17 || substr(${alphabet}, 1 + (31 - c.total % 31) % 31, 1) end,
             e.legal_person, e.person, e.mobile,
             e.city || '市' || (${textArray(roads)})[1 + ${pick(sql`e.g`, seed + 16, roads.length)}] || ' ' || (1 + ${pick(sql`e.g`, seed + 17, 400)})::text || ' 号',
             (${textArray(lines.map(([, section]) => section))})[1 + e.name_index / ${brands.length}::int4],
             e.area_code, e.clearance_account, array[e.clearance_account || '001']::text[], e.voltage, e.annual, e.partner_id,
             case when e.certified then 2 else 0 end,
             case when e.certified then (array['certificate', 'usbkey'])[1 + ${pick(sql`e.g`, seed + 18, 2)}] end,
             case when e.certified then e.reviewed_at - interval '1 day' end,
             e.reviewed_at, e.created_at, coalesce(e.reviewed_at, e.created_at)
      from gen_enterprise e
      cross join lateral (
        -- GB 32100-2015: 9 (market regulation) 1 (company), the province, 9 characters, then the check character.
        select s.first17, sum((strpos(${alphabet}, substr(s.first17, i, 1)) - 1) * (${intArray([1, 3, 9, 27, 19, 26, 16, 17, 20, 29, 25, 13, 8, 24, 10, 30, 28])})[i])::int4 as total
        from (select '91' || e.area_code || 'MA' || string_agg(substr(${alphabet}, 1 + ${pick(sql`e.g * 8 + k`, seed + 19, 31)}, 1), '' order by k) as first17
              from generate_series(1, 7) k) s
        cross join generate_series(1, 17) i
        group by s.first17
      ) c
      returning id, owner_user_id
    )
    update gen_enterprise e set enterprise_id = made.id from made where made.owner_user_id = e.user_id`);

  // Orders: each certified enterprise's renewal chain, of offers of its province that fit its
  // voltage and consumption; a chain stops at next month (a contract signed ahead).
  await tx.execute(sql`drop table if exists pg_temp.gen_offer`);
  await tx.execute(sql`
    create temp table gen_offer on commit drop as
    select row_number() over ()::int4 as n, x.*
    from jsonb_to_recordset(${JSON.stringify(offers)}::jsonb) as x(
      "areaCode" text, "productId" text, "setId" text, "setName" text, "sellingSetId" text, "orgComId" text, "orgComName" text,
      "schemeParamId" text, "schemeParam" jsonb, "contractMonths" int4[], voltages text[], "consumptionMin" numeric, "consumptionMax" numeric)`);
  const slot = sql`(s.g * 8 + s.j)`;
  const ordersWritten = rowsOf(
    await tx.execute(sql`
      with slots as (
        select e.*, j from gen_enterprise e cross join generate_series(0, e.order_count - 1) j where e.certified
      ), picked as (
        select s.g, s.j, s.enterprise_id, s.user_id, s.partner_id, s.area_code, s.first_start, s.annual, o.*,
               o."contractMonths"[1 + ${pick(slot, seed + 20, sql`cardinality(o."contractMonths")`)}] as months
        from slots s
        cross join lateral (
          select * from gen_offer o
          where o."areaCode" = s.area_code and s.voltage = any(o.voltages)
            and o."consumptionMin" <= s.annual and (o."consumptionMax" is null or s.annual <= o."consumptionMax")
          order by hashint8((${slot})::int8 * 64 + o.n + ${sql.raw(String(seed))})
          limit 1
        ) o
      ), chained as (
        select p.*, (p.first_start + make_interval(months => coalesce(sum(p.months) over (partition by p.g order by p.j rows between unbounded preceding and 1 preceding), 0)::int4))::date as start
        from picked p
      ), dated as (
        select c.*,
               (c.start + make_interval(months => c.months - 1))::date as last_month,
               (c.start - make_interval(days => 10 + ${pick(sql`(c.g * 8 + c.j)`, seed + 21, 30)}) + make_interval(hours => 9 + ${pick(sql`(c.g * 8 + c.j)`, seed + 22, 9)})) at time zone 'Asia/Shanghai' as placed
        from chained c
        where c.start <= (${currentFirst}::date + interval '1 month')::date
      ), made as (
        insert into orders (order_no, enterprise_id, user_id, area_code, product_id, set_id, set_name, selling_set_id, org_com_id, org_com_name,
                            partner_id, scheme_param_id, scheme_param, contract_start, contract_months, estimated_consumption, status,
                            created_at, updated_at)
        select 'HGD' || to_char(d.placed at time zone 'Asia/Shanghai', 'YYYYMMDD') || lpad((nextval('order_no_seq') % 1000000)::text, 6, '0'),
               d.enterprise_id, d.user_id, d.area_code, d."productId", d."setId", d."setName", d."sellingSetId", d."orgComId", d."orgComName",
               d.partner_id, d."schemeParamId", d."schemeParam", d.start, d.months,
               round(d.annual * (0.9 + 0.2 * ${rand(sql`(d.g * 8 + d.j)`, seed + 23)})::numeric, 3),
               case when d.last_month < ${currentFirst}::date then 40 when d.start <= ${currentFirst}::date then 30 else 20 end,
               d.placed,
               case when d.last_month < ${currentFirst}::date then (d.last_month + interval '1 month 2 hours') at time zone 'Asia/Shanghai'
                    when d.start <= ${currentFirst}::date then d.placed + interval '4 days' else d.placed + interval '1 day' end
        from dated d
        order by d.placed
        returning id
      )
      select count(*)::int4 as n from made`),
  );
  // A few orders that went nowhere: cancelled by the enterprise or rejected by the operator.
  const stopped = rowsOf(
    await tx.execute(sql`
      with made as (
        insert into orders (order_no, enterprise_id, user_id, area_code, product_id, set_id, set_name, selling_set_id, org_com_id, org_com_name,
                            partner_id, scheme_param_id, scheme_param, contract_start, contract_months, estimated_consumption, status,
                            status_reason, created_at, updated_at)
        select 'HGD' || to_char(x.placed at time zone 'Asia/Shanghai', 'YYYYMMDD') || lpad((nextval('order_no_seq') % 1000000)::text, 6, '0'),
               e.enterprise_id, e.user_id, e.area_code, o."productId", o."setId", o."setName", o."sellingSetId", o."orgComId", o."orgComName",
               e.partner_id, o."schemeParamId", o."schemeParam", date_trunc('month', (x.placed at time zone 'Asia/Shanghai') + interval '1 month')::date, o."contractMonths"[1],
               e.annual, x.status,
               case when x.status = 90 then '内部预算调整，暂缓采购。' else '用电户号与营业执照登记信息不一致，请核实后重新下单。' end,
               x.placed, x.placed + interval '1 day'
        from gen_enterprise e
        cross join lateral (
          select ${at} - make_interval(days => 3 + ${pick(sql`e.g`, seed + 24, 500)}, hours => ${pick(sql`e.g`, seed + 25, 10)}) as placed,
                 case when ${rand(sql`e.g`, seed + 26)} < 0.5 then 90 else 91 end as status
        ) x
        cross join lateral (select * from gen_offer o where o."areaCode" = e.area_code order by hashint8(e.g::int8 * 64 + o.n) limit 1) o
        where e.certified and ${rand(sql`e.g`, seed + 27)} < 0.08 and x.placed > e.reviewed_at
        order by x.placed
        returning id
      )
      select count(*)::int4 as n from made`),
  );

  if (options.history ?? true) await writeGeneratedHistory(tx, options.operatorId);

  const window = settlementWindow(now);
  const settlements = await insertSettlements(tx, {
    orders: sql`o.enterprise_id in (select enterprise_id from gen_enterprise)`,
    months: window.months,
    last: window.last,
    seed,
    monthsPerBatch: options.monthsPerBatch ?? 24,
    now,
  });
  await refreshSettlementMonthly(tx, window.months);
  await tx.execute(sql`drop table if exists pg_temp.gen_offer`);
  await tx.execute(sql`drop table if exists pg_temp.gen_enterprise`);
  return {
    enterprises: n,
    orders: Number(ordersWritten[0]?.['n'] ?? 0) + Number(stopped[0]?.['n'] ?? 0),
    settlements,
    months: window.months,
  };
}

/**
 * The generated orders' status history, as the real flow writes it: placed by the owner, accepted
 * and confirmed by the operator, completed by the scheduled job, or cancelled / rejected.
 */
async function writeGeneratedHistory(tx: Database, operatorId: number | null): Promise<void> {
  const generated = sql`o.enterprise_id in (select enterprise_id from gen_enterprise)`;
  const operator = sql`${operatorId}::int4`;
  await tx.execute(sql`
    insert into order_status_history (order_id, from_status, to_status, actor_user_id, actor_role, note, at)
    select o.id, null, 10, o.user_id, 'enterprise', '', o.created_at from orders o where ${generated}
    union all
    select o.id, 10, 20, ${operator}, 'operator', '', o.created_at + interval '1 day' from orders o where ${generated} and o.status in (20, 30, 40)
    union all
    select o.id, 20, 30, ${operator}, 'operator', '', o.created_at + interval '4 days' from orders o where ${generated} and o.status in (30, 40)
    union all
    select o.id, 30, 40, null, 'system', '', o.updated_at from orders o where ${generated} and o.status = 40
    union all
    select o.id, 10, o.status, case when o.status = 90 then o.user_id else ${operator} end, case when o.status = 90 then 'enterprise' else 'operator' end,
           o.status_reason, o.updated_at
    from orders o where ${generated} and o.status in (90, 91)`);
}

interface SettlementOptions {
  /** Which orders (alias `o`); only those in force or completed are settled. */
  orders: SQL;
  /** The months to settle (`YYYY-MM`), each order only within its contract. */
  months: readonly string[];
  /** The provisional month (status 1); earlier ones are final. */
  last: string;
  seed: number;
  monthsPerBatch: number;
  now: Date;
}

/**
 * One settlement row per order and contract month in `months`, by the formulas of docs/partner.md;
 * answers the rows written. The market price is one per province and month; the contract price is
 * the order's energy price, or for a price-difference sharing plan the market price less the
 * customer's share ((100 − share ratio) %) of a 6 % spread.
 */
async function insertSettlements(tx: Database, options: SettlementOptions): Promise<number> {
  const { seed } = options;
  const monthIndex = sql`(extract(year from m.at)::int4 * 12 + extract(month from m.at)::int4)`;
  const base = sql.join(
    Object.entries(benchmarkPrices).map(([area, price]) => sql`when ${area} then ${sql.raw(price.toFixed(4))}`),
    sql` `,
  );
  const season = sql`(${sql.raw(`'{${seasonal.join(',')}}'`)}::float8[])[extract(month from m.at)::int4]`;
  let written = 0;
  for (let start = 0; start < options.months.length; start += options.monthsPerBatch) {
    const batch = options.months.slice(start, start + options.monthsPerBatch);
    const from = `${batch[0]}-01`;
    const to = `${batch[batch.length - 1]}-01`;
    const rows = rowsOf(
      await tx.execute(sql`
        with made as (
          insert into settlement_results (order_id, enterprise_id, partner_id, area_code, product_id, settle_month, settled_energy,
                                          contract_price, market_price, settled_amount, saving, status, created_at, updated_at)
          select v.id, v.enterprise_id, v.partner_id, v.area_code, v.product_id, v.month, v.energy, v.contract, v.market,
                 round(v.energy * 1000 * v.contract, 2), round(v.energy * 1000 * (v.market - v.contract), 2),
                 case when v.month = ${`${options.last}-01`}::date then 1 else 2 end, v.written, v.written
          from (
            select o.id, o.enterprise_id, o.partner_id, o.area_code, o.product_id, p.month, p.energy, p.market,
                   coalesce(round((o.scheme_param ->> 'energyPrice')::numeric, 5),
                            round(p.market * (1 - 0.06 * (1 - coalesce((o.scheme_param ->> 'shareRatio')::numeric, 0) / 100)), 5)) as contract,
                   -- Final results are imported around the 10th of the next month; never in the future.
                   least((p.month + interval '1 month 9 days 10 hours') at time zone 'Asia/Shanghai', ${options.now.toISOString()}::timestamptz) as written
            from orders o
            cross join lateral generate_series(greatest(o.contract_start, ${from}::date)::timestamp,
                                               least((o.contract_start + make_interval(months => o.contract_months - 1))::date, ${to}::date)::timestamp,
                                               interval '1 month') m(at)
            cross join lateral (
              select m.at::date as month,
                     round((o.estimated_consumption::float8 / 12 * ${season} * (0.85 + 0.3 * ${rand(sql`hashtext(o.estimated_consumption::text || o.contract_start::text)::int8 * 4096 + ${monthIndex}`, seed + 30)}))::numeric, 3) as energy,
                     round(((case o.area_code ${base} else 0.4 end) * (0.93 + 0.14 * ${rand(sql`o.area_code::int8 * 4096 + ${monthIndex}`, seed + 31)}))::numeric, 5) as market
            ) p
            where ${options.orders} and o.status in (30, 40)
          ) v
          order by v.month, v.id
          returning 1
        )
        select count(*)::int4 as n from made`),
    );
    written += Number(rows[0]?.['n'] ?? 0);
  }
  return written;
}

// ---------------------------------------------------------------------------------------------
// The demo seed

export interface DemoPartnerContext {
  /** The seeded users by user name. */
  idOf: ReadonlyMap<string, number>;
  /** demo_company's enterprise, referred by 广州天河支行; null without it. */
  demoEnterpriseId: number | null;
  now?: Date;
}

export interface DemoPartnerResult {
  institutions: InsertedInstitution[];
  volume: VolumeResult;
  /** Settlement rows of demo_company's orders. */
  demoSettlements: number;
}

/**
 * The partner demo, inside the seed's transaction: the institution tree, demo_partner's and
 * demo_bank's relations, demo_company's referral and its settlements, and the generated
 * enterprises of the tree's sub-branches; then the roll-up of the window.
 */
export async function seedDemoPartners(
  tx: Database,
  content: SiteContent,
  context: DemoPartnerContext,
): Promise<DemoPartnerResult> {
  const now = context.now ?? new Date();
  const institutions = await insertInstitutions(tx, demoInstitutionTree);
  const byCode = new Map(institutions.map((row) => [row.code, row]));
  const relations = demoPartnerRelations.flatMap((relation) => {
    const userId = context.idOf.get(relation.userName);
    const partner = byCode.get(relation.code);
    return userId === undefined || !partner
      ? []
      : [
          {
            userId,
            partnerId: partner.id,
            empId: relation.empId,
            createdByUserId: context.idOf.get('demo_operator') ?? null,
          },
        ];
  });
  if (relations.length) await tx.insert(partnerAccounts).values(relations);

  const tianhe = byCode.get(demoPartnerCodes.icbcTianhe)!;
  const window = settlementWindow(now);
  let demoSettlements = 0;
  if (context.demoEnterpriseId !== null) {
    // Referred before it ordered: its orders carry the institution, as createCustomerOrder copies it.
    await tx.update(enterprises).set({ partnerId: tianhe.id }).where(eq(enterprises.id, context.demoEnterpriseId));
    await tx.update(orders).set({ partnerId: tianhe.id }).where(eq(orders.enterpriseId, context.demoEnterpriseId));
    demoSettlements = await insertSettlements(tx, {
      orders: sql`o.enterprise_id = ${context.demoEnterpriseId}::int4`,
      months: window.months,
      last: window.last,
      seed: 1000,
      monthsPerBatch: 24,
      now,
    });
  }
  const volume = await generatePartnerVolume(tx, content, {
    enterprises: demoEnterpriseCount,
    referrers: institutions.filter((row) => row.level === 3),
    userPrefix: 'demo_ent_',
    mobilePrefix: '1370000',
    accountPrefix: '0310',
    operatorId: context.idOf.get('demo_operator') ?? null,
    now,
  });
  // generatePartnerVolume rolled the window up after demo_company's rows were written: both counted.
  return { institutions, volume, demoSettlements };
}
