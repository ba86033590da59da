/**
 * The licence policy of production dependencies (docs/api-plumbing.md, "Dependencies and
 * licences"), as pure functions so it can be unit-tested (tests/unit/licencePolicy.test.ts);
 * scripts/check-licences.ts applies it to the installed tree.
 *
 * A package passes when its SPDX expression is satisfied by permissive licences: `A OR B` when
 * either side passes, `A AND B` when both do, `(…)` grouping, `X WITH exception` judged by X,
 * `X+` as X. Copyleft licences fail — GPL, AGPL, LGPL, SSPL, EUPL, OSL, CPAL, CC-BY-SA, and the
 * weak/file-level ones MPL, EPL, CDDL too — unless the package matches an entry of `licenceExceptions`
 * (name pattern, the one licence it may carry, a written reason). An identifier that is neither
 * known permissive nor copyleft, a non-SPDX text, or no licence at all also fails: a new kind of
 * licence is a decision to make, not to pass by default.
 */

/** Permissive licences (SPDX ids) that pass anywhere. */
export const permissiveLicences: ReadonlySet<string> = new Set([
  '0BSD',
  'Apache-2.0',
  'BlueOak-1.0.0',
  'BSD-2-Clause',
  'BSD-3-Clause',
  'BSL-1.0',
  'CC-BY-3.0',
  'CC-BY-4.0',
  'CC0-1.0',
  'ISC',
  'MIT',
  'MIT-0',
  'Python-2.0',
  'Unlicense',
  'WTFPL',
  'Zlib',
]);

/** Copyleft families: strong (GPL, AGPL, SSPL, EUPL, OSL, CPAL, CC-BY-SA), library (LGPL) and file-level (MPL, EPL, CDDL). */
const copyleft = /^(AGPL|GPL|LGPL|SSPL|EUPL|OSL|CPAL|CC-BY-SA|MPL|EPL|CDDL)(-|$)/i;

export interface LicenceException {
  /** Package names it covers: exact, or with `*` for any characters (`@img/sharp-libvips-*`). */
  packages: string;
  /** The one licence (SPDX id) these packages may carry beyond the permissive ones; `NONE` for a package that declares none. */
  licence: string;
  reason: string;
}

/**
 * The only copyleft allowed in production dependencies, each for named packages and one licence.
 * Anything else copyleft fails the check.
 */
export const licenceExceptions: readonly LicenceException[] = [
  {
    packages: '@img/sharp-libvips-*',
    licence: 'LGPL-3.0-or-later',
    reason:
      'libvips, the native image library of sharp (Astro’s image service, and the editors’ studio converting uploaded images at build time), as prebuilt shared libraries loaded to resize images; unmodified, dynamically linked, never shipped to browsers — the LGPL’s conditions for such use are met by keeping it replaceable (it is a separate npm package).',
  },
  {
    packages: '@img/sharp-win32-*',
    licence: 'LGPL-3.0-or-later',
    reason:
      'sharp’s Windows binaries bundle the same libvips DLLs (Apache-2.0 AND LGPL-3.0-or-later); same use as @img/sharp-libvips-* (build time, unmodified, dynamically loaded). Not installed on Linux.',
  },
  {
    packages: '@img/sharp-wasm32',
    licence: 'LGPL-3.0-or-later',
    reason:
      'sharp’s WebAssembly build with libvips compiled in (Apache-2.0 AND LGPL-3.0-or-later AND MIT); a fallback for platforms without a native binary, build time only, unmodified. Not installed here.',
  },
  {
    packages: 'lightningcss',
    licence: 'MPL-2.0',
    reason:
      'the CSS transformer of Vite and Tailwind, run at build time on our stylesheets; used unmodified. MPL-2.0 is file-level copyleft: it binds changes to its own files, not our code nor the CSS it outputs.',
  },
  {
    packages: 'lightningcss-*',
    licence: 'MPL-2.0',
    reason: 'lightningcss’s prebuilt native binary for each platform (same use as lightningcss).',
  },
];

type Node = { kind: 'licence'; id: string } | { kind: 'and' | 'or'; left: Node; right: Node };

/** Parses an SPDX expression; throws on anything that is not one (then the package fails as "not SPDX"). */
export function parseSpdx(expression: string): Node {
  const tokens = expression.match(/\(|\)|[^\s()]+/g) ?? [];
  let at = 0;
  const peek = () => tokens[at];
  const fail = (): never => {
    throw new Error(`not an SPDX expression: ${expression}`);
  };
  const atom = (): Node => {
    const token = tokens[at++] ?? fail();
    if (token === '(') {
      const inner = or();
      if (tokens[at++] !== ')') fail();
      return inner;
    }
    if (/^(AND|OR|WITH|\))$/i.test(token) || !/^[A-Za-z0-9.+:-]+$/.test(token)) fail();
    // `X WITH some-exception`: the licence is still X.
    if (peek()?.toUpperCase() === 'WITH') {
      at++;
      if (!/^[A-Za-z0-9.+:-]+$/.test(tokens[at++] ?? '')) fail();
    }
    return { kind: 'licence', id: token.replace(/\+$/, '') };
  };
  const and = (): Node => {
    let left = atom();
    while (peek()?.toUpperCase() === 'AND') {
      at++;
      left = { kind: 'and', left, right: atom() };
    }
    return left;
  };
  const or = (): Node => {
    let left = and();
    while (peek()?.toUpperCase() === 'OR') {
      at++;
      left = { kind: 'or', left, right: and() };
    }
    return left;
  };
  if (tokens.length === 0) fail();
  const tree = or();
  if (at !== tokens.length) fail();
  return tree;
}

/** `name` matches a pattern of `LicenceException.packages`. */
export function packageMatches(pattern: string, name: string): boolean {
  const source = pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${source}$`).test(name);
}

export type LicenceVerdict =
  | { ok: true; exception?: LicenceException }
  | { ok: false; reason: 'missing' | 'notSpdx' | 'copyleft' | 'unknown'; licences: string[] };

/**
 * The licence field of a package.json as one SPDX expression: `license` (a string, or the old
 * `{ type }` object), else the legacy `licenses` array (alternatives: joined with OR). Undefined
 * when there is none.
 */
export function licenceExpression(manifest: { license?: unknown; licenses?: unknown }): string | undefined {
  const one = (value: unknown): string | undefined => {
    if (typeof value === 'string') return value.trim() || undefined;
    if (value && typeof value === 'object' && typeof (value as { type?: unknown }).type === 'string')
      return (value as { type: string }).type.trim() || undefined;
    return undefined;
  };
  const direct = one(manifest.license);
  if (direct) return direct;
  if (Array.isArray(manifest.licenses)) {
    const all = manifest.licenses.map(one).filter((value): value is string => value !== undefined);
    if (all.length === 1) return all[0];
    if (all.length > 1) return all.map((value) => `(${value})`).join(' OR ');
  }
  return one(manifest.licenses);
}

/**
 * Whether a package of this name may be a production dependency under this licence expression.
 * `exceptions` defaults to the project's list.
 */
export function licenceVerdict(
  name: string,
  expression: string | undefined,
  exceptions: readonly LicenceException[] = licenceExceptions,
): LicenceVerdict {
  if (expression === undefined || expression.trim() === '') {
    // A package without any licence passes only when an exception names it with the licence `NONE`.
    const listed = exceptions.find((entry) => entry.licence === 'NONE' && packageMatches(entry.packages, name));
    return listed ? { ok: true, exception: listed } : { ok: false, reason: 'missing', licences: [] };
  }
  let tree: Node;
  try {
    tree = parseSpdx(expression);
  } catch {
    return { ok: false, reason: 'notSpdx', licences: [expression] };
  }
  const applicable = exceptions.filter((entry) => packageMatches(entry.packages, name));
  interface Outcome {
    ok: boolean;
    /** Licences that failed (for the message). */
    failing: string[];
    /** The exception a passing outcome relied on. */
    exception?: LicenceException | undefined;
  }
  const judge = (node: Node): Outcome => {
    if (node.kind === 'licence') {
      if (permissiveLicences.has(node.id)) return { ok: true, failing: [] };
      const exception = applicable.find((entry) => entry.licence.toLowerCase() === node.id.toLowerCase());
      return exception ? { ok: true, failing: [], exception } : { ok: false, failing: [node.id] };
    }
    const left = judge(node.left);
    const right = judge(node.right);
    if (node.kind === 'or') {
      // Any alternative that passes; the one without an exception first.
      const passing = [left, right]
        .filter((outcome) => outcome.ok)
        .sort((a, b) => Number(Boolean(a.exception)) - Number(Boolean(b.exception)));
      return passing[0] ?? { ok: false, failing: [...left.failing, ...right.failing] };
    }
    return {
      ok: left.ok && right.ok,
      failing: [...left.failing, ...right.failing],
      exception: left.exception ?? right.exception,
    };
  };
  const outcome = judge(tree);
  if (outcome.ok) return outcome.exception ? { ok: true, exception: outcome.exception } : { ok: true };
  const licences = [...new Set(outcome.failing)];
  return { ok: false, reason: licences.some((id) => copyleft.test(id)) ? 'copyleft' : 'unknown', licences };
}
