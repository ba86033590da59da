/** The enterprise schemas the certification forms and the server share (src/lib/schemas/enterprise.ts). */
import { describe, expect, it } from 'vitest';
import {
  authFileUploadBody,
  certificationReturnBody,
  enterpriseAddBody,
  enterpriseDraftBody,
  enterpriseEditBody,
  enterpriseEditFieldBody,
  enterpriseFieldValue,
  icbcAccountInfoQuery,
  maxAuthFileBytes,
  saveEmpBody,
} from '../../src/lib/schemas/enterprise.ts';

const issues = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  result.error?.issues.map((issue) => [issue.path.join('.'), issue.message]) ?? [];

const record = {
  enterpriseName: '广州示例制造有限公司',
  creditCode: '91350100M000100Y43',
  legalPerson: '王五',
  contactName: '李四',
  contactPhone: '13800138000',
  address: '广州市天河区示例路 1 号',
  industry: 'C',
  areaCode: '440000',
  clearanceAccount: 'GD0012345678',
  electricityAccounts: '0301234567, 0301234568',
  voltageLevel: 'kv10',
  annualConsumption: '1200.5',
};

describe('the enterprise record', () => {
  it('takes form strings: comma-separated accounts, a number as text, a code with spaces in lower case', () => {
    expect(enterpriseAddBody.parse({ ...record, creditCode: ' 91350100m000100y43 ' })).toMatchObject({
      creditCode: '91350100M000100Y43',
      electricityAccounts: ['0301234567', '0301234568'],
      annualConsumption: 1200.5,
    });
    expect(
      enterpriseAddBody.parse({ ...record, electricityAccounts: ['0301234567'], annualConsumption: '' }),
    ).toMatchObject({
      electricityAccounts: ['0301234567'],
      annualConsumption: null,
    });
  });

  it('names the broken check character, repeated accounts and unknown keys', () => {
    expect(issues(enterpriseAddBody.safeParse({ ...record, creditCode: '91350100M000100Y44' }))).toEqual([
      ['creditCode', 'enterprise.validation.creditCode'],
    ]);
    expect(issues(enterpriseAddBody.safeParse({ ...record, electricityAccounts: '0301234567,0301234567' }))).toEqual([
      ['electricityAccounts', 'enterprise.validation.duplicateAccount'],
    ]);
    expect(enterpriseAddBody.safeParse({ ...record, authStatus: 2 }).success).toBe(false);
    expect(enterpriseEditBody.safeParse({ ...record, id: '7' }).success).toBe(true);
    expect(enterpriseEditBody.safeParse({ ...record, id: '0' }).success).toBe(false);
  });

  it('requires every field of a full save but the annual consumption', () => {
    for (const field of Object.keys(record).filter((name) => name !== 'annualConsumption')) {
      const rest: Record<string, unknown> = { ...record };
      delete rest[field];
      expect(enterpriseAddBody.safeParse(rest).success, field).toBe(false);
    }
    expect(enterpriseAddBody.safeParse({ ...record, industry: 'Z', voltageLevel: "kv10'; drop" }).success).toBe(false);
    expect(enterpriseAddBody.safeParse({ ...record, annualConsumption: '-1' }).success).toBe(false);
  });
});

describe('drafts and single fields', () => {
  it('a draft checks only what is there; creating one needs a name and a clearance account', () => {
    expect(enterpriseDraftBody.parse({ id: '3', legalPerson: '王五', address: '' })).toEqual({
      id: 3,
      legalPerson: '王五',
    });
    expect(issues(enterpriseDraftBody.safeParse({ legalPerson: '王五' })).map(([field]) => field)).toEqual([
      'enterpriseName',
      'clearanceAccount',
    ]);
    expect(enterpriseDraftBody.safeParse({ id: '3', creditCode: '123' }).success).toBe(false);
  });

  it("editfield knows the record's fields only, and each value meets its own rule", () => {
    expect(enterpriseEditFieldBody.safeParse({ id: 1, field: 'authStatus', value: '2' }).success).toBe(false);
    expect(enterpriseEditFieldBody.parse({ id: '1', field: 'contactPhone', value: '13800138000' })).toEqual({
      id: 1,
      field: 'contactPhone',
      value: '13800138000',
    });
    expect(enterpriseFieldValue('contactPhone').safeParse({ contactPhone: '12345' }).success).toBe(false);
    expect(enterpriseFieldValue('electricityAccounts').parse({ electricityAccounts: 'A123456;B123456' })).toEqual({
      electricityAccounts: ['A123456', 'B123456'],
    });
  });
});

describe('files, bank and review', () => {
  it('an upload is a non-empty file of at most 10 MB of one of the two kinds', () => {
    const file = new File([new Uint8Array([0x25, 0x50, 0x44, 0x46])], 'a.pdf');
    expect(authFileUploadBody.safeParse({ kind: 'businessLicence', file }).success).toBe(true);
    expect(authFileUploadBody.safeParse({ kind: 'idCard', file }).success).toBe(false);
    expect(authFileUploadBody.safeParse({ kind: 'authLetter', file: 'a.pdf' }).success).toBe(false);
    expect(issues(authFileUploadBody.safeParse({ kind: 'authLetter', file: new File([], 'a.pdf') }))).toEqual([
      ['file', 'enterprise.validation.fileEmpty'],
    ]);
    const big = new File([new Uint8Array(maxAuthFileBytes + 1)], 'big.pdf');
    expect(issues(authFileUploadBody.safeParse({ kind: 'authLetter', file: big }))).toEqual([
      ['file', 'enterprise.validation.fileTooLarge'],
    ]);
  });

  it('bank calls take digits for the account (grouping blanks dropped) and a hex challenge', () => {
    expect(icbcAccountInfoQuery.parse({ accountNo: '6222 0200 0000 0001' })).toEqual({ accountNo: '6222020000000001' });
    expect(icbcAccountInfoQuery.safeParse({ accountNo: '6222abc' }).success).toBe(false);
    const good = {
      accountNo: '6222020000000001',
      empName: '王五',
      empNo: 'E001',
      challenge: 'a'.repeat(64),
      signature: 'A'.repeat(86),
      certSerial: 'SBX-0001',
    };
    expect(saveEmpBody.safeParse(good).success).toBe(true);
    expect(saveEmpBody.safeParse({ ...good, challenge: 'Z'.repeat(64) }).success).toBe(false);
    expect(saveEmpBody.safeParse({ ...good, signature: '<script>' }).success).toBe(false);
  });

  it('a return needs a comment of 1 to 500 characters', () => {
    expect(certificationReturnBody.safeParse({ id: 1, comment: '  ' }).success).toBe(false);
    expect(certificationReturnBody.safeParse({ id: 1, comment: 'x'.repeat(501) }).success).toBe(false);
    expect(certificationReturnBody.parse({ id: '1', comment: ' 营业执照不清晰 ' })).toEqual({
      id: 1,
      comment: '营业执照不清晰',
    });
  });
});
