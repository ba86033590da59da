/**
 * Debian packages the tests need (Chromium, PostgreSQL, promtool), installed with apt-get where
 * they are missing and we run as root: a fresh CI machine. One apt-get at a time (dpkg holds a
 * lock), so `npm test` installs them all before its lanes start (scripts/test.ts).
 */
import { run } from './run.ts';

export const isRoot = (): boolean => process.getuid?.() === 0;

/** `apt-get update`, then `apt-get install` of `packages`; throws when either fails. */
export async function aptInstall(packages: readonly string[], options: { recommends?: boolean } = {}): Promise<void> {
  const env = { DEBIAN_FRONTEND: 'noninteractive' };
  const recommends = options.recommends === false ? ['--no-install-recommends'] : [];
  if (
    (await run('apt-get', ['update', '-qq'], env)) !== 0 ||
    (await run('apt-get', ['install', '-y', '-qq', ...recommends, ...packages], env)) !== 0
  ) {
    throw new Error(`apt-get could not install ${packages.join(', ')}`);
  }
}
