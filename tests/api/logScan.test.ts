/** The detector the run's log scan uses (logScan.ts): each kind it must catch, and clean lines it must pass. */
import { describe, expect, it } from 'vitest';
import { personalDataIn } from './logScan.ts';

describe('personalDataIn', () => {
  it.each([
    ['{"msg":"request","path":"/api/x","to":"13800138000"}', 'a mobile number'],
    ['{"detail":{"accountNo":"6222021001000000011"}}', 'an identity or account number'],
    ['{"id":"11010519491231002X"}', 'an identity or account number'],
    ['{"msg":"SMS outbox: 【惠广电】您的验证码是 123456，5 分钟内有效"}', 'an SMS text with its code'],
    ['{"msg":"login","body":"password=Operator2025"}', 'a demo password'],
    ['{"headers":"cookie: hgd_sid=abc"}', 'a session cookie'],
    ['{"13800138000":1}', 'a mobile number'],
    ['{"reqId":"84e686ab-0dd4-4a2c-9021-157640744258","to":"13800138000"}', 'a mobile number'],
  ])('finds %s', (line, name) => {
    expect(personalDataIn(line)).toContain(name);
  });

  it.each([
    '{"level":30,"time":1764758400000,"msg":"request","method":"GET","path":"/api/x","status":200,"ms":12}',
    '{"msg":"SMS outbox: stored","to":"138****8000","purpose":"login"}',
    '{"accountNoMasked":"6222 **** **** 0011","reqId":"84e686ab-0dd4-4a2c-9021-157640744258"}',
    '{"msg":"build","hash":"3f5a9c0e1b2d4f6a8c0e13800138000aa"}',
  ])('passes %s', (line) => {
    expect(personalDataIn(line)).toEqual([]);
  });
});
