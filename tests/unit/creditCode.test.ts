/** GB 32100-2015 unified social credit codes (src/lib/creditCode.ts) with published real codes. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  creditCodeAlphabet,
  creditCodeCheckChar,
  isValidCreditCode,
  normalizeCreditCode,
} from '../../src/lib/creditCode.ts';

/** Codes printed on these companies' business licences and in the national enterprise credit register. */
const published = [
  ['91350100M000100Y43', 'the example of GB 32100-2015 itself'],
  ['914403001922038216', '华为技术有限公司'],
  ['9144030071526726XG', '深圳市腾讯计算机系统有限公司'],
  ['91110108551385082Q', '小米科技有限责任公司'],
  ['91330100716105852F', '阿里巴巴（中国）有限公司'],
] as const;

describe('isValidCreditCode', () => {
  it.each(published)('accepts %s (%s)', (code) => {
    expect(isValidCreditCode(code)).toBe(true);
    expect(creditCodeCheckChar(code.slice(0, 17))).toBe(code.charAt(17));
  });

  it('refuses any single changed character of a valid code', () => {
    for (const [code] of published) {
      for (let i = 0; i < 18; i += 1) {
        for (const replacement of creditCodeAlphabet) {
          if (replacement === code.charAt(i)) continue;
          const changed = code.slice(0, i) + replacement + code.slice(i + 1);
          // Positions 3–8 must be digits; everything else must fail on the check character.
          expect(isValidCreditCode(changed), changed).toBe(false);
        }
      }
    }
  });

  it('refuses two neighbouring characters swapped', () => {
    const code = '91350100M000100Y43';
    const swapped = code.slice(0, 8) + code.charAt(9) + code.charAt(8) + code.slice(10);
    expect(isValidCreditCode(swapped)).toBe(false);
  });

  it('refuses the wrong length, letters outside the alphabet and letters in the division code', () => {
    expect(isValidCreditCode('')).toBe(false);
    expect(isValidCreditCode('91350100M000100Y4')).toBe(false);
    expect(isValidCreditCode('91350100M000100Y433')).toBe(false);
    // I, O, S, V and Z are not in the alphabet (they look like 1, 0, 5, U and 2).
    for (const letter of 'IOSVZ') expect(isValidCreditCode(`91350100M000100${letter}43`)).toBe(false);
    expect(isValidCreditCode('9135A100M000100Y43')).toBe(false);
    // Lower case is not a code until normalized.
    expect(isValidCreditCode('91350100m000100y43')).toBe(false);
    expect(isValidCreditCode(normalizeCreditCode(' 9135 0100m000100y43 '))).toBe(true);
  });

  it('gives every well-formed 17-character body exactly one check character', () => {
    const char = fc.constantFrom(...creditCodeAlphabet);
    const digit = fc.constantFrom(...'0123456789');
    const body = fc
      .tuple(
        fc.array(char, { minLength: 2, maxLength: 2 }),
        fc.array(digit, { minLength: 6, maxLength: 6 }),
        fc.array(char, { minLength: 9, maxLength: 9 }),
      )
      .map(([a, b, c]) => [...a, ...b, ...c].join(''));
    fc.assert(
      fc.property(body, (first17) => {
        const check = creditCodeCheckChar(first17);
        expect(check).not.toBeNull();
        const valid = [...creditCodeAlphabet].filter((candidate) => isValidCreditCode(first17 + candidate));
        expect(valid).toEqual([check]);
      }),
    );
  });

  it('answers null for a body outside the alphabet', () => {
    expect(creditCodeCheckChar('91350100M000100YI')).toBeNull();
    expect(creditCodeCheckChar('short')).toBeNull();
  });
});
