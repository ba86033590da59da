/**
 * The banks the portal knows by code — a bank provider's `bank` (src/server/bank/provider.ts) and
 * the `bank` of an enterprise's USB-key binding. A page shows a bank by its name in the page's
 * locale (`certify.bank.<code>` in the certify messages), never by its code.
 */
export const bankCodes = ['icbc', 'ccb', 'abc', 'boc', 'bocom'] as const;
export type BankCode = (typeof bankCodes)[number];

export function isBankCode(code: string): code is BankCode {
  return (bankCodes as readonly string[]).includes(code);
}

/** The message key of a bank's name. */
export function bankNameKey(code: BankCode): `certify.bank.${BankCode}` {
  return `certify.bank.${code}`;
}

/** A bank's name from the page's messages; a code the portal does not know is shown as it is. */
export function bankName(
  code: string,
  messages: Readonly<Partial<Record<`certify.bank.${BankCode}`, string>>>,
): string {
  return (isBankCode(code) && messages[bankNameKey(code)]) || code;
}
