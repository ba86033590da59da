/**
 * The operator's settlement import and template (docs/partner.md, Import format): a good file
 * (CSV with and without BOM, xlsx), each kind of bad row reported with its row number and column,
 * nothing written when any row is bad, an existing month replaced, the roll-up rewritten, the
 * file-level refusals, the guards, and the template.
 */
import { and, eq, sql } from 'drizzle-orm';
import { readSheet } from 'read-excel-file/node';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiCode } from '../../src/lib/apiCodes.ts';
import { settlementImportColumns, type ImportResultData } from '../../src/lib/schemas/partner.ts';
import { auditLog, settlementMonthly, settlementResults } from '../../src/server/db/schema/index.ts';
import { strToU8, zipSync } from 'fflate';
import { xlsxStream } from '../../src/server/xlsx/writer.ts';
import type { Envelope } from './accountCalls.ts';
import { apiHeaders, createTestApp, openPerFile } from './harness.ts';
import { insertPartnerTree, insertSettledOrder, settlementMoney, type PartnerTree } from './partnerFixtures.ts';
import { bigSheetXlsx, manyPartsXlsx, packedSize, withDeclaredSize } from './xlsxBombs.ts';
import { cpuMillis } from '../cpuTime.ts';

const t = openPerFile(() => createTestApp());
const base = '/api/ops/settlement';
const headers = settlementImportColumns.map((column) => column.header);

let tree: PartnerTree;
let operator: string;
let orderA: Awaited<ReturnType<typeof insertSettledOrder>>;
let orderB: Awaited<ReturnType<typeof insertSettledOrder>>;
let submitted: Awaited<ReturnType<typeof insertSettledOrder>>;

beforeAll(async () => {
  tree = await insertPartnerTree(t);
  operator = await t.login('demo_operator');
  // Contracts 2026-01..2026-12; A already has 2026-08 settled (to be replaced).
  orderA = await insertSettledOrder(t, tree.subA1, ['2026-08']);
  orderB = await insertSettledOrder(t, tree.subB1, []);
  submitted = await insertSettledOrder(t, tree.subA2, [], { orderStatus: 10 });
});

async function upload(
  name: string,
  content: Uint8Array<ArrayBuffer> | string,
  cookie = operator,
  extraHeaders: Record<string, string> = {},
): Promise<Envelope<ImportResultData & { errors?: { field: string; message: string }[] }>> {
  const form = new FormData();
  form.append('file', new File([content], name));
  const response = await t.app.request(`${base}/import`, {
    method: 'POST',
    headers: apiHeaders({ ...(cookie ? { Cookie: cookie } : {}), ...extraHeaders }),
    body: form,
  });
  return (await response.json()) as Envelope<ImportResultData & { errors?: { field: string; message: string }[] }>;
}

function csv(
  rows: (string | number)[][],
  { bom = true, header = headers }: { bom?: boolean; header?: string[] } = {},
): string {
  const quote = (cell: string | number) =>
    /[",\n]/.test(String(cell)) ? `"${String(cell).replace(/"/g, '""')}"` : String(cell);
  return `${bom ? '\uFEFF' : ''}${[header, ...rows].map((row) => row.map(quote).join(',')).join('\r\n')}\r\n`;
}

async function xlsx(rows: (string | number | null)[][]): Promise<Uint8Array<ArrayBuffer>> {
  const stream = xlsxStream({
    name: 'Sheet1',
    columns: headers.map((header) => ({ header, format: 'text' as const })),
    rows,
  });
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

async function resultsOf(orderId: number) {
  return t.db
    .select()
    .from(settlementResults)
    .where(eq(settlementResults.orderId, orderId))
    .orderBy(settlementResults.settleMonth);
}

async function footprint() {
  const [counts] = await t.db
    .select({
      results: sql<number>`(select count(*)::int from settlement_results)`,
      sum: sql<string>`(select coalesce(sum(settled_amount), 0)::text from settlement_results)`,
      monthly: sql<string>`(select coalesce(sum(settled_amount), 0)::text || '/' || count(*) from settlement_monthly)`,
      audits: sql<number>`(select count(*)::int from audit_log where action = 'settlement.import')`,
    })
    .from(sql`(select 1) as one`);
  return counts;
}

describe('guards', () => {
  it('901 without a session, 403 for a partner or an enterprise user', async () => {
    const file = csv([[orderA.orderNo, '2026-09', '10', '0.392', '0.41', '', '', '正式结算']]);
    const form = new FormData();
    form.append('file', new File([file], 'a.csv'));
    const anonymous = await t.app.request(`${base}/import`, { method: 'POST', headers: apiHeaders(), body: form });
    expect(((await anonymous.json()) as Envelope).code).toBe(ApiCode.SESSION_EXPIRED);
    for (const userName of ['demo_partner', 'demo_company']) {
      expect((await upload('a.csv', file, await t.login(userName))).code).toBe(ApiCode.FORBIDDEN);
    }
    const template = await t.app.request(`${base}/template?format=csv`, {
      headers: { Cookie: await t.login('demo_partner') },
    });
    expect(((await template.json()) as Envelope).code).toBe(ApiCode.FORBIDDEN);
  });
});

describe('a good file', () => {
  it('CSV with BOM: inserts, replaces the existing month, computes the money, rewrites the roll-up, audits', async () => {
    const [before] = await resultsOf(orderA.orderId);
    const answer = await upload(
      'settlements.csv',
      csv([
        [orderA.orderNo, '2026-08', '1234.567', '0.39200', '0.41537', '', '', '正式结算'],
        [orderA.orderNo, '2026-09', '1,000.5', '0.392', '0.41537', '', '', '预结算'],
        [orderB.orderNo, '2026-09', '88', '0.4', '0.38', '', '', '2'],
      ]),
    );
    expect(answer.code, answer.message).toBe(200);
    expect(answer.message).toBe('已导入 3 行结算数据，涉及 2 个月份');
    expect(answer.data).toEqual({ imported: 3, months: ['2026-08', '2026-09'], rejected: [] });
    const rowsA = await resultsOf(orderA.orderId);
    expect(rowsA).toHaveLength(2);
    // Replaced in place: the same row, the new figures.
    expect(rowsA[0]).toMatchObject({
      id: before!.id,
      settleMonth: '2026-08-01',
      settledEnergy: '1234.567',
      contractPrice: '0.39200',
      status: 2,
    });
    const money = settlementMoney(1234.567, 0.392, 0.41537);
    expect(Number(rowsA[0]!.settledAmount)).toBe(money.settledAmount);
    expect(Number(rowsA[0]!.saving)).toBe(money.saving);
    expect(rowsA[1]).toMatchObject({
      settleMonth: '2026-09-01',
      settledEnergy: '1000.500',
      status: 1,
      partnerId: tree.subA1,
      areaCode: '440000',
      productId: 'id1',
    });
    // A negative saving when the contract cost more than the market.
    const [rowB] = await resultsOf(orderB.orderId);
    expect(rowB).toMatchObject({
      settledAmount: '35200.00',
      saving: '-1760.00',
      partnerId: tree.subB1,
      enterpriseId: orderB.enterpriseId,
    });
    // The roll-up agrees with the rows for the months touched.
    const [monthly] = await t.db
      .select({
        amount: sql<string>`sum(${settlementMonthly.settledAmount})::text`,
        results: sql<number>`sum(${settlementMonthly.results})::int`,
      })
      .from(settlementMonthly)
      .where(and(eq(settlementMonthly.settleMonth, '2026-09-01'), eq(settlementMonthly.partnerId, tree.subA1)));
    expect(monthly).toEqual({ amount: rowsA[1]!.settledAmount, results: 1 });
    const [audit] = await t.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'settlement.import'))
      .orderBy(sql`id desc`)
      .limit(1);
    expect(audit?.detail).toMatchObject({
      file: 'settlements.csv',
      kind: 'csv',
      rows: 3,
      replaced: 1,
      months: ['2026-08', '2026-09'],
    });
  });

  it('CSV without BOM, full-width headers, columns in another order, extra columns ignored, given money within the tolerance kept', async () => {
    const money = settlementMoney(50, 0.392, 0.41537);
    const header = [
      '备注',
      '状态',
      '结算月份',
      '订单号',
      '结算电量（MWh）',
      '合同电价（元/kWh）',
      '市场参考价（元/kWh）',
      '结算电费（元）',
      '节省金额（元）',
    ];
    const given = (money.settledAmount + 0.01).toFixed(2);
    const answer = await upload(
      's.csv',
      csv(
        [['季度结算', '正式结算', '2026-07', orderA.orderNo, '50', '0.392', '0.41537', given, money.saving.toFixed(2)]],
        { bom: false, header },
      ),
    );
    expect(answer.code, JSON.stringify(answer.data)).toBe(200);
    const july = (await resultsOf(orderA.orderId)).find((row) => row.settleMonth === '2026-07-01');
    expect(july?.settledAmount).toBe(given);
  });

  it('xlsx: numbers, text and a month typed as text', async () => {
    const file = await xlsx([
      [orderB.orderNo, '2026-06', 12.5, 0.392, 0.41537, null, null, '正式结算'],
      [orderB.orderNo, '2026-07', '13.25', '0.39200', '0.41537', null, null, 1],
    ]);
    const answer = await upload('s.xlsx', file);
    expect(answer.code, JSON.stringify(answer.data)).toBe(200);
    expect(answer.data.imported).toBe(2);
    const rows = await resultsOf(orderB.orderId);
    expect(rows.find((row) => row.settleMonth === '2026-06-01')).toMatchObject({ settledEnergy: '12.500', status: 2 });
    expect(rows.find((row) => row.settleMonth === '2026-07-01')).toMatchObject({ settledEnergy: '13.250', status: 1 });
  });
});

describe('bad rows: every one reported, nothing written', () => {
  it('each kind of problem with its row number and column', async () => {
    const before = await footprint();
    const good = [orderA.orderNo, '2026-10', '10', '0.392', '0.41', '', '', '正式结算'];
    const answer = await upload(
      'bad.csv',
      csv([
        good, // row 2: fine, yet not written
        ['HGD20990101999999', '2026-10', '10', '0.392', '0.41', '', '', '正式结算'], // 3 unknown order
        [submitted.orderNo, '2026-10', '10', '0.392', '0.41', '', '', '正式结算'], // 4 not in force
        [orderA.orderNo, '2026/13', '10', '0.392', '0.41', '', '', '正式结算'], // 5 bad month
        [orderA.orderNo, '2025-12', '10', '0.392', '0.41', '', '', '正式结算'], // 6 outside the contract
        [orderA.orderNo, '2026-10', '10', '0.392', '0.41', '', '', '正式结算'], // 7 duplicate of row 2
        [orderB.orderNo, '2026-10', 'ten', '0.392', '0.41', '', '', '正式结算'], // 8 energy not a number
        [orderB.orderNo, '2026-05', '10.1234', '0.392', '0.41', '', '', '正式结算'], // 9 too many decimals
        [orderB.orderNo, '2026-04', '-1', '0.392', '0.41', '', '', '正式结算'], // 10 negative energy
        [orderB.orderNo, '2026-03', '10', '0', '0.41', '', '', '正式结算'], // 11 price zero
        [orderB.orderNo, '2026-02', '10', '0.392', '0.41', '', '', '已结算'], // 12 bad status
        [orderB.orderNo, '2026-01', '10', '0.392', '0.41', '9999', '', '正式结算'], // 13 amount mismatch
        ['', '', '10', '0.392', '0.41', '', '', ''], // 14 empty required cells
        [], // 15 an empty line: skipped, not reported
        ["HGD' or 1=1 --", '2026-10', '10', '0.392', '0.41', '', '', '正式结算'], // 16 hostile order number
      ]),
    );
    expect(answer.code).toBe(ApiCode.BAD_REQUEST);
    expect(answer.message).toBe('有 13 行数据有误，未导入任何数据，请修改后重新上传');
    expect(answer.data.imported).toBe(0);
    expect(answer.data.months).toEqual([]);
    const at = (row: number) =>
      answer.data.rejected
        .filter((rejection) => rejection.row === row)
        .map((rejection) => `${rejection.column}: ${rejection.message}`);
    expect(at(2)).toEqual([]);
    expect(at(3)).toEqual(['订单号: 订单不存在']);
    expect(at(4)).toEqual(['订单号: 订单不是“已生效”或“已完成”状态，不能结算']);
    expect(at(5)).toEqual(['结算月份: 请按 YYYY-MM 格式填写结算月份']);
    expect(at(6)).toEqual(['结算月份: 结算月份不在订单合同期内（2026-01 至 2026-12）']);
    expect(at(7)).toEqual(['结算月份: 与第 2 行的订单和月份重复']);
    expect(at(8)).toEqual(['结算电量(MWh): 请填写数字']);
    expect(at(9)).toEqual(['结算电量(MWh): 最多 3 位小数']);
    expect(at(10)).toHaveLength(1);
    expect(at(10)[0]).toMatch(/^结算电量\(MWh\): 须在 0 至/);
    expect(at(11)[0]).toMatch(/^合同电价\(元\/kWh\): 须大于 0/);
    expect(at(12)).toEqual(['状态: 状态应为“预结算”或“正式结算”（或 1、2）']);
    expect(at(13)).toEqual(['结算电费(元): 与按电量和电价计算的金额 3920.00 元不符']);
    expect(at(14)).toEqual(['订单号: 不能为空', '结算月份: 不能为空', '状态: 不能为空']);
    expect(at(15)).toEqual([]);
    expect(at(16)).toEqual(['订单号: 订单不存在']);
    expect(await footprint()).toEqual(before);
  });

  it('one bad row among good ones writes nothing; the report is in the request’s locale', async () => {
    const before = await footprint();
    const form = new FormData();
    form.append(
      'file',
      new File(
        [
          csv([
            [orderB.orderNo, '2026-08', '10', '0.392', '0.41', '', '', '正式结算'],
            [orderB.orderNo, '2026-09', '10', '0.392', '0.41', '', '', 'x'],
          ]),
        ],
        'one-bad.csv',
      ),
    );
    const response = await t.app.request(`${base}/import`, {
      method: 'POST',
      headers: apiHeaders({ Cookie: operator, 'Accept-Language': 'en-US' }),
      body: form,
    });
    const answer = (await response.json()) as Envelope<ImportResultData>;
    expect(answer.code).toBe(ApiCode.BAD_REQUEST);
    expect(answer.data.rejected).toEqual([
      { row: 3, column: '状态', message: 'The status must be 预结算 or 正式结算 (or 1, 2)' },
    ]);
    expect(await footprint()).toEqual(before);
  });

  it('money beyond the columns’ range is refused, not a database error', async () => {
    const answer = await upload(
      'huge.csv',
      csv([[orderA.orderNo, '2026-10', '99999999999', '999.99999', '0.00001', '', '', '正式结算']]),
    );
    expect(answer.code).toBe(ApiCode.BAD_REQUEST);
    expect(answer.data.rejected.map((rejection) => rejection.column)).toEqual(['结算电费(元)', '节省金额(元)']);
  });

  it('a future month is refused', async () => {
    const answer = await upload(
      'future.csv',
      csv([[orderA.orderNo, '2099-01', '10', '0.392', '0.41', '', '', '正式结算']]),
    );
    expect(answer.code).toBe(ApiCode.BAD_REQUEST);
    expect(answer.data.rejected[0]).toMatchObject({
      row: 2,
      column: '结算月份',
      message: expect.stringContaining('不能晚于本月'),
    });
  });
});

describe('files that cannot be imported: 400 at the file field, nothing written', () => {
  const fieldError = async (name: string, content: Uint8Array<ArrayBuffer> | string) => {
    const answer = await upload(name, content);
    expect(answer.code, answer.message).toBe(ApiCode.BAD_REQUEST);
    expect(answer.data.errors?.[0]?.field).toBe('file');
    return answer.message;
  };

  it('missing column, no rows, empty, old xls, not UTF-8, broken xlsx, wrong extension, too large, too many rows', async () => {
    const before = await footprint();
    expect(
      await fieldError(
        'a.csv',
        csv([[orderA.orderNo, '2026-09', '10', '0.392', '0.41', '', '']], {
          header: headers.filter((header) => header !== '状态'),
        }),
      ),
    ).toBe('缺少“状态”列，请使用导入模板');
    expect(await fieldError('a.csv', csv([]))).toBe('文件中没有结算数据');
    expect(await fieldError('a.csv', '')).toBe('文件为空');
    expect(
      await fieldError('a.xlsx', new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0])),
    ).toContain('.xls');
    // 订单号 in GBK: not UTF-8.
    expect(await fieldError('a.csv', new Uint8Array([0xb6, 0xa9, 0xb5, 0xa5, 0xba, 0xc5, 0x0d, 0x0a]))).toContain(
      'UTF-8',
    );
    expect(await fieldError('a.xlsx', new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3, 4, 5]))).toContain('无法读取');
    expect(
      await fieldError('a.txt', csv([[orderA.orderNo, '2026-09', '10', '0.392', '0.41', '', '', '正式结算']])),
    ).toBe('请上传 .csv 或 .xlsx 文件');
    expect(await fieldError('big.csv', 'x'.repeat(5 * 1024 * 1024 + 1))).toBe('文件不能超过 5 MB');
    const many = csv(
      Array.from({ length: 20_001 }, () => [orderA.orderNo, '2026-09', '1', '0.392', '0.41', '', '', '2']),
    );
    expect(await fieldError('many.csv', many)).toContain('最多 20000 行');
    // Exactly the limit is not refused for its size (empty lines do not count).
    const limit = csv([
      ...Array.from({ length: 20_000 }, () => ['HGD1', '2026-09', '1', '0.392', '0.41', '', '', '2']),
      [],
      [],
    ]);
    expect((await upload('limit.csv', limit)).data.rejected?.length).toBeGreaterThan(0);
    expect(await fieldError('q.csv', `${headers.join(',')}\r\n"unclosed,2026-09\r\n`)).toContain('CSV 格式有误');
    expect(await footprint()).toEqual(before);
  });

  it('a CSV over the row limit is refused at the first row beyond it, not after parsing the rest', async () => {
    const row = [orderA.orderNo, '2026-09', '1', '0.392', '0.41', '', '', '2'].join(',');
    const text = `${headers.join(',')}\r\n${`${row}\r\n`.repeat(20_001)}${'\r\n'.repeat(10)}"unclosed`;
    // Were the whole file parsed, the unclosed quote at its end would be the error.
    expect(await fieldError('many.csv', text)).toBe('每个文件最多 20000 行数据，本文件超过了这个数，请拆分后导入');
  });

  it('no file at all → 400', async () => {
    const response = await t.app.request(`${base}/import`, {
      method: 'POST',
      headers: apiHeaders({ Cookie: operator }),
      body: new FormData(),
    });
    expect(((await response.json()) as Envelope).code).toBe(ApiCode.BAD_REQUEST);
  });
});

describe('xlsx bounds: the parts read are found through the workbook', () => {
  it('the first sheet as the workbook lists it, with shared strings and an absolute target, imports', async () => {
    const xml = '<?xml version="1.0" encoding="UTF-8"?>';
    const strings = [...headers, orderB.orderNo, '2026-05', '正式结算'];
    const cell = (ref: string, index: number) => `<c r="${ref}" t="s"><v>${index}</v></c>`;
    const letters = 'ABCDEFGH';
    const sheet = `${xml}<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1">${headers.map((_, index) => cell(`${letters[index]}1`, index)).join('')}</row><row r="2">${cell('A2', 8)}${cell('B2', 9)}<c r="C2"><v>7.5</v></c><c r="D2"><v>0.392</v></c><c r="E2"><v>0.41537</v></c>${cell('H2', 10)}</row></sheetData></worksheet>`;
    const file = zipSync(
      {
        '[Content_Types].xml': strToU8(
          `${xml}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/></Types>`,
        ),
        'xl/workbook.xml': strToU8(
          `${xml}<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="数据" sheetId="7" r:id="rId9"/><sheet name="说明" sheetId="1" r:id="rId1"/></sheets></workbook>`,
        ),
        'xl/_rels/workbook.xml.rels': strToU8(
          `${xml}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId9" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="/xl/worksheets/data.xml"/><Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="strings.xml"/></Relationships>`,
        ),
        'xl/strings.xml': strToU8(
          `${xml}<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">${strings.map((text) => `<si><t>${text}</t></si>`).join('')}</sst>`,
        ),
        'xl/worksheets/data.xml': strToU8(sheet),
        // Not read: another sheet, broken on purpose.
        'xl/worksheets/sheet1.xml': strToU8('<not xml'),
      },
      { level: 6 },
    ) as Uint8Array<ArrayBuffer>;
    const answer = await upload('shared.xlsx', file);
    expect(answer.code, JSON.stringify(answer.data)).toBe(200);
    expect((await resultsOf(orderB.orderId)).find((row) => row.settleMonth === '2026-05-01')).toMatchObject({
      settledEnergy: '7.500',
      status: 2,
    });
  });
});

describe('zip bombs: refused before anything is unpacked — fast, flat, row-less, nothing written', () => {
  let big: Uint8Array<ArrayBuffer>;
  beforeAll(() => {
    // 200 MiB of sheet in ~1.2 MB: before the bounds, read whole (seconds, hundreds of MB).
    big = bigSheetXlsx(200);
  }, 60_000);

  const heap = () => {
    const usage = process.memoryUsage();
    return usage.heapUsed + usage.arrayBuffers;
  };

  /** The answer, how long it took and how far the heap (JS objects and buffers) rose meanwhile; checks nothing was written. */
  async function measured(name: string, content: Uint8Array<ArrayBuffer>, locale?: string) {
    const before = await footprint();
    const start = heap();
    let peak = start;
    const sampler = setInterval(() => (peak = Math.max(peak, heap())), 2);
    let answer: Awaited<ReturnType<typeof upload>> | undefined;
    // CPU, not the clock: what the refusal costs this process, whatever else the machine runs.
    const ms = await cpuMillis(async () => {
      answer = await upload(name, content, operator, locale ? { 'Accept-Language': locale } : {});
    });
    clearInterval(sampler);
    peak = Math.max(peak, heap());
    expect(await footprint()).toEqual(before);
    return { answer: answer!, ms, grewMb: (peak - start) / 1024 / 1024 };
  }

  function refusedAtFile(answer: Awaited<ReturnType<typeof upload>>, message: string) {
    expect(answer.code).toBe(ApiCode.BAD_REQUEST);
    expect(answer.message).toBe(message);
    // Row-less: a field error on `file`, no rejected rows.
    expect(answer.data.errors).toEqual([{ field: 'file', message }]);
    expect(answer.data.rejected).toBeUndefined();
  }

  it('a sheet that unpacks to 200 MB: refused by its declared size, in under a second, heap flat', async () => {
    expect(big.byteLength).toBeLessThan(2 * 1024 * 1024);
    const { answer, ms, grewMb } = await measured('bomb.xlsx', big);
    refusedAtFile(answer, '文件解压后超过 48 MB，未读取；请只保留结算数据后重新保存再上传');
    expect(ms).toBeLessThan(1000);
    expect(grewMb).toBeLessThan(32);
    const english = await measured('bomb.xlsx', big, 'en-US');
    refusedAtFile(
      english.answer,
      'The file unpacks to more than 48 MB and was not read; keep only the settlement data, save it again and upload it',
    );
  });

  it('10 000 parts: refused by the count in the directory’s end record', async () => {
    const many = manyPartsXlsx(10_000);
    const { answer, ms, grewMb } = await measured('many.xlsx', many);
    refusedAtFile(answer, '文件包含 10005 个内部部件（最多 100 个），不像是结算表格，未读取');
    expect(ms).toBeLessThan(1000);
    expect(grewMb).toBeLessThan(32);
  });

  it('a directory that lies about the sheet’s size: unpacking stops at the declared size and the file is refused', async () => {
    const sheet = 'xl/worksheets/sheet1.xml';
    // Declared 20× its packed size (~24 MB: under every cap, a plausible ratio); it holds 200 MB.
    const lying = withDeclaredSize(big, sheet, 20 * packedSize(big, sheet));
    const { answer, ms, grewMb } = await measured('lying.xlsx', lying);
    refusedAtFile(answer, '文件的实际内容与其记录的大小不符（文件可能已损坏），未读取；请重新保存后上传');
    expect(ms).toBeLessThan(1000);
    expect(grewMb).toBeLessThan(64);
  });

  it('a part packed more than 100:1: refused by its ratio even under the size caps', async () => {
    const dense = bigSheetXlsx(40, { sameRows: true });
    const { answer, ms } = await measured('dense.xlsx', dense);
    refusedAtFile(answer, '文件的压缩比异常（超过 100:1），未读取；请用 Excel 或 WPS 重新保存后上传');
    expect(ms).toBeLessThan(1000);
  });
});

describe('template', () => {
  it('CSV: a BOM and the header line; filled in, it imports', async () => {
    const response = await t.app.request(`${base}/template?format=csv`, { headers: { Cookie: operator } });
    expect(response.headers.get('content-type')).toContain('text/csv');
    expect(decodeURIComponent(response.headers.get('content-disposition') ?? '')).toContain('结算导入模板.csv');
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
    expect(text).toBe(`\uFEFF${headers.join(',')}\r\n`);
    const filled = `${text}${orderB.orderNo},2026-10,5,0.392,0.41537,,,正式结算\r\n`;
    const answer = await upload('template.csv', filled);
    expect(answer.code, JSON.stringify(answer.data)).toBe(200);
  });

  it('xlsx (the default): the header row, readable; a bad format → 400', async () => {
    const response = await t.app.request(`${base}/template`, { headers: { Cookie: operator } });
    expect(response.headers.get('content-type')).toContain('spreadsheetml');
    const sheet = await readSheet(Buffer.from(await response.arrayBuffer()));
    expect(sheet).toEqual([headers]);
    const bad = await t.app.request(`${base}/template?format=xls`, { headers: { Cookie: operator } });
    expect(((await bad.json()) as Envelope).code).toBe(ApiCode.BAD_REQUEST);
  });
});
