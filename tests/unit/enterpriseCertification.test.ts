/** The complete record both ways of certifying need (src/lib/enterpriseCertification.ts). */
import { describe, expect, it } from 'vitest';
import {
  certificationRequiredFields,
  missingForCertification,
  type CertificationRecord,
} from '../../src/lib/enterpriseCertification.ts';

const complete: CertificationRecord = {
  creditCode: '91440101MA59A1B2C3',
  legalPerson: '王五',
  contactName: '李四',
  contactPhone: '13800138000',
  address: '广州市天河区测试路 1 号',
  industry: 'C',
  areaCode: '440000',
  clearanceAccount: '0300012345678',
  voltageLevel: 'kv10',
  electricityAccounts: ['0300123456'],
};

describe('missingForCertification', () => {
  it('is empty for a complete record', () => {
    expect(missingForCertification(complete)).toEqual([]);
  });

  it('names every empty field in the fixed order (null, blank, no electricity account)', () => {
    const bare: CertificationRecord = {
      creditCode: null,
      legalPerson: '',
      contactName: '',
      contactPhone: '',
      address: '',
      industry: '',
      areaCode: null,
      clearanceAccount: '',
      voltageLevel: '',
      electricityAccounts: [],
    };
    expect(missingForCertification(bare)).toEqual([...certificationRequiredFields]);
    expect(missingForCertification({ ...complete, address: '   ', electricityAccounts: [] })).toEqual([
      'address',
      'electricityAccounts',
    ]);
  });
});
