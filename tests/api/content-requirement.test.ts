/** POST /api/front/requirement/submitRequirement: stored row, validation, content checks, rate limit per IP. */
import { desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { loadContent } from '../../src/content/load.ts';
import { bizTypesOfArea } from '../../src/content/query.ts';
import { rateLimits, requirements } from '../../src/server/db/schema/index.ts';
import { requirementPerIp } from '../../src/server/services/requirements.ts';
import { apiHeaders, createTestApp, openPerFile } from './harness.ts';
import type { Envelope } from './contentClient.ts';

const content = loadContent('src/content');
const bizTypeId = bizTypesOfArea(content, '450000', 'all')[0]?.bizTypeId ?? '';

// Behind a proxy, so that each test can speak from its own client address.
const t = openPerFile(() => createTestApp({ env: { TRUST_PROXY: '1' } }));

const valid = {
  contactName: '陈建国',
  phone: '13912345678',
  company: '佛山市南海区恒通五金制品有限公司',
  areaCode: '450000',
  bizTypeId,
  content: '我司年用电量约 800 万千瓦时，10 千伏供电，希望了解 2027 年度固定价格套餐的报价。',
};

async function submit(
  body: Record<string, string>,
  ip: string,
  locale = 'zh-CN',
  json = false,
): Promise<Envelope<{ requirementId?: number; errors?: { field: string }[] }>> {
  const res = await t.app.request('/api/front/requirement/submitRequirement', {
    method: 'POST',
    headers: apiHeaders({
      'Content-Type': json ? 'application/json' : 'application/x-www-form-urlencoded',
      'Accept-Language': locale,
      'X-Forwarded-For': ip,
    }),
    body: json ? JSON.stringify(body) : new URLSearchParams(body).toString(),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Envelope<{ requirementId?: number; errors?: { field: string }[] }>;
}

async function count(): Promise<number> {
  return (await t.db.select({ id: requirements.id }).from(requirements)).length;
}

describe('submitRequirement', () => {
  it('stores a valid requirement and answers a clear success message', async () => {
    const body = await submit(valid, '203.0.113.1');
    expect(body).toMatchObject({ code: 200, message: '需求已提交，售电公司将在 1 个工作日内与您联系' });
    const [row] = await t.db
      .select()
      .from(requirements)
      .where(eq(requirements.id, body.data.requirementId ?? -1));
    expect(row).toMatchObject({
      contactName: valid.contactName,
      phone: valid.phone,
      company: valid.company,
      areaCode: valid.areaCode,
      bizTypeId: valid.bizTypeId,
      content: valid.content,
      ip: '203.0.113.1',
      status: 'new',
    });
  });

  it('accepts JSON, trims text, and leaves optional fields empty', async () => {
    const { company: _c, bizTypeId: _b, ...required } = valid;
    const body = await submit({ ...required, contactName: '  林晓  ' }, '203.0.113.2', 'en-US', true);
    expect(body.message).toBe(
      'Your request has been submitted. A retail electricity company will contact you within 1 working day.',
    );
    const [row] = await t.db.select().from(requirements).orderBy(desc(requirements.id)).limit(1);
    expect(row).toMatchObject({ contactName: '林晓', company: '', bizTypeId: '' });
  });

  it('rejects bad fields with 400, a localized message per field, and stores nothing', async () => {
    const before = await count();
    const cases: [Record<string, string>, string, string][] = [
      [{ ...valid, phone: '12345' }, 'phone', '手机号格式不正确'],
      [{ ...valid, contactName: '' }, 'contactName', '请输入联系人'],
      [{ ...valid, content: '太短' }, 'content', '需求内容须在5到1000个字符之间'],
      [{ ...valid, content: '好'.repeat(1001) }, 'content', '需求内容须在5到1000个字符之间'],
      [{ ...valid, areaCode: 'gd' }, 'areaCode', '地区编码格式不正确'],
      [{ ...valid, bizTypeId: 'Not A Type' }, 'bizTypeId', '业务类型格式不正确'],
      [{ ...valid, company: '公'.repeat(101) }, 'company', '公司名称最多100个字符'],
    ];
    for (const [input, field, message] of cases) {
      const body = await submit(input, '203.0.113.3');
      expect(body.code).toBe(400);
      expect(body.message).toBe(message);
      expect(body.data.errors?.map((e) => e.field)).toContain(field);
    }
    const missing = await submit({ contactName: '陈建国' }, '203.0.113.3', 'pt-BR');
    expect(missing.code).toBe(400);
    expect(missing.data.errors?.map((e) => e.field)).toEqual(expect.arrayContaining(['phone', 'areaCode', 'content']));
    expect(await count()).toBe(before);
  });

  it('rejects a region or business type the content does not offer', async () => {
    const before = await count();
    expect(await submit({ ...valid, areaCode: '110000' }, '203.0.113.4')).toMatchObject({
      code: 404,
      message: '暂不支持该地区',
    });
    expect(await submit({ ...valid, bizTypeId: 'no-such-type' }, '203.0.113.4')).toMatchObject({
      code: 400,
      message: '所选业务类型在该地区暂未开展',
    });
    expect(await count()).toBe(before);
  });

  it('needs the CSRF headers', async () => {
    const res = await t.app.request('/api/front/requirement/submitRequirement', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(valid).toString(),
    });
    expect(((await res.json()) as Envelope).code).toBe(403);
  });

  it('limits submissions per IP, leaving other addresses alone', async () => {
    const ip = '198.51.100.7';
    for (let i = 0; i < requirementPerIp.limit; i++) expect((await submit(valid, ip)).code).toBe(200);
    const before = await count();
    const refused = await submit(valid, ip);
    expect(refused.code).toBe(429);
    expect(refused.message).toMatch(/^提交过于频繁，请 \d+ 分钟后再试$/);
    expect((await submit(valid, ip, 'en-US')).message).toMatch(
      /^Too many requests from your network\. Please try again in \d+ min\.$/,
    );
    expect(await count()).toBe(before);
    // The refused hits were rolled back with their transactions: the count stays at the limit.
    const [counter] = await t.db
      .select()
      .from(rateLimits)
      .where(eq(rateLimits.key, `${requirementPerIp.name}:${ip}`));
    expect(counter?.hits).toBe(requirementPerIp.limit);
    expect((await submit(valid, '198.51.100.8')).code).toBe(200);
  });
});
