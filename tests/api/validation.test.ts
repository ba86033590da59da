import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { passwordSchema, userNameSchema } from '../../src/lib/schemas/fields.ts';
import { handleError, ok } from '../../src/server/envelope.ts';
import { localeMiddleware } from '../../src/server/middleware/locale.ts';
import type { AppEnv } from '../../src/server/types.ts';
import { validate } from '../../src/server/validate.ts';
import { apiHeaders, createTestApp, openPerFile } from './harness.ts';

const t = openPerFile(createTestApp);

interface Envelope<T = Record<string, unknown>> {
  code: number;
  message: string;
  data: T;
}
const json = async <T = Record<string, unknown>>(res: Response) => (await res.json()) as Envelope<T>;

describe('checkphonenum', () => {
  const check = (query: string, locale = 'zh-CN') =>
    t.app.request(`/api/front/system/checkphonenum${query}`, { headers: { 'Accept-Language': locale } });

  it('asks for the phone when it is missing or empty', async () => {
    expect(await json(await check(''))).toEqual({
      code: 400,
      message: '请输入手机号',
      data: { errors: [{ field: 'phone', message: '请输入手机号' }] },
    });
    expect((await json(await check('?phone='))).message).toBe('请输入手机号');
    expect((await json(await check('', 'en-US'))).message).toBe('Please enter mobile number');
  });

  it('rejects a malformed phone with the pattern message', async () => {
    for (const phone of ['12345678901', '1380013800', '138001380011', '2380013800a']) {
      const body = await json(await check(`?phone=${phone}`));
      expect(body.code, phone).toBe(400);
      expect(body.message, phone).toBe('手机号格式不正确');
    }
    expect((await json(await check('?phone=123', 'en-US'))).message).toBe(
      'Mobile number is not in the expected format',
    );
  });

  it('says whether the phone is registered', async () => {
    expect(await json(await check('?phone=13800138001'))).toEqual({
      code: 200,
      message: '操作成功',
      data: { registered: true },
    });
    expect((await json(await check('?phone=13912345678'))).data).toEqual({ registered: false });
  });

  it('says "whitespace" for a blank value', async () => {
    expect((await json(await check('?phone=%20%20'))).message).toBe('手机号不能为空白字符');
  });
});

describe('bodies', () => {
  const post = (body: BodyInit, contentType?: string) =>
    t.app.request('/api/front/hgdsys/hgdClient/setProvince', {
      method: 'POST',
      headers: apiHeaders(contentType ? { 'Content-Type': contentType } : {}),
      body,
    });

  it('reads form-urlencoded, JSON and multipart bodies', async () => {
    const expected = { code: 200, message: '操作成功', data: { areaCode: '450000', areaName: '广西壮族自治区' } };
    expect(await json(await post('areaCode=450000', 'application/x-www-form-urlencoded'))).toEqual(expected);
    expect(await json(await post('{"areaCode":"450000"}', 'application/json; charset=utf-8'))).toEqual(expected);
    const form = new FormData();
    form.set('areaCode', '450000');
    expect(await json(await post(form))).toEqual(expected);
  });

  it('answers malformed JSON with 400 validation.body', async () => {
    expect(await json(await post('{"areaCode":', 'application/json'))).toEqual({
      code: 400,
      message: '请求内容无法解析',
      data: {},
    });
  });

  it('answers an unsupported content type with 400 validation.body', async () => {
    expect((await json(await post('<x/>', 'application/xml'))).message).toBe('请求内容无法解析');
  });

  it('rejects a wrong type in JSON with the type message', async () => {
    expect((await json(await post('{"areaCode":440000}', 'application/json'))).message).toBe('地区编码不是有效的文本');
  });
});

describe('issue messages', () => {
  // One app with schemas that exercise each kind of message.
  const app = new Hono<AppEnv>();
  app.use('*', localeMiddleware);
  app.onError(handleError);
  const schema = z.object({
    userName: userNameSchema,
    password: z.optional(passwordSchema),
    code: z.string().length(6).optional(),
    count: z.coerce.number().int().min(1).max(10).optional(),
    tags: z.array(z.string()).min(1).max(3).optional(),
    kind: z.enum(['a', 'b']).optional(),
    email: z.email().optional(),
    nested: z.object({ name: z.string().max(2) }).optional(),
  });
  app.get('/api/check', async (c) => ok(c, await validate(c, schema, 'query')));
  const check = async (query: string, locale = 'zh-CN') =>
    json<{ errors: { field: string; message: string }[] }>(
      await app.request(`/api/check?${query}`, { headers: { 'Accept-Language': locale } }),
    );

  it('uses the range message when a length has both bounds', async () => {
    expect((await check('userName=abc')).message).toBe('用户名须在4到32个字符之间');
    expect((await check('userName=abc', 'en-US')).message).toBe('User name must be between 4 and 32 characters');
  });

  it('uses len, number range, array range, enum, type and custom messages', async () => {
    const base = 'userName=demo_person';
    expect((await check(`${base}&code=123`)).message).toBe('短信验证码须为6个字符');
    expect((await check(`${base}&count=11`)).message).toBe('该字段须在1到10之间');
    expect((await check(`${base}&count=x`)).message).toBe('该字段不是有效的数字');
    expect((await check(`${base}&tags[]=a&tags[]=b&tags[]=c&tags[]=d`)).message).toBe('该字段须在1到3项之间');
    expect((await check(`${base}&kind=c`)).message).toBe('该字段必须是其中之一：a, b');
    expect((await check(`${base}&email=nope`)).message).toBe('邮箱不是有效的邮箱地址');
    expect((await check(`${base}&password=abcdefgh`)).message).toBe('密码须同时包含字母和数字');
    expect((await check(`${base}&password=abc1`)).message).toBe('密码须在8到64个字符之间');
  });

  it('reads nested keys and names the nested field', async () => {
    const body = await check('userName=demo_person&nested.name=abc');
    expect(body.data.errors).toEqual([{ field: 'nested.name', message: '姓名最多2个字符' }]);
    expect((await check('userName=demo_person&nested[name]=abc')).data.errors[0]?.field).toBe('nested.name');
  });

  it('lists every issue in data.errors and answers the first', async () => {
    const body = await check('userName=a&code=1&kind=z');
    expect(body.code).toBe(400);
    expect(body.data.errors.map((e) => e.field)).toEqual(['userName', 'code', 'kind']);
    expect(body.message).toBe(body.data.errors[0]?.message);
  });

  it('passes valid input through, typed and coerced', async () => {
    const body = await check('userName=demo_person&count=3&tags=a&tags=b&t=123');
    expect(body).toEqual({
      code: 200,
      message: '操作成功',
      data: { userName: 'demo_person', count: 3, tags: ['a', 'b'] },
    });
  });
});
