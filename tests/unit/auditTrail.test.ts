/**
 * The audit trail in words (src/lib/auditTrail.ts): every action, kind of target and detail field
 * is named in every locale; coded values (roles, order and certification states) read as words;
 * entries of an older release, with an action or field not in the lists, keep what they wrote.
 */
import { describe, expect, it } from 'vitest';
import {
  auditActionKey,
  auditActionText,
  auditActions,
  auditDetailText,
  auditMessageKeys,
  auditTargetText,
  type AuditWords,
} from '../../src/lib/auditTrail.ts';
import { dictionaries, locales, t, type Locale } from '../../src/lib/i18n/index.ts';

const wordsOf =
  (locale: Locale): AuditWords =>
  (key, params) =>
    t(locale, key, params);
const zh = wordsOf('zh-CN');
const en = wordsOf('en-US');

describe('the audit trail in words', () => {
  it('names every action, target kind and detail field in every locale, no two actions alike', () => {
    for (const locale of locales) {
      for (const key of auditMessageKeys) expect(dictionaries[locale][key], `${locale} ${key}`).toBeTruthy();
      const names = auditActions.map((action) => dictionaries[locale][auditActionKey(action)]);
      expect(new Set(names).size, locale).toBe(auditActions.length);
    }
  });

  it('shows an action, its target and its detail as a reader would say them', () => {
    expect(auditActionText('session.login', zh)).toBe('登录');
    expect(auditActionText('order.accept', en)).toBe('Accepted an order');
    expect(auditTargetText('order:HGD20261122000001', zh)).toBe('订单 HGD20261122000001');
    expect(auditTargetText('user:5', en)).toBe('Account #5');
    expect(auditTargetText('audit', zh)).toBe('操作记录');
    expect(auditTargetText(null, zh)).toBe('-');
    expect(auditDetailText('session.login', { method: 'account', deviceId: 'hgdweb', secondFactor: false }, zh)).toBe(
      '方式：账号密码；设备：hgdweb；两步验证：否',
    );
    // In the fields' own order, whatever order the database gave the keys in.
    expect(auditDetailText('order.reject', { by: 'operator', to: 91, from: 10, reason: '资料不全' }, en)).toBe(
      'by: Operator; from: Submitted; to: Rejected; reason: 资料不全',
    );
    expect(auditDetailText('certification.submit', { from: 3 }, zh)).toBe('原状态：已退回');
    expect(auditDetailText('staff.grant', { role: 'auditor', via: 'ops' }, zh)).toBe(
      '角色：审计管理员；途径：运营后台',
    );
    expect(auditDetailText('user.changeInfo', { fields: ['email', 'name'] }, zh)).toBe('字段：email, name');
  });

  it('keeps what an entry of an older release wrote when its action or field is not in the lists', () => {
    expect(auditActionText('session.retired', zh)).toBe('session.retired');
    expect(auditTargetText('news/2026-01.md', zh)).toBe('news/2026-01.md');
    expect(auditTargetText('ticket:7', zh)).toBe('ticket:7');
    expect(auditDetailText('session.login', { legacy: { a: 1 } }, zh)).toBe('legacy：{"a":1}');
  });
});
