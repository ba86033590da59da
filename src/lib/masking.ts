/**
 * How a number is shown to whoever does not need all of it (docs/privacy.md, "Masking"). One rule
 * per kind of number, used by the server's answers, exports, notices and log lines and by the
 * islands alike; a whole value reaches only its owner, or staff who ask for it by an audited call.
 */

/** 13800138000 → 138****8000: the network prefix and the last four, as 网上国网 shows them. */
export function maskMobile(mobile: string): string {
  return mobile.length === 11 ? `${mobile.slice(0, 3)}****${mobile.slice(7)}` : '***';
}

/** `6222 **** **** 0011`: enough to recognise one's account, not enough to use it. */
export function maskAccountNo(accountNo: string): string {
  if (accountNo.length <= 4) return '****';
  return accountNo.length <= 8
    ? `**** ${accountNo.slice(-4)}`
    : `${accountNo.slice(0, 4)} **** **** ${accountNo.slice(-4)}`;
}
