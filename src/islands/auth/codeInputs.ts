/** How the second-factor code fields are typed, for the login step and account settings alike. */

/** An authenticator app's 6 digits: the numeric keypad, and the phone's one-time-code autofill. */
export const totpCodeInput = {
  autoComplete: 'one-time-code',
  inputMode: 'numeric',
  pattern: '[0-9]*',
  maxLength: 6,
  spellCheck: false,
} as const;

/** An authenticator code or a recovery code (`xxxxx-xxxxx`), so letters are allowed. */
export const secondFactorCodeInput = {
  autoComplete: 'one-time-code',
  spellCheck: false,
  maxLength: 11,
} as const;
