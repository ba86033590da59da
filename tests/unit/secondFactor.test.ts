// @vitest-environment happy-dom
/**
 * The pure parts of two-step verification: the sealed secret, the accepted time step (±1), the
 * recovery codes, who must have a factor; and, in the browser, the request client's answer to a
 * call refused for want of one and the current user's demand.
 */
import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { get, post } from '../../src/lib/api/index.ts';
import { isRecoveryCode, recoveryCodeAlphabet, secondFactorCodeSchema } from '../../src/lib/schemas/secondFactor.ts';
import { secondFactorDemandOf } from '../../src/lib/secondFactorDemand.ts';
import {
  acceptedStep,
  decryptSecret,
  encryptSecret,
  hashRecoveryCode,
  newRecoveryCode,
  normalizeRecoveryCode,
  requiresSecondFactor,
} from '../../src/server/services/secondFactor.ts';
import { mapCurrentUser } from '../../src/stores/session.ts';

describe('the sealed secret', () => {
  const key = randomBytes(32);
  const secret = new Secret({ size: 20 }).base32;

  test('opens with its key for its user only, and never shows the secret', () => {
    const sealed = encryptSecret(key, 7, secret);
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain(secret);
    expect(decryptSecret(key, 7, sealed)).toBe(secret);
    expect(() => decryptSecret(key, 8, sealed)).toThrow();
    expect(() => decryptSecret(randomBytes(32), 7, sealed)).toThrow();
    // A fresh IV each time: the same secret never seals the same way twice.
    expect(encryptSecret(key, 7, secret)).not.toBe(sealed);
  });

  test('refuses a tampered value', () => {
    const [version, iv, tag, body] = encryptSecret(key, 7, secret).split('.');
    const flipped = Buffer.from(body!, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    expect(() => decryptSecret(key, 7, [version, iv, tag, flipped.toString('base64url')].join('.'))).toThrow();
  });
});

describe('the accepted time step', () => {
  const secret = new Secret({ size: 20 }).base32;
  const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
  const now = 1_780_000_015_000;
  const step = Math.floor(now / 30_000);
  const codeAt = (steps: number) => totp.generate({ timestamp: now + steps * 30_000 });

  test('is the code’s own step within one step either side of now', () => {
    expect(acceptedStep(secret, codeAt(0), now)).toBe(step);
    expect(acceptedStep(secret, codeAt(-1), now)).toBe(step - 1);
    expect(acceptedStep(secret, codeAt(1), now)).toBe(step + 1);
  });

  test('is none two steps away or for a wrong code', () => {
    const valid = new Set([codeAt(-1), codeAt(0), codeAt(1)]);
    for (const steps of [-2, 2])
      if (!valid.has(codeAt(steps))) expect(acceptedStep(secret, codeAt(steps), now)).toBeNull();
    const wrong = ['000000', '111111', '222222'].find((code) => !valid.has(code))!;
    expect(acceptedStep(secret, wrong, now)).toBeNull();
  });
});

describe('recovery codes', () => {
  test('are 10 characters of the alphabet in two groups, and are told apart from app codes', () => {
    const codes = Array.from({ length: 200 }, newRecoveryCode);
    for (const code of codes) {
      expect(code).toMatch(/^[0-9a-z]{5}-[0-9a-z]{5}$/);
      for (const char of code.replace('-', '')) expect(recoveryCodeAlphabet).toContain(char);
      expect(isRecoveryCode(code)).toBe(true);
      expect(secondFactorCodeSchema.safeParse(code).success).toBe(true);
    }
    expect(new Set(codes).size).toBe(200);
    expect(isRecoveryCode('123456')).toBe(false);
    expect(isRecoveryCode(' 123456 ')).toBe(false);
  });

  test('read as typed: case, hyphen, space and Crockford look-alikes do not matter', () => {
    expect(normalizeRecoveryCode(' AB3DE-FG0HJ ')).toBe('ab3defg0hj');
    expect(normalizeRecoveryCode('ab3de fgOhj')).toBe('ab3defg0hj');
    expect(normalizeRecoveryCode('1lI00-oOabc')).toBe('11100' + '00abc');
    const key = randomBytes(32);
    expect(hashRecoveryCode(key, 3, 'AB3DE FG0HJ')).toBe(hashRecoveryCode(key, 3, 'ab3de-fg0hj'));
    // Keyed and bound to the user: another user or key, another hash.
    expect(hashRecoveryCode(key, 4, 'ab3de-fg0hj')).not.toBe(hashRecoveryCode(key, 3, 'ab3de-fg0hj'));
    expect(hashRecoveryCode(randomBytes(32), 3, 'ab3de-fg0hj')).not.toBe(hashRecoveryCode(key, 3, 'ab3de-fg0hj'));
  });

  test('the form refuses what is neither kind of code', () => {
    for (const bad of ['12345', '1234567', 'abcd-efgh', 'abcde-fghij-k', '12 3456', ''])
      expect(secondFactorCodeSchema.safeParse(bad).success).toBe(false);
  });
});

describe('who must have a second factor', () => {
  test('an account holding any required role', () => {
    expect(requiresSecondFactor(['enterprise', 'partner'], ['operator', 'partner'])).toBe(true);
    expect(requiresSecondFactor(['enterprise'], ['operator', 'partner'])).toBe(false);
    expect(requiresSecondFactor(['operator'], [])).toBe(false);
  });
});

describe('in the browser', () => {
  const fetchMock = vi.fn<(input: RequestInfo | URL, init?: RequestInit) => Promise<Response>>();
  const envelope = (code: number, message: string, data: unknown = {}) =>
    new Response(JSON.stringify({ code, message, data }), { headers: { 'content-type': 'application/json' } });
  const notificationBox = () => document.querySelector<HTMLElement>('[data-hgd-toasts="notification"]');

  beforeEach(() => {
    fetchMock.mockReset();
    globalThis.fetch = fetchMock as unknown as typeof fetch;
    document.body.innerHTML = '';
    document.documentElement.lang = 'id-ID';
  });
  afterEach(() => vi.restoreAllMocks());

  test('a call refused for want of a second factor shows the message with a link to account settings, quiet or not', async () => {
    const refusal = 'Akun Anda memerlukan verifikasi dua langkah untuk ini.';
    fetchMock.mockImplementation(() => Promise.resolve(envelope(403, refusal, { secondFactorRequired: 'enrol' })));
    expect(await post('/api/ops/order/transition', { orderNo: 'x' })).toBeUndefined();
    const box = notificationBox()!;
    expect(box.querySelector('.font-semibold')?.textContent).toBe(refusal);
    const link = box.querySelector('a')!;
    expect(link.getAttribute('href')).toBe('/id-ID/person/account#second-factor');
    expect(link.textContent).toBe('Buka Pengaturan akun');
    expect(document.querySelector('[data-hgd-toasts="message"]')).toBeNull();

    document.body.innerHTML = '';
    expect(await get('/api/ops/order/getOrderDetail', undefined, { quiet: true })).toBeUndefined();
    expect(notificationBox()?.querySelector('a')).not.toBeNull();
  });

  test('another 403 is still the usual error toast', async () => {
    fetchMock.mockResolvedValue(envelope(403, 'Tidak ada izin', {}));
    expect(await post('/api/ops/order/transition', {})).toBeUndefined();
    expect(document.querySelector('[data-hgd-toasts="message"]')?.textContent).toContain('Tidak ada izin');
    expect(notificationBox()).toBeNull();
  });

  test('the demand is read from a refusal and from the current user', () => {
    expect(secondFactorDemandOf({ secondFactorRequired: 'verify' })).toBe('verify');
    expect(secondFactorDemandOf({ secondFactorRequired: 'other' })).toBeUndefined();
    expect(secondFactorDemandOf(null)).toBeUndefined();
    expect(mapCurrentUser({ orgId: '1', secondFactorRequired: 'enrol' }).secondFactorRequired).toBe('enrol');
    expect(mapCurrentUser({ orgId: '1' })).not.toHaveProperty('secondFactorRequired');
  });
});
