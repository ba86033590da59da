/**
 * `npm run check:advisories` (part of `npm run check`): matches the known advisories of
 * security/advisories.json against every package in package-lock.json, dev ones included, and
 * fails on a match that is not an accepted risk, or whose acceptance has expired (the matching and
 * its rules: scripts/advisories.ts; docs/api-plumbing.md, "Known vulnerabilities"). One line per
 * match. Arguments: another lockfile and advisory file (the tests use them).
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import {
  advisoryFileSchema,
  failed,
  findAdvisories,
  findingLine,
  lockedPackages,
  unusedAcceptances,
  type LockEntry,
} from './advisories.ts';

const root = join(import.meta.dirname, '..');
const lockFile = resolve(process.argv[2] ?? join(root, 'package-lock.json'));
const advisoryFile = resolve(process.argv[3] ?? join(root, 'security', 'advisories.json'));

const lock = JSON.parse(readFileSync(lockFile, 'utf8')) as { packages?: Record<string, LockEntry> };
if (!lock.packages) {
  console.error('check-advisories: package-lock.json has no "packages" map (lockfileVersion ≥ 2 needed)');
  process.exit(1);
}
const parsed = advisoryFileSchema.safeParse(JSON.parse(readFileSync(advisoryFile, 'utf8')));
if (!parsed.success) {
  console.error(`check-advisories: ${advisoryFile} is not valid:\n${z.prettifyError(parsed.error)}`);
  process.exit(1);
}
const file = parsed.data;
const packages = lockedPackages(lock.packages);
const findings = findAdvisories(packages, file, new Date());

console.log(
  `Advisories: ${file.advisories.length} known, matched against ${packages.length} locked packages: ${findings.length} ${findings.length === 1 ? 'match' : 'matches'}`,
);
for (const finding of findings) console.log(`  ${findingLine(finding)}`);
for (const entry of unusedAcceptances(file, findings)) {
  console.log(
    `  unused    acceptance of ${entry.advisory} for ${entry.package}@${entry.versions}: no locked copy matches (remove it)`,
  );
}
if (failed(findings)) {
  console.error(
    '\nUpdate the package out of the range (or its parent, or an "overrides" entry), or — when the flaw cannot reach us — add an acceptance with its reason and an expiry to security/advisories.json.',
  );
  process.exit(1);
}
console.log('No known advisory matches a locked package beyond the accepted risks.');
