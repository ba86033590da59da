/**
 * How the browser's JavaScript is cut into files (Rolldown's `codeSplitting.groups`, client build
 * only). Left to itself the bundler makes a file of every module two islands share: a signed-in
 * page then fetched some thirty files, most under 1 KB, each with about 1 KB of response headers.
 * Two groups hold what every signed-in page loads anyway, so a page fetches a handful of files:
 *
 * - `react`: React, React DOM, the Astro renderer and the bundler's runtime helpers — the floor of
 *   any hydrated page (public pages load it only when a visitor reaches for a header control);
 * - `core`: the request client and what it needs, the session and notice stores, the small shared
 *   island helpers (loading and error lines, the confirmation dialog, dismissal, mount signal).
 *
 * Everything else is split as the bundler sees fit, so a page does not fetch another page's
 * code. docs/performance.md ("JavaScript on signed-in pages") has the measurements.
 */
import type { CodeSplittingGroup } from 'rolldown';

const packagePath = (names: string) => new RegExp(`[\\\\/]node_modules[\\\\/](?:${names})[\\\\/]`);
const sourcePath = (path: string) => new RegExp(`[\\\\/]src[\\\\/]${path.replaceAll('/', '[\\\\/]')}`);
const anyOf = (patterns: readonly RegExp[]) => (id: string) => patterns.some((pattern) => pattern.test(id));

const reactModules = [packagePath('react|react-dom|scheduler|@astrojs/react'), /rolldown[\\/]runtime/];

const coreModules = [
  packagePath('nanostores|@nanostores/[^/\\\\]+|ofetch|ufo|destr'),
  sourcePath('lib/api/'),
  sourcePath('stores/(?:session|loginStatus|notices)\\.ts$'),
  sourcePath('lib/(?:apiCodes|paths|loginRedirect|secondFactorDemand|flash|chinaTime|roles|notices|i18n/locales)\\.ts$'),
  sourcePath('islands/(?:LoadStatus|ConfirmDialog|useDismiss|useMountedSignal|useSessionReady|quietCall)\\.tsx?$'),
  sourcePath('islands/auth/(?:formCall|formValidation)\\.ts$'),
  sourcePath('lib/schemas/(?:issues|text)\\.ts$'),
];

export const clientChunkGroups: CodeSplittingGroup[] = [
  { name: 'react', test: anyOf(reactModules), priority: 2 },
  { name: 'core', test: anyOf(coreModules), priority: 1 },
];
