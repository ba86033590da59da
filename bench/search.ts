/**
 * `npm run bench -- search`: site search over a build (dist/, or the build in BENCH_DIST), the
 * figures of docs/public-site.md "Search":
 *
 * - index: each locale's bundle — its bytes on disk (Pagefind's files, without the `.br`/`.gz`
 *   copies the build adds), the pages in it, and the bytes a typical query moves (the bundle's
 *   files Pagefind fetches to open, search 电价 and show the first 10 results, each as served:
 *   brotli where the build wrote a copy, else as it is — Pagefind's own files are compressed);
 * - indexing: the time the build's index step takes on this build's pages (run on hard links of
 *   them in a temporary directory, so the build itself is left as it is);
 * - relevance: real queries, 20 in zh-CN and 5 in each other locale, each with the pages that
 *   answer it — found when one of them is among the first 3 results;
 * - browser: the search page in Chromium as a mid-range phone (CPU 4× slower through
 *   `Emulation.setCPUThrottlingRate`, a slow 4G network, an empty cache): scripts loaded before
 *   any interaction, and the time and bytes from focusing the box to the first result shown.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { link } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { ensureChromium } from '../scripts/chromium.ts';
import { openSearchBundle, recordFiles, searchScriptFile } from '../scripts/search-bundle.ts';
import { writeSearchIndex } from '../src/integrations/searchIndex.ts';
import { locales, type Locale } from '../src/lib/i18n/locales.ts';
import { sitePath, splitSitePath } from '../src/lib/paths.ts';
import { searchBundlePath } from '../src/lib/search.ts';
import { freePort, startProcess, waitFor } from './server.ts';

/** A query and the pages (route paths, `#section` allowed) that answer it, in a region. */
interface RelevanceCase {
  locale: Locale;
  query: string;
  areaCode?: string;
  answers: string[];
}

const gd = '440000';

/** Real queries: the site's own words (glossary terms, titles, what the help centre answers). */
export const relevanceCases: readonly RelevanceCase[] = [
  {
    locale: 'zh-CN',
    query: '电价',
    answers: [
      '/infomation/detail/20250425-policy-tou',
      '/infomation/detail/20250210-policy-136',
      '/products/id5',
      '/products/id5/gd-tou-2027',
      '/products/id2',
    ],
  },
  {
    locale: 'zh-CN',
    query: '峰谷电价',
    answers: [
      '/infomation/detail/20250425-policy-tou',
      '/products/id5',
      '/products/id5/gd-tou-2027',
      '/products/id5/gd-tou-night-2027',
    ],
  },
  {
    locale: 'zh-CN',
    query: '分时电价套餐',
    answers: ['/products/id5', '/products/id5/gd-tou-2027', '/products/id5/gd-tou-night-2027'],
  },
  {
    locale: 'zh-CN',
    query: '认证',
    answers: ['/assistance/certification-overview', '/assistance/certification-returned'],
  },
  { locale: 'zh-CN', query: '企业认证', answers: ['/assistance/certification-overview'] },
  {
    locale: 'zh-CN',
    query: 'U盾',
    answers: ['/assistance/certify-by-usbkey', '/infomation/detail/20250226-platform-usbkey'],
  },
  { locale: 'zh-CN', query: '营业执照', answers: ['/assistance/certify-by-certificate'] },
  {
    locale: 'zh-CN',
    query: '授权委托书',
    answers: [
      '/assistance/certify-by-certificate',
      '/assistance/faq/2#auth-letter-format',
      '/assistance/faq#auth-letter-format',
    ],
  },
  { locale: 'zh-CN', query: '认证被退回', answers: ['/assistance/certification-returned'] },
  {
    locale: 'zh-CN',
    query: '绿电',
    answers: [
      '/products/id4',
      '/products/id4/gd-green-100-2027',
      '/products/id4/gd-green-30-2027',
      '/infomation/detail/20250318-policy-green-cert',
    ],
  },
  {
    locale: 'zh-CN',
    query: '绿证',
    answers: [
      '/infomation/detail/20250318-policy-green-cert',
      '/assistance/faq/3#green-certificate-arrival',
      '/assistance/faq/2#green-certificate-arrival',
    ],
  },
  {
    locale: 'zh-CN',
    query: '结算结果',
    answers: ['/assistance/settlement-results', '/infomation/detail/20250630-platform-settlement'],
  },
  {
    locale: 'zh-CN',
    query: '节省金额',
    answers: ['/assistance/saving-calculation', '/assistance/faq/2#negative-saving'],
  },
  { locale: 'zh-CN', query: '发票', answers: ['/assistance/electricity-bill'] },
  { locale: 'zh-CN', query: '找回密码', answers: ['/assistance/login-and-password'] },
  { locale: 'zh-CN', query: '取消订单', answers: ['/assistance/cancel-or-delete-order'] },
  {
    locale: 'zh-CN',
    query: '需求响应',
    answers: [
      '/business/demand-response/gd-demand-response',
      '/infomation/detail/20260722-market-summer-2026',
      '/infomation/detail/20250702-policy-summer',
    ],
  },
  {
    locale: 'zh-CN',
    query: '中小企业',
    answers: ['/business/retail-purchase/gd-sme-purchase', '/products/id1/gd-fixed-sme-2027'],
  },
  { locale: 'zh-CN', query: '现货', answers: ['/infomation/detail/20251203-policy-spot'] },
  {
    locale: 'zh-CN',
    query: '零售购电',
    areaCode: '450000',
    answers: ['/business/retail-purchase/gx-agency-purchase', '/business/retail-purchase/gx-sme-purchase'],
  },
  {
    locale: 'en-US',
    query: 'time-of-use',
    answers: [
      '/infomation/detail/20250425-policy-tou',
      '/products/id5',
      '/products/id5/gd-tou-2027',
      '/products/id5/gd-tou-night-2027',
    ],
  },
  { locale: 'en-US', query: 'enterprise certification', answers: ['/assistance/certification-overview'] },
  {
    locale: 'en-US',
    query: 'USB key',
    answers: ['/assistance/certify-by-usbkey', '/infomation/detail/20250226-platform-usbkey'],
  },
  {
    locale: 'en-US',
    query: 'frequently asked questions',
    answers: ['/assistance/faq', '/assistance/faq/2', '/assistance/faq/3'],
  },
  {
    locale: 'en-US',
    query: 'green power package',
    answers: ['/products/id4', '/products/id4/gd-green-100-2027', '/products/id4/gd-green-30-2027'],
  },
  {
    locale: 'zh-TW',
    query: '电价',
    answers: [
      '/infomation/detail/20250425-policy-tou',
      '/infomation/detail/20250210-policy-136',
      '/products/id5',
      '/products/id5/gd-tou-2027',
      '/products/id2',
    ],
  },
  {
    locale: 'zh-TW',
    query: '電價',
    answers: [
      '/infomation/detail/20250425-policy-tou',
      '/infomation/detail/20250210-policy-136',
      '/products/id5',
      '/products/id5/gd-tou-2027',
      '/products/id2',
    ],
  },
  { locale: 'zh-TW', query: '企業認證', answers: ['/assistance/certification-overview'] },
  {
    locale: 'zh-TW',
    query: 'U盾',
    answers: ['/assistance/certify-by-usbkey', '/infomation/detail/20250226-platform-usbkey'],
  },
  { locale: 'zh-TW', query: '常見問題', answers: ['/assistance/faq', '/assistance/faq/2', '/assistance/faq/3'] },
  {
    locale: 'id-ID',
    query: 'tarif berbasis waktu',
    answers: [
      '/infomation/detail/20250425-policy-tou',
      '/products/id5',
      '/products/id5/gd-tou-2027',
      '/products/id5/gd-tou-night-2027',
    ],
  },
  {
    locale: 'id-ID',
    query: 'listrik hijau',
    answers: [
      '/products/id4',
      '/products/id4/gd-green-100-2027',
      '/products/id4/gd-green-30-2027',
      '/infomation/detail/20250318-policy-green-cert',
    ],
  },
  { locale: 'id-ID', query: 'izin usaha', answers: ['/assistance/certify-by-certificate'] },
  { locale: 'id-ID', query: 'pertanyaan umum', answers: ['/assistance/faq', '/assistance/faq/2', '/assistance/faq/3'] },
  {
    locale: 'id-ID',
    query: 'paket listrik hijau',
    answers: ['/products/id4', '/products/id4/gd-green-100-2027', '/products/id4/gd-green-30-2027'],
  },
  {
    locale: 'pt-BR',
    query: 'preço por horário',
    answers: [
      '/infomation/detail/20250425-policy-tou',
      '/products/id5',
      '/products/id5/gd-tou-2027',
      '/products/id5/gd-tou-night-2027',
    ],
  },
  {
    locale: 'pt-BR',
    query: 'resultados de liquidação',
    answers: ['/assistance/settlement-results', '/infomation/detail/20250630-platform-settlement'],
  },
  { locale: 'pt-BR', query: 'recuperar senha', answers: ['/assistance/login-and-password'] },
  {
    locale: 'pt-BR',
    query: 'perguntas frequentes',
    answers: ['/assistance/faq', '/assistance/faq/2', '/assistance/faq/3'],
  },
  {
    locale: 'pt-BR',
    query: 'pacote de energia verde',
    answers: ['/products/id4', '/products/id4/gd-green-100-2027', '/products/id4/gd-green-30-2027'],
  },
];

/** The bytes a file takes on the wire: its brotli copy when the build wrote one (the server sends that), else itself. */
function servedBytes(file: string): number {
  return existsSync(`${file}.br`) ? statSync(`${file}.br`).size : statSync(file).size;
}

function bundleDir(distDir: string, locale: Locale): string {
  return path.join(distDir, ...searchBundlePath(locale).split('/').filter(Boolean));
}

function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

async function indexFigures(distDir: string, locale: Locale) {
  const dir = bundleDir(distDir, locale);
  const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter(
    (entry) => entry.isFile() && !/\.(br|gz)$/.test(entry.name),
  );
  const diskBytes = files.reduce((sum, entry) => sum + statSync(path.join(entry.parentPath, entry.name)).size, 0);
  const entry = JSON.parse(readFileSync(path.join(dir, 'pagefind-entry.json'), 'utf8')) as {
    languages: Record<string, { page_count: number }>;
  };
  const pages = Object.values(entry.languages).reduce((sum, language) => sum + language.page_count, 0);
  const bundle = await openSearchBundle(distDir, locale);
  const { files: fetched } = await recordFiles(async () => {
    await bundle.search('电价', gd, 10);
  });
  await bundle.close();
  // pagefind.js is imported, not fetched, here; a browser fetches it like the rest.
  const queryBytes = [searchScriptFile(distDir, locale), ...fetched].reduce((sum, file) => sum + servedBytes(file), 0);
  return { locale, pages, files: files.length, diskBytes, queryFiles: fetched.length + 1, queryBytes };
}

/** The index step on this build's pages: hard links of its `index.html` files in a temporary directory. */
async function indexingTime(distDir: string) {
  const scratch = mkdtempSync(path.join(tmpdir(), 'hgd-search-index-'));
  try {
    for (const entry of readdirSync(distDir, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || entry.name !== 'index.html') continue;
      const relative = path.relative(distDir, entry.parentPath);
      if (relative.split(path.sep)[0] === 'pagefind') continue;
      mkdirSync(path.join(scratch, relative), { recursive: true });
      await link(path.join(entry.parentPath, entry.name), path.join(scratch, relative, entry.name));
    }
    return await writeSearchIndex(scratch);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The route path of a result, for comparing with a case's answers (locale and region taken off). */
function routeOf(hitPath: string): string {
  const [pathname = '', hash] = hitPath.split('#');
  const route = splitSitePath(pathname).path;
  return hash ? `${route}#${hash}` : route;
}

async function relevance(distDir: string) {
  const rows: {
    locale: Locale;
    query: string;
    areaCode: string;
    found: boolean;
    rank: number | undefined;
    top: string[];
  }[] = [];
  for (const locale of locales) {
    const cases = relevanceCases.filter((entry) => entry.locale === locale);
    // A build of some locales only (BUILD_LOCALES) has no bundle for the others.
    if (cases.length === 0 || !existsSync(bundleDir(distDir, locale))) continue;
    const bundle = await openSearchBundle(distDir, locale);
    for (const entry of cases) {
      const areaCode = entry.areaCode ?? gd;
      const { hits } = await bundle.search(entry.query, areaCode, 3);
      const top = hits.map((hit) => routeOf(hit.path));
      const index = top.findIndex(
        (route) => entry.answers.includes(route) || entry.answers.includes(route.split('#')[0] ?? route),
      );
      rows.push({
        locale,
        query: entry.query,
        areaCode,
        found: index !== -1,
        rank: index === -1 ? undefined : index + 1,
        top,
      });
    }
    await bundle.close();
  }
  return rows;
}

/** Slow 4G as Lighthouse's mobile profile states it: 150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up. */
const slow4g = {
  offline: false,
  latency: 150,
  downloadThroughput: (1638.4 * 1024) / 8,
  uploadThroughput: (750 * 1024) / 8,
};
const phoneCpuSlowdown = 4;

async function browserTiming(distDir: string, runs = 3) {
  const executablePath = await ensureChromium();
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'hgd-search-bench-'));
  const server = startProcess(['src/server/main.ts'], {
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    STATIC_DIR: distDir,
    LOG_LEVEL: 'silent',
  });
  const browser = await chromium.launch({
    executablePath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic', '--no-first-run'],
  });
  const origin = `http://127.0.0.1:${port}`;
  const samples: { scriptsBefore: number; firstResultMs: number; bytes: number; nextResultMs: number }[] = [];
  try {
    await waitFor(`${origin}/api/health`, 120_000, (response) => response.status < 500);
    for (let run = 0; run < runs; run += 1) {
      const context = await browser.newContext({
        baseURL: origin,
        locale: 'zh-CN',
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
      });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
      await cdp.send('Network.emulateNetworkConditions', slow4g);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: phoneCpuSlowdown });
      let counting = false;
      let bytes = 0;
      let scriptsBefore = 0;
      cdp.on('Network.loadingFinished', (event: { encodedDataLength: number }) => {
        if (counting) bytes += event.encodedDataLength;
      });
      page.on('request', (request) => {
        if (!counting && request.resourceType() === 'script') scriptsBefore += 1;
      });
      await page.goto(sitePath('zh-CN', '/search'), { waitUntil: 'load' });
      await page.waitForTimeout(500);
      const box = page.getByRole('searchbox');
      counting = true;
      const started = performance.now();
      await box.focus();
      await page.keyboard.type('电价');
      await page.locator('a[data-search-hit]').first().waitFor({ timeout: 60_000 });
      const firstResultMs = performance.now() - started;
      await page.waitForLoadState('networkidle');
      counting = false;
      const again = performance.now();
      await box.fill('企业认证');
      await page.locator('a[data-search-hit]', { hasText: '企业认证' }).first().waitFor({ timeout: 60_000 });
      const nextResultMs = performance.now() - again;
      samples.push({ scriptsBefore, firstResultMs, bytes, nextResultMs });
      await context.close();
    }
  } finally {
    await browser.close();
    server.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 500));
    rmSync(dataDir, { recursive: true, force: true });
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  return {
    runs,
    scriptsBefore: Math.max(...samples.map((sample) => sample.scriptsBefore)),
    firstResultMs: median(samples.map((sample) => sample.firstResultMs)),
    firstResultRange: [
      Math.min(...samples.map((s) => s.firstResultMs)),
      Math.max(...samples.map((s) => s.firstResultMs)),
    ],
    bytes: median(samples.map((sample) => sample.bytes)),
    nextResultMs: median(samples.map((sample) => sample.nextResultMs)),
  };
}

export async function benchSearch(distDir: string): Promise<void> {
  console.log(`\n## search (${distDir})`);
  console.log('locale   pages  files  on disk     typical query (电价, 10 results shown): files, bytes as served');
  for (const locale of locales) {
    if (!existsSync(bundleDir(distDir, locale))) continue;
    const row = await indexFigures(distDir, locale);
    console.log(
      `${locale.padEnd(8)} ${String(row.pages).padStart(5)}  ${String(row.files).padStart(5)}  ${kb(row.diskBytes).padStart(9)}   ${row.queryFiles} files, ${kb(row.queryBytes)}`,
    );
  }
  const indexing = await indexingTime(distDir);
  const pages = Object.values(indexing.pages).reduce((sum, count) => sum + count, 0);
  console.log(`indexing step: ${pages} pages in ${(indexing.ms / 1000).toFixed(1)} s`);

  const rows = await relevance(distDir);
  console.log('\n| locale | query | region | first 3 | rank |');
  console.log('|---|---|---|---|---|');
  for (const row of rows)
    console.log(
      `| ${row.locale} | ${row.query} | ${row.areaCode} | ${row.found ? 'found' : 'not found'} | ${row.rank ?? '–'} |`,
    );
  for (const locale of locales) {
    const ofLocale = rows.filter((row) => row.locale === locale);
    if (ofLocale.length)
      console.log(`${locale}: ${ofLocale.filter((row) => row.found).length} / ${ofLocale.length} found in the first 3`);
  }
  for (const row of rows.filter((entry) => !entry.found))
    console.log(`  not found: ${row.locale} ${row.query} → ${row.top.join(', ') || 'no results'}`);

  const timing = await browserTiming(distDir);
  console.log(
    `\nphone profile (CPU ${phoneCpuSlowdown}× slower, slow 4G ${slow4g.latency} ms / 1.6 Mbit/s, empty cache; median of ${timing.runs}):` +
      `\n  scripts loaded before interaction: ${timing.scriptsBefore}` +
      `\n  focus → first result of 电价: ${Math.round(timing.firstResultMs)} ms (${timing.firstResultRange.map(Math.round).join('–')} ms), ${kb(timing.bytes)} transferred` +
      `\n  next query (企业认证) → its results: ${Math.round(timing.nextResultMs)} ms`,
  );
}
