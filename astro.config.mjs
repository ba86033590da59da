// @ts-check
import { defineConfig } from 'astro/config';
import react from '@astrojs/react';
import tailwindcss from '@tailwindcss/vite';
import { devApi, intentDirective, precompress, sitemap } from './src/integrations/index.ts';

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
  integrations: [react(), intentDirective(), sitemap(), precompress(), devApi()],
  vite: {
    plugins: [tailwindcss()],
  },
  devToolbar: { enabled: false },
});
