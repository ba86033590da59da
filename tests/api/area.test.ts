import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { regions } from '../../src/server/db/schema/index.ts';
import { apiHeaders, createTestApp, openPerFile } from './harness.ts';

const t = openPerFile(createTestApp);

const setProvince = (areaCode: string, locale = 'zh-CN') =>
  t.app.request('/api/front/hgdsys/hgdClient/setProvince', {
    method: 'POST',
    headers: apiHeaders({ 'Content-Type': 'application/x-www-form-urlencoded', 'Accept-Language': locale }),
    body: new URLSearchParams({ areaCode }).toString(),
  });

describe('areas', () => {
  it('lists the five seeded provinces in order, Guangdong first', async () => {
    const res = await t.app.request('/api/front/hgdsys/hgdClient/getProvinceList');
    const body = (await res.json()) as {
      code: number;
      data: { areaCode: string; areaName: string; shortName: string; hotline: string }[];
    };
    expect(body.code).toBe(200);
    expect(body.data.map((r) => r.areaCode)).toEqual(['440000', '450000', '460000', '520000', '530000']);
    expect(body.data[0]).toEqual({ areaCode: '440000', areaName: '广东省', shortName: '广东', hotline: '020-95598' });
  });

  it('accepts a known area', async () => {
    expect(await (await setProvince('530000')).json()).toEqual({
      code: 200,
      message: '操作成功',
      data: { areaCode: '530000', areaName: '云南省' },
    });
  });

  it('rejects an unknown area with code 404', async () => {
    expect(await (await setProvince('110000')).json()).toEqual({ code: 404, message: '暂不支持该地区', data: {} });
    expect(((await (await setProvince('110000', 'en-US')).json()) as { message: string }).message).toBe(
      'This region is not supported',
    );
  });

  it('rejects a malformed code with code 400', async () => {
    const body = (await (await setProvince('44')).json()) as { code: number; message: string };
    expect(body).toMatchObject({ code: 400, message: '地区编码格式不正确' });
    expect(((await (await setProvince('')).json()) as { message: string }).message).toBe('请输入地区编码');
  });

  it('rejects a disabled area with code 400, and hides it from the list', async () => {
    await t.db.update(regions).set({ enabled: false }).where(eq(regions.areaCode, '460000'));
    try {
      expect(await (await setProvince('460000')).json()).toEqual({
        code: 400,
        message: '该地区暂未开通服务',
        data: {},
      });
      const list = (await (await t.app.request('/api/front/hgdsys/hgdClient/getProvinceList')).json()) as {
        data: { areaCode: string }[];
      };
      expect(list.data.map((r) => r.areaCode)).not.toContain('460000');
    } finally {
      await t.db.update(regions).set({ enabled: true }).where(eq(regions.areaCode, '460000'));
    }
  });
});

describe('health', () => {
  it('reports the database kind after a query', async () => {
    const res = await t.app.request('/api/health');
    const body = (await res.json()) as { code: number; data: { status: string; db: string; uptime: number } };
    expect(body.code).toBe(200);
    expect(body.data.status).toBe('ok');
    expect(body.data.db).toBe(process.env['TEST_DATABASE_URL'] ? 'postgres' : 'pglite');
    expect(body.data.uptime).toBeGreaterThanOrEqual(0);
  });
});
