/**
 * `npm run check:licences` (part of `npm run check`, so CI runs it): fails when a production
 * dependency carries a copyleft licence, an unknown one or none (policy and exceptions:
 * scripts/licencePolicy.ts; docs/api-plumbing.md, "Dependencies and licences").
 *
 * The production closure is package-lock.json's `packages` without `"dev": true` — every platform's
 * optional binaries included, since another machine installs its own. Each package's licence is
 * read from its installed package.json when it is installed here (the authority: `license`, or
 * the legacy `licenses` array), else from the lockfile's copy of that field.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { licenceExpression, licenceVerdict, type LicenceException } from './licencePolicy.ts';

interface LockEntry {
  name?: string;
  version?: string;
  license?: unknown;
  licenses?: unknown;
  dev?: boolean;
  link?: boolean;
}

// The project (or another directory holding a package-lock.json and node_modules, as the first argument).
const root = resolve(process.argv[2] ?? join(import.meta.dirname, '..'));
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
  packages?: Record<string, LockEntry>;
};
if (!lock.packages) {
  console.error('check-licences: package-lock.json has no "packages" map (lockfileVersion ≥ 2 needed)');
  process.exit(1);
}

const counts = new Map<string, number>();
const excepted = new Map<LicenceException, string[]>();
const failures: string[] = [];
let total = 0;
let installed = 0;

for (const [path, entry] of Object.entries(lock.packages)) {
  // The project itself, dev-only packages and links (their target has its own entry) are not judged.
  if (path === '' || entry.dev === true || entry.link === true) continue;
  const name = entry.name ?? path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
  const manifestPath = join(root, path, 'package.json');
  let expression: string | undefined;
  let version = entry.version ?? '?';
  if (existsSync(manifestPath)) {
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
      version?: string;
      license?: unknown;
      licenses?: unknown;
    };
    expression = licenceExpression(manifest);
    version = manifest.version ?? version;
    installed++;
  } else {
    expression = licenceExpression(entry);
  }
  total++;
  counts.set(expression ?? '(none)', (counts.get(expression ?? '(none)') ?? 0) + 1);
  const verdict = licenceVerdict(name, expression);
  if (verdict.ok) {
    if (verdict.exception) excepted.set(verdict.exception, [...(excepted.get(verdict.exception) ?? []), name]);
    continue;
  }
  const why =
    verdict.reason === 'missing'
      ? 'no licence declared'
      : verdict.reason === 'notSpdx'
        ? 'not an SPDX expression'
        : `${verdict.reason === 'copyleft' ? 'copyleft' : 'not a known permissive licence'}: ${verdict.licences.join(', ')}`;
  failures.push(`  ✗ ${name}@${version}  "${expression ?? ''}"  (${why})\n      at ${path}`);
}

const tally = [...counts.entries()]
  .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
  .map(([licence, count]) => `${licence} ${count}`);
console.log(
  `Licences of ${total} production packages (${installed} installed here; ${total - installed} not installed on this platform, read from the lockfile):`,
);
console.log(`  ${tally.join(' · ')}`);
for (const [exception, names] of excepted) {
  console.log(`  allowed by exception: ${exception.packages} (${exception.licence}) × ${names.length}`);
}
if (failures.length > 0) {
  console.error(
    `\n${failures.length} production ${failures.length === 1 ? 'package has' : 'packages have'} a licence the policy refuses (scripts/licencePolicy.ts):`,
  );
  console.error(failures.join('\n'));
  console.error(
    '\nReplace the package, or — for a use the licence permits — add a reasoned exception to licenceExceptions.',
  );
  process.exit(1);
}
console.log('No copyleft licence in production dependencies beyond the listed exceptions.');
