import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';
import astro from 'eslint-plugin-astro';
import reactHooks from 'eslint-plugin-react-hooks';
import boundaries from 'eslint-plugin-boundaries';

/**
 * The layers of src/, top to bottom (docs/architecture.md): each may import only its own layer and
 * the layers below it. Inside the API, routes → services/studio/site → db/storage; the rest of
 * src/server (app, middleware, envelope, config, jobs …) is the API's frame, which routes and
 * services use and which assembles them. Listed most specific first: a file takes the first match.
 */
export const layers = [
  { type: 'pages', pattern: ['src/pages', 'src/layouts', 'src/components'] },
  { type: 'integrations', pattern: 'src/integrations' },
  { type: 'islands', pattern: 'src/islands' },
  { type: 'stores', pattern: 'src/stores' },
  { type: 'server-routes', pattern: 'src/server/routes' },
  { type: 'server-domain', pattern: ['src/server/services', 'src/server/studio', 'src/server/site'] },
  { type: 'server-data', pattern: ['src/server/db', 'src/server/storage'] },
  { type: 'server', pattern: 'src/server' },
  { type: 'lib', pattern: 'src/lib' },
  { type: 'content', pattern: 'src/content' },
];
/** What the data layer reads of the frame above it: the configuration and the metrics' instruments. */
export const dataReads = ['src/server/config.ts', 'src/server/metrics/instruments.ts'];
/** The API's entry points, which assemble everything: no route, service or data module imports them. */
export const serverEntries = [
  'src/server/app.ts',
  'src/server/main.ts',
  'src/server/runtime.ts',
  'src/server/worker.ts',
  'src/server/housekeeping.ts',
];
/** Layer → the layers below it that it may import. */
export const mayImport = {
  pages: ['islands', 'stores', 'lib', 'content'],
  integrations: ['lib', 'content'],
  islands: ['stores', 'lib', 'content'],
  stores: ['lib', 'content'],
  'server-routes': ['server-domain', 'server', 'server-data', 'lib', 'content'],
  'server-domain': ['server', 'server-data', 'lib', 'content'],
  server: ['server-routes', 'server-domain', 'server-data', 'lib', 'content'],
  'server-data': ['lib', 'content'],
  lib: ['content'],
  content: [],
};

export default defineConfig(
  {
    ignores: [
      'dist/',
      '.dist-builds/',
      '.astro/',
      'node_modules/',
      'data/',
      'test-results/',
      'playwright-report/',
      'src/server/db/migrations/',
    ],
  },
  tseslint.configs.recommended,
  astro.configs.recommended,
  // The React islands (and their hooks): the Rules of React, missing effect dependencies included
  // (a warning, which `--max-warnings 0` makes fail).
  { files: ['src/islands/**/*.{ts,tsx}'], ...reactHooks.configs.flat.recommended },
  // Imports point down: the layers above, enforced (type-only imports too).
  {
    files: ['src/**/*.{ts,tsx,astro}'],
    plugins: { boundaries },
    settings: {
      'boundaries/elements': layers,
      'boundaries/include': ['src/**/*'],
      'boundaries/files': [
        { category: 'data-reads', pattern: dataReads.map((file) => `**/${file}`) },
        { category: 'server-entry', pattern: serverEntries.map((file) => `**/${file}`) },
      ],
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          policies: [
            ...Object.entries(mayImport).map(([type, below]) => ({
              from: { element: { type } },
              allow: { to: { element: { types: { anyOf: [type, ...below] } } } },
            })),
            { from: { element: { type: 'server-data' } }, allow: { to: { file: { categories: 'data-reads' } } } },
            {
              from: { element: { types: { anyOf: ['server-routes', 'server-domain', 'server-data'] } } },
              disallow: { to: { file: { categories: 'server-entry' } } },
            },
          ],
        },
      ],
    },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
);
