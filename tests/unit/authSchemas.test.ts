/** The account schemas the forms and the server share (src/lib/schemas/auth.ts, account.ts). */
import { describe, expect, it } from 'vitest';
import {
  bindBody,
  changePasswordBody,
  changeUserInfoBody,
  endSessionBody,
  noticeReadBody,
} from '../../src/lib/schemas/account.ts';
import {
  loginBody,
  loginMobileBody,
  registerBody,
  resetPasswordBody,
  sendSmsBody,
} from '../../src/lib/schemas/auth.ts';

const issues = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  result.error?.issues.map((issue) => [issue.path.join('.'), issue.message]) ?? [];

describe('login', () => {
  it('fills the web device id and the account-login app code, and takes an empty captcha as none', () => {
    expect(loginBody.parse({ userName: ' demo ', password: 'x', captcha: '' })).toEqual({
      userName: 'demo',
      password: 'x',
      captcha: '',
      deviceId: 'hgdweb',
      appCode: 'hgd',
    });
    expect(loginMobileBody.parse({ phone: '13800138000', code: '123456' })).toMatchObject({
      deviceId: 'hgdweb',
      appCode: 'HGD',
    });
  });

  it('does not apply the password creation rules at login, but does check the captcha shape', () => {
    expect(loginBody.safeParse({ userName: 'demo', password: 'short' }).success).toBe(true);
    expect(loginBody.safeParse({ userName: 'demo', password: 'x', captcha: 'ab' }).success).toBe(false);
    expect(loginBody.safeParse({ userName: 'demo', password: 'x', appCode: 'HGD' }).success).toBe(false);
  });
});

describe('register and reset', () => {
  it('require a mainland phone, a 6-digit code and a password with letters and digits', () => {
    const good = {
      phone: '13912345678',
      code: '012345',
      name: '张三',
      password: 'Abcdefg1',
      userAgreementVersion: '1.0',
      privacyPolicyVersion: '1.0',
    };
    expect(registerBody.safeParse(good).success).toBe(true);
    // The consent: both versions, else the checkbox says so.
    const { privacyPolicyVersion: _omitted, ...withoutPolicy } = good;
    expect(issues(registerBody.safeParse(withoutPolicy))).toEqual([['agreement', 'legal.consentRequired']]);
    expect(issues(registerBody.safeParse({ ...good, password: 'abcdefgh' }))).toEqual([
      ['password', 'validation.passwordChars'],
    ]);
    expect(registerBody.safeParse({ ...good, phone: '12912345678' }).success).toBe(false);
    expect(registerBody.safeParse({ ...good, code: '12345' }).success).toBe(false);
    expect(registerBody.safeParse({ ...good, name: '   ' }).success).toBe(false);
    expect(resetPasswordBody.safeParse({ phone: good.phone, code: good.code, newPassword: 'Abcdefg1' }).success).toBe(
      true,
    );
  });

  it('sendSMS knows the flows and no others', () => {
    for (const type of ['login', 'modify', 'register', 'binding', 'mobile']) {
      expect(sendSmsBody.safeParse({ phone: '13912345678', type }).success).toBe(true);
    }
    expect(sendSmsBody.safeParse({ phone: '13912345678', type: 'verify' }).success).toBe(false);
  });
});

describe('account calls', () => {
  it('changePwd refuses the same password', () => {
    expect(issues(changePasswordBody.safeParse({ oldPassword: 'Abcdefg1', newPassword: 'Abcdefg1' }))).toEqual([
      ['newPassword', 'auth.samePassword'],
    ]);
  });

  it('changeUserInfo needs something to change, and both codes with a new mobile', () => {
    expect(issues(changeUserInfoBody.safeParse({}))).toEqual([['', 'auth.nothingToChange']]);
    expect(changeUserInfoBody.safeParse({ email: '' }).success).toBe(true);
    const paths = issues(changeUserInfoBody.safeParse({ mobile: '13912345678' })).map(([path]) => path);
    expect(paths).toEqual(['code', 'verifyCode']);
    expect(changeUserInfoBody.safeParse({ mobile: '13912345678', code: '123456', verifyCode: '654321' }).success).toBe(
      true,
    );
  });

  it("bind coerces the form's user id and checks the clearance account", () => {
    const good = {
      userId: '12',
      mobile: '13912345678',
      code: '123456',
      userName: 'demo_user',
      clearanceAccount: '0300012345678',
      enterpriseName: '某某有限公司',
    };
    expect(bindBody.parse(good).userId).toBe(12);
    expect(bindBody.safeParse({ ...good, userId: '0' }).success).toBe(false);
    expect(bindBody.safeParse({ ...good, clearanceAccount: '03-0001' }).success).toBe(false);
    expect(bindBody.safeParse({ ...good, enterpriseName: '某' }).success).toBe(false);
  });

  it('session and notice ids', () => {
    expect(endSessionBody.safeParse({ id: '0123456789abcdef' }).success).toBe(true);
    expect(endSessionBody.safeParse({ id: '0123456789ABCDEF' }).success).toBe(false);
    expect(noticeReadBody.parse({ id: '7' })).toEqual({ id: 7 });
    expect(noticeReadBody.safeParse({ id: '-1' }).success).toBe(false);
  });
});
