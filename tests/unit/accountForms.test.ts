// @vitest-environment happy-dom
import { describe, expect, test, vi } from 'vitest';
import { secondsLeft } from '../../src/islands/auth/countdown.ts';
import { labelCase, serverFieldErrors, validateForm, withFieldError } from '../../src/islands/auth/formValidation.ts';
import { validationMessages } from '../../src/lib/i18n/formMessages.ts';
import { accountLoginForm, mobileLoginForm } from '../../src/islands/auth/loginForm.ts';
import { confirmError } from '../../src/islands/auth/passwordPair.ts';
import { signInTarget } from '../../src/islands/auth/signIn.ts';
import { badgeText, noticesOfType } from '../../src/islands/notices/noticeBell.ts';
import { authStatusLabel } from '../../src/islands/person/personData.ts';
import { dictionaries } from '../../src/lib/i18n/index.ts';
import { changePasswordBody } from '../../src/lib/schemas/account.ts';
import { registerBody } from '../../src/lib/schemas/auth.ts';

const zh = validationMessages('zh-CN');
const en = validationMessages('en-US');

describe('form validation with the shared schemas', () => {
  test("messages are the server's: required, pattern, custom rule keys", () => {
    const result = validateForm(mobileLoginForm, { phone: '', code: '12' }, zh);
    expect(result).toEqual({ ok: false, errors: { phone: '请输入手机号', code: '短信验证码格式不正确' } });
    const english = validateForm(mobileLoginForm, { phone: '12345', code: '123456' }, en);
    expect(english.ok).toBe(false);
    if (!english.ok) expect(english.errors['phone']).toMatch(/^Mobile number/);
  });

  test("the account form always asks for the captcha; good input passes with the call's defaults", () => {
    const missing = validateForm(accountLoginForm, { userName: 'demo_person', password: 'x' }, zh);
    expect(missing.ok).toBe(false);
    if (!missing.ok) expect(Object.keys(missing.errors)).toEqual(['captcha']);
    const good = validateForm(
      accountLoginForm,
      { userName: 'demo_person', password: 'x', captcha: 'AB12', appCode: 'hgd' },
      zh,
    );
    expect(good).toEqual({
      ok: true,
      data: { userName: 'demo_person', password: 'x', captcha: 'AB12', deviceId: 'hgdweb', appCode: 'hgd' },
    });
  });

  test('a rule that names its message by key is localized (password letters and digits, same password)', () => {
    const weak = validateForm(
      registerBody,
      { phone: '13800138000', code: '123456', name: '张三', password: '12345678' },
      zh,
    );
    expect(!weak.ok && weak.errors['password']).toBe('密码须同时包含字母和数字');
    const same = validateForm(changePasswordBody, { oldPassword: 'Abc12345', newPassword: 'Abc12345' }, zh);
    expect(!same.ok && same.errors['newPassword']).toBe(dictionaries['zh-CN']['auth.samePassword']);
  });

  test('server field errors land on their fields; the first message of a field wins', () => {
    const errors = serverFieldErrors({
      code: 400,
      message: 'x',
      data: {
        errors: [
          { field: 'phone', message: 'a' },
          { field: 'phone', message: 'b' },
          { field: 'code', message: 'c' },
          { bogus: 1 },
        ],
      },
    });
    expect(errors).toEqual({ phone: 'a', code: 'c' });
    expect(serverFieldErrors({ code: 400, message: 'x', data: {} })).toEqual({});
  });

  test('withFieldError replaces or removes one field only', () => {
    expect(withFieldError({ a: '1', b: '2' }, 'a', 'x')).toEqual({ a: 'x', b: '2' });
    expect(withFieldError({ a: '1', b: '2' }, 'a', undefined)).toEqual({ b: '2' });
  });

  test('the confirmation must repeat the password', () => {
    expect(confirmError({ password: 'Abc12345', confirmPassword: 'Abc12345' }, 'password', 'no')).toEqual({});
    expect(confirmError({ password: 'Abc12345', confirmPassword: 'Abc1234' }, 'password', 'no')).toEqual({
      confirmPassword: 'no',
    });
  });

  test('labels start with a capital where the dictionary keeps them lower case', () => {
    expect(labelCase('mobile number')).toBe('Mobile number');
    expect(labelCase('手机号')).toBe('手机号');
  });
});

describe('after signing in', () => {
  test("the redirect is followed when allowed, else the home page of the page's language", () => {
    const redirect = encodeURIComponent('http://localhost:4321/person/account?tab=1');
    expect(signInTarget(`http://localhost:4321/user/login?redirect=${redirect}`, 'zh-CN')).toBe(
      '/person/account?tab=1',
    );
    expect(signInTarget('http://localhost:4321/en-US/user/login', 'en-US')).toBe('/en-US/welcome/home');
    expect(signInTarget('http://localhost:4321/setting/register', 'zh-CN', '/person/overview')).toBe(
      '/person/overview',
    );
    // Another origin: the spec's rule sends to /.
    expect(
      signInTarget(
        `http://localhost:4321/user/login?redirect=${encodeURIComponent('https://evil.example/x')}`,
        'zh-CN',
      ),
    ).toBe('/');
  });
});

describe('SMS countdown', () => {
  test('counts whole seconds against the clock and never goes below zero', () => {
    expect(secondsLeft(60_000, 0)).toBe(60);
    expect(secondsLeft(60_000, 59_001)).toBe(1);
    expect(secondsLeft(60_000, 60_000)).toBe(0);
    expect(secondsLeft(60_000, 90_000)).toBe(0);
  });
});

describe('notice bell and overview', () => {
  test('notices per type with their unread count', () => {
    const list = [
      { id: 1, type: 'notification', read: false },
      { id: 2, type: 'notification', read: true },
      { id: 3, type: 'message', read: false },
    ];
    expect(noticesOfType(list, 'notification')).toEqual({ items: list.slice(0, 2), unread: 1 });
    expect(noticesOfType(list, 'event')).toEqual({ items: [], unread: 0 });
    expect(badgeText(7)).toBe('7');
    expect(badgeText(120)).toBe('99+');
  });

  test('certification status 0–3 as words, anything else a dash', () => {
    const messages = { ...dictionaries['zh-CN'] };
    expect([0, 1, 2, 3, 7, null].map((status) => authStatusLabel(status, messages))).toEqual([
      '未认证',
      '审核中',
      '已认证',
      '已退回',
      '-',
      '-',
    ]);
  });
});

describe('form calls', () => {
  function answer(code: number, message: string, data: unknown = {}): Response {
    return new Response(JSON.stringify({ code, message, data }), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  }

  test('a validation answer lands on its fields with no toast; another refusal is a toast; 901 stops the flow', async () => {
    document.body.innerHTML = '';
    document.documentElement.lang = 'zh-CN';
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => {});
    const fetchMock = vi.fn<() => Promise<Response>>();
    globalThis.fetch = fetchMock as unknown as typeof fetch;
    const { postForm } = await import('../../src/islands/auth/formCall.ts');

    fetchMock.mockResolvedValueOnce(
      answer(400, '请输入手机号', { errors: [{ field: 'phone', message: '请输入手机号' }] }),
    );
    const invalid = await postForm('/api/front/system/register', {});
    expect(invalid).toMatchObject({ ok: false, code: 400, errors: { phone: '请输入手机号' } });
    expect(document.querySelector('[data-hgd-toasts] .alert-error')).toBeNull();

    fetchMock.mockResolvedValueOnce(answer(409, '该手机号已注册'));
    const taken = await postForm('/api/front/system/register', {});
    expect(taken).toMatchObject({ ok: false, code: 409, errors: {} });
    expect(document.querySelector('[data-hgd-toasts] .alert-error')?.textContent).toContain('该手机号已注册');

    fetchMock.mockResolvedValueOnce(answer(901, '登录已失效'));
    expect(await postForm('/api/front/user/changePwd', {})).toBeUndefined();
    expect(assign).toHaveBeenCalledTimes(1);

    fetchMock.mockResolvedValueOnce(answer(200, '注册成功', { userName: 'x' }));
    expect(await postForm('/api/front/system/register', {})).toEqual({
      ok: true,
      data: { userName: 'x' },
      message: '注册成功',
    });
    vi.restoreAllMocks();
  });

  test('asking for a code too soon counts down the seconds the server gives, after its message', async () => {
    document.body.innerHTML = '';
    document.documentElement.lang = 'zh-CN';
    const fetchMock = vi.fn<() => Promise<Response>>();
    globalThis.fetch = fetchMock as unknown as typeof fetch;
    const { sendSmsCode } = await import('../../src/islands/auth/smsFlow.ts');
    const messages = { ...zh, 'account.sms.phoneTaken': dictionaries['zh-CN']['account.sms.phoneTaken'] };

    fetchMock
      .mockResolvedValueOnce(answer(200, '操作成功', { registered: true }))
      .mockResolvedValueOnce(answer(429, '发送过于频繁，请 42 秒后再试', { retryAfterSeconds: 42 }));
    expect(await sendSmsCode('13800138001', 'login', messages)).toEqual({ seconds: 42 });
    expect(document.querySelector('[data-hgd-toasts] .alert-error')?.textContent).toContain('42 秒');

    // A daily cap has no countdown to offer: the message alone.
    fetchMock
      .mockResolvedValueOnce(answer(200, '操作成功', { registered: true }))
      .mockResolvedValueOnce(answer(429, '今日发送次数已达上限，请明天再试'));
    expect(await sendSmsCode('13800138001', 'login', messages)).toEqual({});
  });
});
