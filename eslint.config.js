import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';
import astro from 'eslint-plugin-astro';
import reactHooks from 'eslint-plugin-react-hooks';

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
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
);
