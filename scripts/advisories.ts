/**
 * The vulnerability check of the locked packages (docs/api-plumbing.md, "Known vulnerabilities"),
 * as pure functions so it can be unit-tested (tests/unit/advisories.test.ts);
 * scripts/check-advisories.ts applies it to package-lock.json. `npm audit` cannot: the registry
 * here answers its requests with 405.
 *
 * security/advisories.json lists known advisories (package, affected semver range, id, severity,
 * summary) and the accepted risks. Every locked package whose version is in an advisory's range
 * is a finding; it passes only while an acceptance names that advisory, the package and its
 * version, has not expired (`expires` is the last day it holds, UTC) and — when it says
 * `devOnly` — the package is still a dev-only one.
 */
import semver from 'semver';
import { z } from 'zod';

const semverRange = z.string().refine((range) => semver.validRange(range) !== null, 'not a semver range');

const advisorySchema = z.object({
  /** GHSA id (or CVE id where there is no GHSA). */
  id: z.string().regex(/^(GHSA(-[23456789cfghjmpqrvwx]{4}){3}|CVE-\d{4}-\d{4,})$/),
  aliases: z.array(z.string()).default([]),
  package: z.string().min(1),
  range: semverRange,
  severity: z.enum(['low', 'moderate', 'high', 'critical']),
  summary: z.string().min(1),
  url: z.url().optional(),
});

const acceptanceSchema = z.object({
  advisory: z.string(),
  package: z.string().min(1),
  /** The versions accepted (a semver range): a new version in the advisory's range is a new decision. */
  versions: semverRange,
  /** Holds only while every accepted copy is a dev dependency (never installed in production). */
  devOnly: z.boolean().default(false),
  reason: z.string().min(20),
  expires: z.iso.date(),
});

export const advisoryFileSchema = z
  .object({ advisories: z.array(advisorySchema), accepted: z.array(acceptanceSchema) })
  .superRefine((file, context) => {
    const ids = new Set<string>();
    for (const advisory of file.advisories) {
      if (ids.has(advisory.id)) context.addIssue({ code: 'custom', message: `${advisory.id} is listed twice` });
      ids.add(advisory.id);
    }
    for (const acceptance of file.accepted) {
      const advisory = file.advisories.find((entry) => entry.id === acceptance.advisory);
      if (!advisory || advisory.package !== acceptance.package)
        context.addIssue({
          code: 'custom',
          message: `the acceptance of ${acceptance.advisory} for ${acceptance.package} names no listed advisory of that package`,
        });
    }
  });

export type AdvisoryFile = z.output<typeof advisoryFileSchema>;
export type Advisory = AdvisoryFile['advisories'][number];
export type Acceptance = AdvisoryFile['accepted'][number];

/** A package-lock.json entry, as far as the check reads it. */
export interface LockEntry {
  name?: string;
  version?: string;
  dev?: boolean;
  link?: boolean;
}

export interface LockedPackage {
  name: string;
  version: string;
  dev: boolean;
  /** Where it is in node_modules (the lockfile's key). */
  path: string;
}

/** The installed packages of a lockfile (v2/v3 `packages`): the project itself and links left out. */
export function lockedPackages(packages: Record<string, LockEntry>): LockedPackage[] {
  const found: LockedPackage[] = [];
  for (const [path, entry] of Object.entries(packages)) {
    if (path === '' || entry.link === true || !entry.version) continue;
    const name = entry.name ?? path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
    found.push({ name, version: entry.version, dev: entry.dev === true, path });
  }
  return found;
}

export type Finding = {
  advisory: Advisory;
  name: string;
  version: string;
  /** Every copy of this name@version in the tree. */
  paths: string[];
  /** Whether every copy is a dev dependency. */
  dev: boolean;
} & (
  | { verdict: 'accepted'; acceptance: Acceptance }
  | { verdict: 'expired'; acceptance: Acceptance }
  | { verdict: 'notDevOnly'; acceptance: Acceptance }
  | { verdict: 'unaccepted' }
);

/** `today` as YYYY-MM-DD in UTC (the form of `expires`). */
export function utcDate(today: Date): string {
  return today.toISOString().slice(0, 10);
}

/**
 * Every advisory that matches a locked package, with its verdict; sorted by package, version and
 * advisory id so the output is the same on every run.
 */
export function findAdvisories(packages: readonly LockedPackage[], file: AdvisoryFile, today: Date): Finding[] {
  const day = utcDate(today);
  const copies = new Map<string, LockedPackage[]>();
  for (const locked of packages) {
    const key = `${locked.name}@${locked.version}`;
    copies.set(key, [...(copies.get(key) ?? []), locked]);
  }
  const findings: Finding[] = [];
  for (const advisory of file.advisories) {
    for (const same of copies.values()) {
      const [{ name, version }] = same as [LockedPackage];
      if (name !== advisory.package || !semver.satisfies(version, advisory.range, { includePrerelease: true }))
        continue;
      const base = {
        advisory,
        name,
        version,
        paths: same.map((copy) => copy.path),
        dev: same.every((copy) => copy.dev),
      };
      const acceptance = file.accepted.find(
        (entry) =>
          entry.advisory === advisory.id &&
          entry.package === name &&
          semver.satisfies(version, entry.versions, { includePrerelease: true }),
      );
      if (!acceptance) findings.push({ ...base, verdict: 'unaccepted' });
      else if (acceptance.expires < day) findings.push({ ...base, verdict: 'expired', acceptance });
      else if (acceptance.devOnly && !base.dev) findings.push({ ...base, verdict: 'notDevOnly', acceptance });
      else findings.push({ ...base, verdict: 'accepted', acceptance });
    }
  }
  return findings.sort(
    (a, b) =>
      a.name.localeCompare(b.name) ||
      semver.compare(a.version, b.version) ||
      a.advisory.id.localeCompare(b.advisory.id),
  );
}

/** Acceptances that no finding used: the package moved out of the range, so the entry can go. */
export function unusedAcceptances(file: AdvisoryFile, findings: readonly Finding[]): Acceptance[] {
  const used = new Set(findings.flatMap((finding) => ('acceptance' in finding ? [finding.acceptance] : [])));
  return file.accepted.filter((entry) => !used.has(entry));
}

/** One line for a finding: `accepted` with its reason and expiry, or `FAIL` with why. */
export function findingLine(finding: Finding): string {
  const { advisory } = finding;
  const head = `${finding.name}@${finding.version}  ${advisory.id} (${advisory.severity}, ${advisory.range})${finding.dev ? ' dev' : ''}`;
  const where =
    finding.paths.length === 1 ? finding.paths[0] : `${finding.paths.length} copies: ${finding.paths.join(', ')}`;
  switch (finding.verdict) {
    case 'accepted':
      return `accepted  ${head}: ${finding.acceptance.reason} (until ${finding.acceptance.expires}; ${where})`;
    case 'expired':
      return `FAIL      ${head}: its acceptance expired on ${finding.acceptance.expires} (${finding.acceptance.reason}); ${advisory.summary} (${where})`;
    case 'notDevOnly':
      return `FAIL      ${head}: accepted as dev only, but a copy is now a production dependency; ${advisory.summary} (${where})`;
    case 'unaccepted':
      return `FAIL      ${head}: ${advisory.summary} (${where})`;
  }
}

export function failed(findings: readonly Finding[]): boolean {
  return findings.some((finding) => finding.verdict !== 'accepted');
}
