/**
 * Password hashing: argon2id with OWASP's minimum parameters (19 MiB, 2 passes, 1 lane); what a
 * hash and a verification cost is measured in docs/performance.md.
 */
import { hash, verify } from '@node-rs/argon2';

// @node-rs/argon2's default algorithm is argon2id; its `Algorithm` is an ambient const enum that
// cannot be imported under isolated modules, so the default is relied on (and tested).
const options = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, options);
}

/** False for a wrong password and for a malformed stored hash; never throws on bad input. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}
