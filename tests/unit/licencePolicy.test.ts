/**
 * The licence policy of production dependencies (scripts/licencePolicy.ts, run by
 * `npm run check:licences`): SPDX expressions, copyleft, exceptions, legacy fields.
 */
import { describe, expect, it } from 'vitest';
import {
  licenceExceptions,
  licenceExpression,
  licenceVerdict,
  packageMatches,
  parseSpdx,
} from '../../scripts/licencePolicy.ts';

describe('licenceVerdict', () => {
  it('passes permissive licences and an OR with any permissive alternative', () => {
    for (const expression of [
      'MIT',
      'Apache-2.0',
      'ISC',
      'BSD-3-Clause',
      '0BSD',
      'MIT OR GPL-3.0',
      'GPL-3.0-only OR MIT',
      '(MIT OR Apache-2.0)',
      'MIT AND ISC',
      '(MIT AND BSD-2-Clause) OR GPL-2.0',
      'Apache-2.0 WITH LLVM-exception',
    ]) {
      expect(licenceVerdict('some-package', expression), expression).toEqual({ ok: true });
    }
  });

  it('fails copyleft, alone or in an AND, whatever its spelling', () => {
    expect(licenceVerdict('ua-parser-js', 'AGPL-3.0-only')).toEqual({
      ok: false,
      reason: 'copyleft',
      licences: ['AGPL-3.0-only'],
    });
    expect(licenceVerdict('x', '(MIT AND LGPL-2.1)')).toEqual({
      ok: false,
      reason: 'copyleft',
      licences: ['LGPL-2.1'],
    });
    for (const expression of [
      'GPL-2.0+',
      'GPL-2.0-or-later WITH Classpath-exception-2.0',
      'AGPL-3.0',
      'LGPL-3.0-or-later',
      'SSPL-1.0',
      'EUPL-1.2',
      'OSL-3.0',
      'CPAL-1.0',
      'CC-BY-SA-4.0',
      'MPL-2.0',
      'EPL-2.0',
      'CDDL-1.0',
      'GPL-3.0 OR AGPL-3.0',
      'MIT AND (GPL-2.0 OR LGPL-2.1)',
    ]) {
      expect(licenceVerdict('x', expression), expression).toMatchObject({ ok: false, reason: 'copyleft' });
    }
  });

  it('fails a missing licence, a non-SPDX text and an unknown identifier', () => {
    expect(licenceVerdict('x', undefined)).toEqual({ ok: false, reason: 'missing', licences: [] });
    expect(licenceVerdict('x', '  ')).toMatchObject({ ok: false, reason: 'missing' });
    expect(licenceVerdict('x', 'SEE LICENSE IN LICENSE.md')).toMatchObject({ ok: false, reason: 'notSpdx' });
    expect(licenceVerdict('x', 'MIT OR')).toMatchObject({ ok: false, reason: 'notSpdx' });
    expect(licenceVerdict('x', '(MIT')).toMatchObject({ ok: false, reason: 'notSpdx' });
    expect(licenceVerdict('x', 'UNLICENSED')).toEqual({ ok: false, reason: 'unknown', licences: ['UNLICENSED'] });
    expect(licenceVerdict('x', 'LicenseRef-Proprietary')).toMatchObject({ ok: false, reason: 'unknown' });
  });

  it('allows a listed licence only for the listed packages, and says which exception', () => {
    const libvips = licenceExceptions.find((entry) => entry.packages === '@img/sharp-libvips-*');
    expect(licenceVerdict('@img/sharp-libvips-linux-x64', 'LGPL-3.0-or-later')).toEqual({
      ok: true,
      exception: libvips,
    });
    expect(licenceVerdict('@img/sharp-win32-x64', 'Apache-2.0 AND LGPL-3.0-or-later')).toMatchObject({ ok: true });
    // Not LGPL in general, nor another licence for the same package.
    expect(licenceVerdict('some-lgpl-library', 'LGPL-3.0-or-later')).toMatchObject({ ok: false, reason: 'copyleft' });
    expect(licenceVerdict('@img/sharp-libvips-linux-x64', 'GPL-3.0-or-later')).toMatchObject({
      ok: false,
      reason: 'copyleft',
    });
    expect(licenceVerdict('lightningcss-linux-x64-gnu', 'MPL-2.0')).toMatchObject({ ok: true });
    // An OR that passes without the exception does not report one.
    expect(licenceVerdict('lightningcss', 'MPL-2.0 OR MIT')).toEqual({ ok: true });
    // A package without a licence passes only when listed with NONE.
    expect(
      licenceVerdict('internal-thing', undefined, [{ packages: 'internal-*', licence: 'NONE', reason: 'ours' }]),
    ).toMatchObject({ ok: true });
    expect(licenceVerdict('internal-thing', undefined)).toMatchObject({ ok: false, reason: 'missing' });
    // Every exception gives its reason.
    for (const entry of licenceExceptions) expect(entry.reason.length).toBeGreaterThan(40);
  });
});

describe('licenceExpression and the parser', () => {
  it('reads `license`, the old { type } object and the legacy `licenses` array (alternatives)', () => {
    expect(licenceExpression({ license: 'MIT' })).toBe('MIT');
    expect(licenceExpression({ license: { type: 'BSD-3-Clause', url: 'x' } })).toBe('BSD-3-Clause');
    expect(licenceExpression({ licenses: [{ type: 'MIT' }, { type: 'GPL-2.0' }] })).toBe('(MIT) OR (GPL-2.0)');
    expect(licenceVerdict('x', licenceExpression({ licenses: [{ type: 'MIT' }, { type: 'GPL-2.0' }] }))).toEqual({
      ok: true,
    });
    expect(licenceExpression({ licenses: ['ISC'] })).toBe('ISC');
    expect(licenceExpression({})).toBeUndefined();
  });

  it('parses AND before OR, parentheses, WITH and +', () => {
    expect(parseSpdx('MIT OR ISC AND GPL-2.0')).toEqual({
      kind: 'or',
      left: { kind: 'licence', id: 'MIT' },
      right: { kind: 'and', left: { kind: 'licence', id: 'ISC' }, right: { kind: 'licence', id: 'GPL-2.0' } },
    });
    expect(parseSpdx('(GPL-2.0+ WITH Bison-exception-2.2)')).toEqual({ kind: 'licence', id: 'GPL-2.0' });
    expect(() => parseSpdx('MIT ISC')).toThrow();
    expect(packageMatches('@img/sharp-libvips-*', '@img/sharp-libvips-linuxmusl-arm64')).toBe(true);
    expect(packageMatches('@img/sharp-libvips-*', '@img/sharp-linux-x64')).toBe(false);
    expect(packageMatches('lightningcss', 'lightningcss-x')).toBe(false);
  });
});
