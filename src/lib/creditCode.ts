/**
 * The unified social credit code (统一社会信用代码, GB 32100-2015): 18 characters from a
 * 31-character alphabet (digits and capital letters without I, O, S, V, Z).
 *
 *   1     registration authority (9 = market regulation, 5 = civil affairs, 1 = institutions, …)
 *   2     kind of entity within that authority
 *   3–8   administrative division code (GB/T 2260), digits
 *   9–17  organisation code (GB 11714)
 *   18    check character over the first 17 (weights 3^i mod 31)
 *
 * Only the structure and the check character are verified: a registry lookup is the bank's or the
 * operator's job, and the set of authority codes has grown over the years, so a valid code is not
 * refused for a first character this module has never heard of. Pure, shared by forms and server.
 * @example isValidCreditCode('91350100M000100Y43') // true (the standard's own example)
 */

/** The code's alphabet in value order: a character's value is its index. */
export const creditCodeAlphabet = '0123456789ABCDEFGHJKLMNPQRTUWXY';

/** Weight of position i (0-based) of the first 17 characters: 3^i mod 31 (GB 32100-2015, 5.2). */
export const creditCodeWeights = [1, 3, 9, 27, 19, 26, 16, 17, 20, 29, 25, 13, 8, 24, 10, 30, 28] as const;

const shape = /^[0-9A-HJ-NP-RTUW-Y]{2}\d{6}[0-9A-HJ-NP-RTUW-Y]{10}$/;

/** Upper-cases and drops surrounding and inner blanks, as people copy codes with spaces. */
export function normalizeCreditCode(value: string): string {
  return value.replace(/\s+/g, '').toUpperCase();
}

/**
 * The check character for the first 17 characters, or null when they are not 17 characters of the
 * code's alphabet.
 */
export function creditCodeCheckChar(first17: string): string | null {
  if (first17.length !== 17) return null;
  let sum = 0;
  for (let i = 0; i < 17; i += 1) {
    const value = creditCodeAlphabet.indexOf(first17.charAt(i));
    if (value < 0) return null;
    sum += value * creditCodeWeights[i]!;
  }
  const check = (31 - (sum % 31)) % 31;
  return creditCodeAlphabet.charAt(check);
}

/** Whether `code` (already normalized) is a well-formed code whose check character matches. */
export function isValidCreditCode(code: string): boolean {
  if (!shape.test(code)) return false;
  return creditCodeCheckChar(code.slice(0, 17)) === code.charAt(17);
}
