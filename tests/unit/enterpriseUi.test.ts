import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, test } from 'vitest';
import { bankCodes, bankName } from '../../src/lib/banks.ts';
import { BankBindingDetails } from '../../src/islands/enterprise/EnterpriseDetails.tsx';
import { checkAuthFile, hasAllowedSignature } from '../../src/islands/enterprise/authFileUpload.ts';
import { certifyMessages, certifyValidation } from '../../src/islands/enterprise/certifyPageMessages.ts';
import { authStatusWord, certificateOpen, fileSize, shown } from '../../src/islands/enterprise/enterpriseCalls.ts';
import { validateForm } from '../../src/islands/auth/formValidation.ts';
import {
  queueBuild,
  queueQuery,
  readReviewedId,
  underReview,
  writeReviewedId,
} from '../../src/islands/ops/certificationQueue.ts';
import { locales } from '../../src/lib/i18n/locales.ts';
import { certificationReturnBody, enterpriseAddBody, maxAuthFileBytes } from '../../src/lib/schemas/enterprise.ts';
import { tableRequestSchema } from '../../src/lib/schemas/table.ts';
import { buildAntTable, readTableQuery } from '../../src/lib/tableRequest.ts';

const pdf = new TextEncoder().encode('%PDF-1.7\n%%EOF\n');
const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16]);

describe('certification files are checked before they are sent', () => {
  test('PDF, JPEG and PNG are recognised by their first bytes, whatever the name says', () => {
    expect(hasAllowedSignature(pdf)).toBe(true);
    expect(hasAllowedSignature(png)).toBe(true);
    expect(hasAllowedSignature(jpeg)).toBe(true);
    expect(hasAllowedSignature(new TextEncoder().encode('GIF89a'))).toBe(false);
    expect(hasAllowedSignature(new TextEncoder().encode('%PD'))).toBe(false);
    expect(hasAllowedSignature(new Uint8Array())).toBe(false);
  });

  test('empty, too large and wrong content are refused; the limit itself is allowed', async () => {
    expect(await checkAuthFile(new Blob([]))).toBe('empty');
    expect(
      await checkAuthFile(new Blob([new TextEncoder().encode('hello, not a pdf')], { type: 'application/pdf' })),
    ).toBe('badType');
    expect(await checkAuthFile(new Blob([png]))).toBeNull();
    const atLimit = new Uint8Array(maxAuthFileBytes);
    atLimit.set(pdf);
    expect(await checkAuthFile(new Blob([atLimit]))).toBeNull();
    expect(await checkAuthFile(new Blob([atLimit, new Uint8Array(1)]))).toBe('tooLarge');
  });
});

describe('values as the enterprise pages show them', () => {
  const m = certifyMessages('zh-CN');

  test('status 0–3 in words, anything else a dash', () => {
    expect([0, 1, 2, 3].map((status) => authStatusWord(status, m))).toEqual(['未认证', '审核中', '已认证', '已退回']);
    for (const other of [4, -1, null, undefined, '2', 1.5]) expect(authStatusWord(other, m)).toBe('-');
  });

  test('certificate upload and submission are open while not certified or returned', () => {
    expect([0, 1, 2, 3].map(certificateOpen)).toEqual([true, false, false, true]);
  });

  test('unknown values show the dash; sizes in the page language', () => {
    expect(shown('', m)).toBe('-');
    expect(shown(null, m)).toBe('-');
    expect(shown(0, m)).toBe('0');
    expect(fileSize(1536, 'en-US')).toBe('1.5 kB');
    expect(fileSize(3 * 1024 * 1024, 'en-US')).toBe('3 MB');
  });

  test('every locale has every message the islands get', () => {
    for (const locale of locales) {
      for (const [key, text] of Object.entries(certifyMessages(locale))) expect(text, `${locale} ${key}`).toBeTruthy();
    }
  });
});

describe('the forms use the shared schemas with labelled messages', () => {
  test('a missing or wrong field is named in the message', () => {
    const validation = certifyValidation('zh-CN');
    const result = validateForm(
      enterpriseAddBody,
      { enterpriseName: '', creditCode: '91350100M000100Y44' },
      validation,
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors['enterpriseName']).toContain('企业名称');
    expect(result.errors['creditCode']).toContain('统一社会信用代码');
    expect(result.errors['electricityAccounts']).toContain('用电户号');
  });

  test('returning a certification needs a comment', () => {
    const result = validateForm(certificationReturnBody, { id: '7', comment: '  ' }, certifyValidation('en-US'));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(Object.keys(result.errors)).toEqual(['comment']);
  });
});

describe("the operator's queue in the address", () => {
  test('page, keyword and the enterprise under review survive a round trip', () => {
    const search = '?page=3&q=%E5%B9%BF%E5%B7%9E&id=42';
    const table = readTableQuery(new URLSearchParams(search), queueQuery);
    expect(readReviewedId(search)).toBe(42);
    expect(table.page).toBe(3);
    expect(table.keyword).toBe('广州');
    // Opening or leaving a review keeps the table's keys.
    const closed = writeReviewedId(search, undefined);
    expect(readReviewedId(closed)).toBeUndefined();
    expect(readTableQuery(new URLSearchParams(closed), queueQuery)).toEqual(table);
    expect(readReviewedId(writeReviewedId(closed, 42))).toBe(42);
    expect(writeReviewedId('?id=7', undefined)).toBe('');
  });

  test('nonsense in the address falls back to no review and the first page', () => {
    for (const search of ['?id=abc', '?id=-1', '?id=1.5', '?id=']) expect(readReviewedId(search)).toBeUndefined();
    expect(readTableQuery(new URLSearchParams('?page=0'), queueQuery).page).toBe(1);
  });

  test('the request lists only enterprises under review, oldest submission first, and is a valid table request', () => {
    const state = readTableQuery(new URLSearchParams('?q=abc&page=2&filter.authStatus=2'), queueQuery);
    const request = JSON.parse(buildAntTable(underReview(state), queueBuild)) as Record<string, unknown>;
    expect(request['filter']).toEqual({ authStatus: ['1'] });
    expect(request['sorter']).toEqual([{ key: 'submittedAt', sort: 'ascend' }]);
    expect(request['pager']).toEqual({ current: 2, pageSize: 10 });
    expect(tableRequestSchema.safeParse(request).success).toBe(true);
  });
});

describe('a bank is shown by its name in the page locale, never by its code', () => {
  const binding = {
    bank: 'icbc',
    accountNoMasked: '6222****0011',
    accountName: '广州明珠精密制造有限公司',
    empName: '张三',
    boundAt: '2026-03-01T02:00:00.000Z',
  };

  test('the USB-key binding names 开户银行 as 中国工商银行 (and in every locale by name)', () => {
    const zh = renderToStaticMarkup(
      createElement(BankBindingDetails, { binding, locale: 'zh-CN', messages: certifyMessages('zh-CN') }),
    );
    expect(zh).toContain('中国工商银行');
    expect(zh).not.toMatch(/>icbc</);
    const en = renderToStaticMarkup(
      createElement(BankBindingDetails, { binding, locale: 'en-US', messages: certifyMessages('en-US') }),
    );
    expect(en).toContain('Industrial and Commercial Bank of China');
  });

  test('every known bank has a name in every locale; an unknown code is shown as it is', () => {
    for (const locale of locales) {
      const m = certifyMessages(locale);
      for (const code of bankCodes) {
        expect(bankName(code, m)).not.toBe(code);
        expect(bankName(code, m).length).toBeGreaterThan(1);
      }
      expect(bankName('xyzbank', m)).toBe('xyzbank');
    }
  });
});
