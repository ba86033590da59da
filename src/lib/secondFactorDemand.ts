/**
 * A session owing a second factor, as the browser meets it: a role-guarded call refused with code
 * 403 and `data.secondFactorRequired` (docs/accounts.md). No zod here: the request client, on
 * every page, reads it.
 */
import type { SecondFactorDemand } from './schemas/secondFactor.ts';

/** Account settings, at the two-step verification card (its element id). */
export const secondFactorSettingsPath = '/person/account#second-factor';

/** What a refusal's `data` says the session owes, if anything. */
export function secondFactorDemandOf(data: unknown): SecondFactorDemand | undefined {
  if (data === null || typeof data !== 'object') return undefined;
  const demand = (data as { secondFactorRequired?: unknown }).secondFactorRequired;
  return demand === 'enrol' || demand === 'verify' ? demand : undefined;
}
