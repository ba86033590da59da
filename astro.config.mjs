// @ts-check
import { defineConfig } from 'astro/config';
import react from '@astrojs/react';
import tailwindcss from '@tailwindcss/vite';
import {
  devApi,
  incrementalBuild,
  intentDirective,
  pagePolicyCheck,
  searchIndexAndCompression,
  sitemap,
} from './src/integrations/index.ts';
import { cspHash, pageDirectives } from './src/lib/contentSecurityPolicy.ts';
import { constantInlineScripts } from './src/components/inlineScripts.ts';
import { clientChunkGroups } from './src/integrations/clientChunks.ts';
import { licenceNoticesPlugin } from './src/integrations/licences.ts';

// Fully static output (no adapter): the server in src/server serves dist/ and the API.
export default defineConfig({
  output: 'static',
  site: process.env.PUBLIC_ORIGIN ?? 'http://localhost:4321',
  trailingSlash: 'ignore',
  build: { format: 'directory', inlineStylesheets: 'never' },
  i18n: {
    locales: ['zh-CN', 'en-US', 'zh-TW', 'id-ID', 'pt-BR'],
    defaultLocale: 'zh-CN',
    routing: { prefixDefaultLocale: false },
  },
  // incrementalBuild first: its build:done puts the unchanged pages in place before the others read them.
  integrations: [
    incrementalBuild(),
    react(),
    intentDirective(),
    pagePolicyCheck(),
    sitemap(),
    searchIndexAndCompression(),
    devApi(),
  ],
  vite: {
    // licences.txt: the notices of the packages in the client chunks (licences.ts).
    plugins: [tailwindcss(), licenceNoticesPlugin()],
    // Fewer, larger files for the browser: see clientChunks.ts.
    environments: {
      client: { build: { rolldownOptions: { output: { codeSplitting: { groups: clientChunkGroups } } } } },
    },
  },
  devToolbar: { enabled: false },
  // Every page carries its Content-Security-Policy in a <meta> (the server sends it as a header
  // too): Astro lists the hashes of the scripts and styles it emits, we list ours — the inline
  // scripts that are the same on every page here, those with a page's own data where that page
  // writes its head. No 'unsafe-inline' anywhere (docs/security.md).
  security: {
    csp: {
      directives: [...pageDirectives],
      scriptDirective: { hashes: constantInlineScripts.map(cspHash) },
    },
  },
  // Our Markdown is rendered by src/content/markdown.ts; Astro's own highlighter would write inline styles.
  markdown: { syntaxHighlight: false },
});
