/**
 * Enterprise certification states (spec §4; DOMAIN.md, States). Pure and shared by the server and
 * the pages. 0 not certified, 1 under review, 2 certified, 3 returned; any other value shows "-".
 */
export const authStatuses = [0, 1, 2, 3] as const;
export type AuthStatus = (typeof authStatuses)[number];

export const AuthStatusCode = {
  NOT_CERTIFIED: 0,
  UNDER_REVIEW: 1,
  CERTIFIED: 2,
  RETURNED: 3,
} as const satisfies Record<string, AuthStatus>;

export function isAuthStatus(value: unknown): value is AuthStatus {
  return typeof value === 'number' && (authStatuses as readonly number[]).includes(value);
}

/** The dictionary key naming a status, or null for a value the spec says to show as "-". */
export function authStatusKey(value: unknown): `authStatus.${AuthStatus}` | null {
  return isAuthStatus(value) ? `authStatus.${value}` : null;
}

/** Whether the enterprise may (re)submit for certificate review: not certified or returned. */
export function canSubmitForReview(status: number): boolean {
  return status === AuthStatusCode.NOT_CERTIFIED || status === AuthStatusCode.RETURNED;
}
