/**
 * The vulnerability check of the locked packages (scripts/advisories.ts, run by
 * `npm run check:advisories`): ranges, acceptances, their expiry and the committed list itself.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  advisoryFileSchema,
  failed,
  findAdvisories,
  findingLine,
  lockedPackages,
  unusedAcceptances,
} from '../../scripts/advisories.ts';

const advisory = {
  id: 'GHSA-x3cc-x39p-42qx',
  package: 'fast-xml-parser',
  range: '<4.1.2',
  severity: 'moderate',
  summary: 'Prototype pollution through a tag or attribute name.',
};
const acceptance = {
  advisory: 'GHSA-x3cc-x39p-42qx',
  package: 'fast-xml-parser',
  versions: '3.21.1',
  devOnly: true,
  reason: 'dev only: the test S3 server, never shipped',
  expires: '2027-06-30',
};
const file = (accepted: object[] = [acceptance]) => advisoryFileSchema.parse({ advisories: [advisory], accepted });
const lock = (version: string, dev = true) =>
  lockedPackages({
    '': { name: 'hgd-portal', version: '0.1.0' },
    'node_modules/fast-xml-parser': { version, dev },
    'node_modules/other': { version: '1.0.0' },
  });
const today = new Date('2026-12-02T10:00:00Z');

describe('findAdvisories', () => {
  it('matches a locked version inside the range, accepted with its reason and expiry', () => {
    const findings = findAdvisories(lock('3.21.1'), file(), today);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ name: 'fast-xml-parser', version: '3.21.1', verdict: 'accepted', dev: true });
    expect(failed(findings)).toBe(false);
    expect(findingLine(findings[0]!)).toBe(
      'accepted  fast-xml-parser@3.21.1  GHSA-x3cc-x39p-42qx (moderate, <4.1.2) dev: dev only: the test S3 server, never shipped (until 2027-06-30; node_modules/fast-xml-parser)',
    );
  });

  it('does not match a version outside the range', () => {
    for (const version of ['4.1.2', '4.5.0', '5.3.5']) {
      expect(findAdvisories(lock(version), file(), today), version).toEqual([]);
    }
    // A pre-release below the fixed version is still affected.
    expect(findAdvisories(lock('4.1.2-beta.1'), file([]), today)).toHaveLength(1);
  });

  it('fails a match nobody accepted', () => {
    const findings = findAdvisories(lock('3.21.1'), file([]), today);
    expect(findings[0]?.verdict).toBe('unaccepted');
    expect(failed(findings)).toBe(true);
    expect(findingLine(findings[0]!)).toMatch(
      /^FAIL {6}fast-xml-parser@3\.21\.1 {2}GHSA-x3cc-x39p-42qx .*Prototype pollution/,
    );
  });

  it('fails once the acceptance has expired: it holds through its last day', () => {
    expect(findAdvisories(lock('3.21.1'), file(), new Date('2027-06-30T23:59:59Z'))[0]?.verdict).toBe('accepted');
    const findings = findAdvisories(lock('3.21.1'), file(), new Date('2027-07-01T00:00:00Z'));
    expect(findings[0]?.verdict).toBe('expired');
    expect(failed(findings)).toBe(true);
    expect(findingLine(findings[0]!)).toMatch(/^FAIL .*expired on 2027-06-30/);
  });

  it('fails an acceptance for other versions than the one locked', () => {
    const findings = findAdvisories(lock('3.19.0'), file(), today);
    expect(findings[0]?.verdict).toBe('unaccepted');
    expect(unusedAcceptances(file(), findings)).toHaveLength(1);
  });

  it('fails a dev-only acceptance once the package is a production dependency', () => {
    const findings = findAdvisories(lock('3.21.1', false), file(), today);
    expect(findings[0]?.verdict).toBe('notDevOnly');
    expect(failed(findings)).toBe(true);
  });
});

describe('advisoryFileSchema', () => {
  it('refuses a bad range, an acceptance of an advisory not listed, and a missing expiry', () => {
    expect(advisoryFileSchema.safeParse({ advisories: [{ ...advisory, range: 'soon' }], accepted: [] }).success).toBe(
      false,
    );
    expect(
      advisoryFileSchema.safeParse({
        advisories: [advisory],
        accepted: [{ ...acceptance, advisory: 'GHSA-2222-3333-4444' }],
      }).success,
    ).toBe(false);
    const { expires: _, ...noExpiry } = acceptance;
    expect(advisoryFileSchema.safeParse({ advisories: [advisory], accepted: [noExpiry] }).success).toBe(false);
  });

  it('reads the committed list (npm run check:advisories matches it against the lockfile)', () => {
    const listed = JSON.parse(
      readFileSync(join(import.meta.dirname, '..', '..', 'security', 'advisories.json'), 'utf8'),
    );
    const parsed = advisoryFileSchema.safeParse(listed);
    expect(parsed.error).toBeUndefined();
    expect(parsed.data?.advisories.length).toBeGreaterThan(0);
  });
});
