/**
 * How the browser's JavaScript is cut into files (Rolldown's `codeSplitting.groups`, client build
 * only). Left to itself the bundler makes a file of every set of modules two islands share: a
 * signed-in page then fetched some thirty files, most under 1 KB, each with about 1 KB of response
 * headers — as much again as its code. The groups below put what is loaded together into one file:
 *
 * - `react`: React, React DOM, the Astro renderer and the bundler's runtime helpers — the floor of
 *   any hydrated page (public pages load it only when a visitor reaches for a header control);
 * - `core`: what every signed-in page runs — the request client, the session and notice stores,
 *   the small shared island helpers, form errors from the server, the partner constants;
 * - `status`: the empty state and the status badge component, which the order, certification,
 *   partner and operator pages show (the map of statuses to badges is in `core`: the studio's lists
 *   and account settings use it without the component);
 * - `validation` (zod/mini) and `forms` (the shared field rules and the forms' parts): only pages
 *   that validate load them, and the studio's editor only the first;
 * - `tables`: the data tables and their state in the address;
 * - one file per area for what two islands of the area share (enterprise views, partner tree,
 *   analysis, studio, the studio's build progress).
 *
 * A group takes the modules its test names and what they import that no earlier group took, so
 * each list is drawn to keep a file's imports inside it or in the groups above it: a module that
 * pulled validation into the enterprise views, or the partner constants into the forms, made
 * every page of that area load zod. Everything else is split as the bundler sees fit.
 * `npm run bench -- js` and scripts/check-budgets.ts measure the result (docs/performance.md,
 * "JavaScript on signed-in pages").
 */
import type { CodeSplittingGroup } from 'rolldown';

const packagePath = (names: string) => new RegExp(`[\\\\/]node_modules[\\\\/](?:${names})[\\\\/]`);
const sourcePath = (path: string) => new RegExp(`[\\\\/]src[\\\\/]${path.replaceAll('/', '[\\\\/]')}`);
const anyOf = (patterns: readonly RegExp[]) => (id: string) => patterns.some((pattern) => pattern.test(id));

const reactModules = [packagePath('react|react-dom|scheduler|@astrojs/react'), /rolldown[\\/]runtime/];

const coreModules = [
  packagePath('nanostores|@nanostores/react'),
  // The request client; the studio's calls beside it go with the studio.
  sourcePath('lib/api/(?!studio)'),
  sourcePath('stores/(?:session|loginStatus|notices)\\.ts$'),
  sourcePath(
    'lib/(?:apiCodes|paths|loginRedirect|secondFactorDemand|flash|chinaTime|roles|notices|statusBadges|i18n/locales)\\.ts$',
  ),
  sourcePath('islands/(?:LoadStatus|ConfirmDialog|useDismiss|useMountedSignal|useSessionReady|quietCall)\\.tsx?$'),
  sourcePath('islands/auth/(?:formCall|formValidation)\\.ts$'),
  sourcePath('islands/person/personData\\.ts$'),
  sourcePath('islands/table/CardTable\\.tsx$'),
  sourcePath('lib/partner\\.ts$'),
  sourcePath('lib/schemas/(?:issues|text)\\.ts$'),
];

/** zod/mini: every page that validates anything, the studio's item editor included. */
const validationModules = [packagePath('zod')];

/** What the account and enterprise forms share: the field rules and the form's parts. */
const formModules = [
  sourcePath('lib/schemas/(?:fields|auth|account|partner)\\.ts$'),
  sourcePath('islands/auth/(?:TextField|SubmitButton|useFormErrors|signIn)\\.tsx?$'),
];

/** The empty state and the status badge (left to the tables group, they pulled it into pages without a table). */
const statusModules = [sourcePath('islands/(?:EmptyState|StatusBadge)\\.tsx$'), sourcePath('lib/emptyState\\.ts$')];

/** The data tables: their state in the address and the request built from it. */
const tableModules = [
  sourcePath('islands/table/'),
  sourcePath('islands/locationSearch\\.ts$'),
  sourcePath('lib/table(?:Request|Limits)\\.ts$'),
];

/**
 * Each area's shared modules (taken only when two islands or more use them, so an island is
 * never folded into another's file).
 */
const areas: Record<string, readonly RegExp[]> = {
  // The enterprise's views and calls (no validation in them: the forms stay with their islands).
  enterprise: [
    sourcePath(
      'islands/enterprise/(?:Section|EnterpriseDetails|StatusLine|SelectField|RemoveButton|EnterprisePending|useOwnEnterprise|enterpriseCalls|bankCall|useUsbKeyBank)\\.tsx?$',
    ),
    sourcePath('lib/(?:banks|authStatus)\\.ts$'),
  ],
  partner: [sourcePath('islands/partner/[A-Za-z]+\\.tsx?$')],
  analysis: [sourcePath('islands/partner/analysis/')],
  studio: [
    sourcePath(
      'islands/studio/(?!ItemEditor|ItemForm|formModel|versionDiff|ScheduleDialog|BuildStatus|buildProgress|useFollowRunning)',
    ),
    sourcePath('content/(?:paths|limits)\\.ts$'),
    sourcePath('lib/api/studio'),
    sourcePath('lib/studio/(?!formModel|answers)'),
    sourcePath('lib/i18n/plural\\.ts$'),
  ],
  // The build's progress: the studio's start page, pending changes and publications show it, the editor does not.
  studioBuild: [
    sourcePath('islands/studio/(?:BuildStatus|buildProgress|useFollowRunning)\\.tsx?$'),
    sourcePath('stores/studioBuild\\.ts$'),
  ],
};

export const clientChunkGroups: CodeSplittingGroup[] = [
  { name: 'react', test: anyOf(reactModules), priority: 4 },
  { name: 'core', test: anyOf(coreModules), priority: 3 },
  { name: 'status', test: anyOf(statusModules), priority: 3 },
  { name: 'validation', test: anyOf(validationModules), priority: 2 },
  { name: 'forms', test: anyOf(formModules), priority: 2 },
  { name: 'tables', test: anyOf(tableModules), priority: 2 },
  ...Object.entries(areas).map(([name, patterns]) => ({ name, test: anyOf(patterns), minShareCount: 2, priority: 1 })),
];
