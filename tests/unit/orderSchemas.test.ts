/** The shared order schemas and month arithmetic (src/lib/schemas/order.ts), as the form and the server use them. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  addMonths,
  cancelOrderQuery,
  chinaMonth,
  contractEndMonth,
  contractStartWindow,
  createOrderBody,
  orderNoSchema,
  orderTransitionBody,
} from '../../src/lib/schemas/order.ts';

describe('month arithmetic', () => {
  it('adds months across years, both ways', () => {
    expect(addMonths('2026-11', 1)).toBe('2026-12');
    expect(addMonths('2026-11', 2)).toBe('2027-01');
    expect(addMonths('2026-01', -1)).toBe('2025-12');
    expect(addMonths('2026-11', 12)).toBe('2027-11');
    expect(addMonths('2026-11', -13)).toBe('2025-10');
  });

  it('ends a contract in its last month', () => {
    expect(contractEndMonth('2027-01', 12)).toBe('2027-12');
    expect(contractEndMonth('2027-03', 1)).toBe('2027-03');
    expect(contractEndMonth('2026-12', 24)).toBe('2028-11');
  });

  it('reads the month in China time (UTC+8)', () => {
    // 2026-11-30 17:00 UTC is already 1 December in China.
    expect(chinaMonth(new Date('2026-11-30T17:00:00Z'))).toBe('2026-12');
    expect(chinaMonth(new Date('2026-11-30T15:59:59Z'))).toBe('2026-11');
    expect(contractStartWindow(new Date('2026-11-22T02:00:00Z'))).toEqual({ first: '2026-12', last: '2027-11' });
  });
});

describe('createOrderBody', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-22T02:00:00Z'));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const form = {
    sellingSetId: 'gd-fixed-2027-yuehui',
    schemeParamId: 'gd-fixed-2027-10kv',
    contractStart: '2027-01',
    contractMonths: '12',
    estimatedConsumption: '8600.5',
  };

  it('takes the form as strings and gives numbers', () => {
    expect(createOrderBody.parse(form)).toEqual({ ...form, contractMonths: 12, estimatedConsumption: 8600.5 });
  });

  it('takes the start months from next month to 12 months ahead only', () => {
    for (const ok of ['2026-12', '2027-06', '2027-11'])
      expect(createOrderBody.safeParse({ ...form, contractStart: ok }).success, ok).toBe(true);
    for (const bad of ['2026-11', '2027-12', '2026-10', '2027-1', '2027-00', '2027-13', '27-01', '2027-01-01']) {
      expect(createOrderBody.safeParse({ ...form, contractStart: bad }).success, bad).toBe(false);
    }
    const issue = createOrderBody.safeParse({ ...form, contractStart: '2027-12' }).error?.issues[0];
    expect(issue?.message).toBe('order.contractStartRange');
  });

  it('refuses months and consumption out of bounds', () => {
    for (const contractMonths of ['0', '121', '1.5', 'x', ''])
      expect(createOrderBody.safeParse({ ...form, contractMonths }).success, contractMonths).toBe(false);
    for (const estimatedConsumption of ['0', '-1', '100000001', '1.0001', 'NaN', 'Infinity', '']) {
      expect(createOrderBody.safeParse({ ...form, estimatedConsumption }).success, estimatedConsumption).toBe(false);
    }
    expect(createOrderBody.safeParse({ ...form, estimatedConsumption: '0.001' }).success).toBe(true);
    expect(createOrderBody.safeParse({ ...form, estimatedConsumption: '1234.567' }).success).toBe(true);
  });

  it('refuses ids that are not content slugs', () => {
    for (const sellingSetId of ['', 'A-B', "x' or 1=1", '../x', 'x'.repeat(65)]) {
      expect(createOrderBody.safeParse({ ...form, sellingSetId }).success, sellingSetId).toBe(false);
    }
  });
});

describe('order numbers, cancel and transition', () => {
  it('accepts HGD + 14 digits only', () => {
    expect(orderNoSchema.safeParse('HGD20261122000042').success).toBe(true);
    for (const bad of [
      'HGD2026112200004',
      'HGD202611220000421',
      'hgd20261122000042',
      'XYZ20261122000042',
      'HGD2026112200004٢',
    ]) {
      expect(orderNoSchema.safeParse(bad).success, bad).toBe(false);
    }
  });

  it('treats an empty cancel reason as none, and caps it at 500', () => {
    expect(cancelOrderQuery.parse({ orderNo: 'HGD20261122000042', reason: '' })).toEqual({
      orderNo: 'HGD20261122000042',
    });
    expect(cancelOrderQuery.safeParse({ orderNo: 'HGD20261122000042', reason: 'x'.repeat(501) }).success).toBe(false);
  });

  it('requires a reason for cancel and reject only', () => {
    const orderNo = 'HGD20261122000042';
    expect(orderTransitionBody.safeParse({ orderNo, action: 'accept' }).success).toBe(true);
    expect(orderTransitionBody.safeParse({ orderNo, action: 'confirm' }).success).toBe(true);
    expect(orderTransitionBody.safeParse({ orderNo, action: 'complete' }).success).toBe(true);
    for (const action of ['cancel', 'reject']) {
      expect(orderTransitionBody.safeParse({ orderNo, action }).error?.issues[0]?.path).toEqual(['reason']);
      expect(orderTransitionBody.safeParse({ orderNo, action, reason: '  ' }).success).toBe(false);
      expect(orderTransitionBody.safeParse({ orderNo, action, reason: '资料不全' }).success).toBe(true);
    }
    expect(orderTransitionBody.safeParse({ orderNo, action: 'approve' }).success).toBe(false);
  });
});
