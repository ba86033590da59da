/**
 * `npm run bench -- js`: the JavaScript a signed-in first page costs, measured in Chromium.
 *
 * The real server serves a build (dist/, or BENCH_DIST); each demo account of the seed signs in
 * (person, enterprise user, partner branch and head office, operator, editor), and every
 * signed-in route of the route table is opened by each account allowed on it, in a new browser
 * context each time (an empty cache). Once the page has settled — its load-time islands
 * hydrated and no request in flight for a while — every script response is counted as DevTools
 * counts a transfer: its encoded (compressed, as sent) body plus its response headers. Printed per
 * page and account, largest first, beside the static reading of the same build that the CI
 * budget uses (scripts/page-weight.ts `signedInScripts`), then the largest script files and how
 * many pages load each.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page, type Response } from '@playwright/test';
import { ensureChromium } from '../scripts/chromium.ts';
import { kb, scriptHeaderBytes, signedInScriptBudget, signedInScripts } from '../scripts/page-weight.ts';
import { pageRoutes, type PageRoute } from '../src/lib/routes.ts';
import { demoAccounts, type DemoAccount } from '../src/server/seed/seed.ts';
import { freePort, startProcess, waitFor } from './server.ts';

/** A page opened with a query it needs to show its real content (an item to edit, an order). */
const exampleQueries: Readonly<Record<string, string>> = {
  '/studio/edit': '?path=news%2F20250108-platform-launch.md',
  '/studio/history': '?path=news%2F20250108-platform-launch.md',
};

/** How long the network must be quiet before a page counts as settled. */
const quietMs = 700;

export interface MeasuredPage {
  path: string;
  account: string;
  /** Bytes received for its scripts (bodies as sent + headers), the bodies alone, and how many scripts. */
  transferBytes: number;
  bytes: number;
  files: number;
  scripts: { url: string; bytes: number; headerBytes: number; encoding: string }[];
  /** The same page read statically from the build (the CI budget's figure). */
  staticTransferBytes: number;
  staticFiles: number;
}

/** The demo accounts allowed on a route: its role's, or (a session alone) the person and the enterprise user. */
function accountsFor(route: PageRoute): DemoAccount[] {
  const roles = route.role === undefined ? ['individual', 'enterprise'] : [route.role].flat();
  return demoAccounts.filter((account) => roles.includes(account.role));
}

/** Resolves once no request has been in flight for `quietMs` (requests started by islands as they mount included). */
async function settle(page: Page): Promise<void> {
  await page.waitForFunction(
    () => document.querySelectorAll('astro-island[ssr]:is([client="load"],[client="idle"])').length === 0,
    undefined,
    { timeout: 30_000 },
  );
  let inFlight = 0;
  let lastChange = Date.now();
  const started = () => ((inFlight += 1), (lastChange = Date.now()));
  const ended = () => ((inFlight = Math.max(0, inFlight - 1)), (lastChange = Date.now()));
  page.on('request', started);
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  await page.waitForLoadState('networkidle');
  while (inFlight > 0 || Date.now() - lastChange < quietMs) await page.waitForTimeout(100);
  page.off('request', started);
  page.off('requestfinished', ended);
  page.off('requestfailed', ended);
}

async function signIn(browser: Browser, origin: string, account: DemoAccount) {
  const context = await browser.newContext({ baseURL: origin, locale: 'zh-CN' });
  const response = await context.request.post('/api/front/system/login', {
    form: { userName: account.userName, password: account.password, deviceId: 'hgdweb', appCode: 'hgd' },
    headers: { 'X-Requested-With': 'XMLHttpRequest', Origin: origin },
  });
  const body = (await response.json()) as { code: number; message: string };
  if (body.code !== 200) throw new Error(`login of ${account.userName} refused: ${body.code} ${body.message}`);
  const state = await context.storageState();
  await context.close();
  return state;
}

/** An order of the enterprise demo account, for the order detail page (read off its order list). */
async function anOrderQuery(
  browser: Browser,
  origin: string,
  state: Awaited<ReturnType<typeof signIn>>,
): Promise<string> {
  const context = await browser.newContext({ baseURL: origin, locale: 'zh-CN', storageState: state });
  try {
    const page = await context.newPage();
    await page.goto('/person/order');
    const href = await page.locator('a[href*="orderNo="]').first().getAttribute('href', { timeout: 30_000 });
    return href ? new URL(href, origin).search : '';
  } finally {
    await context.close();
  }
}

export async function measureSignedInJs(distDir: string): Promise<MeasuredPage[]> {
  const executablePath = await ensureChromium();
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'hgd-bench-js-'));
  // A second factor is not what is measured: the privileged demo accounts sign in with a password alone.
  const server = startProcess(['src/server/main.ts'], {
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    STATIC_DIR: distDir,
    LOG_LEVEL: 'silent',
    MFA_REQUIRED_ROLES: 'none',
  });
  const browser = await chromium.launch({
    executablePath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic', '--no-first-run'],
  });
  const rows: MeasuredPage[] = [];
  try {
    await waitFor(`${origin}/api/health`, 120_000, (response) => response.status < 500);
    const states = new Map<string, Awaited<ReturnType<typeof signIn>>>();
    for (const account of demoAccounts) states.set(account.userName, await signIn(browser, origin, account));
    const company = demoAccounts.find((account) => account.role === 'enterprise');
    const queries: Record<string, string> = { ...exampleQueries };
    if (company) queries['/certify/order/detail'] = await anOrderQuery(browser, origin, states.get(company.userName)!);

    for (const route of pageRoutes.filter((r) => r.access !== 'public')) {
      const reading = signedInScripts(distDir, route.path);
      for (const account of accountsFor(route)) {
        const context = await browser.newContext({
          baseURL: origin,
          locale: 'zh-CN',
          storageState: states.get(account.userName)!,
        });
        const page = await context.newPage();
        const responses: Response[] = [];
        page.on('response', (response) => {
          if (response.request().resourceType() === 'script') responses.push(response);
        });
        await page.goto(`${route.path}${queries[route.path] ?? ''}`);
        await settle(page);
        const scripts = await Promise.all(
          responses.map(async (response) => {
            const sizes = await response.request().sizes();
            return {
              url: new URL(response.url()).pathname,
              bytes: sizes.responseBodySize,
              headerBytes: sizes.responseHeadersSize,
              encoding: (await response.headerValue('content-encoding')) ?? 'identity',
            };
          }),
        );
        const bytes = scripts.reduce((sum, script) => sum + script.bytes, 0);
        rows.push({
          path: route.path,
          account: account.userName,
          transferBytes: bytes + scripts.reduce((sum, script) => sum + script.headerBytes, 0),
          bytes,
          files: scripts.length,
          scripts,
          staticTransferBytes: reading.transferBytes,
          staticFiles: reading.files.length,
        });
        await context.close();
      }
    }
  } finally {
    await browser.close();
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
  return rows.sort((a, b) => b.transferBytes - a.transferBytes);
}

export function printSignedInJs(rows: MeasuredPage[]): void {
  const budget = kb(signedInScriptBudget);
  console.log(
    `\n## JavaScript on signed-in first pages (empty cache; KB received = compressed bodies + headers; budget ${budget} KB)`,
  );
  console.log(
    'page'.padEnd(32) +
      'account'.padEnd(15) +
      'browser KB'.padStart(11) +
      'bodies KB'.padStart(10) +
      'files'.padStart(6) +
      'static KB'.padStart(11) +
      'files'.padStart(6),
  );
  for (const row of rows) {
    const over = row.transferBytes > signedInScriptBudget ? ' ✗' : '';
    console.log(
      row.path.padEnd(32) +
        row.account.padEnd(15) +
        `${kb(row.transferBytes)}${over}`.padStart(11) +
        kb(row.bytes).padStart(10) +
        String(row.files).padStart(6) +
        kb(row.staticTransferBytes).padStart(11) +
        String(row.staticFiles).padStart(6),
    );
  }
  const scripts = rows.flatMap((row) => row.scripts);
  const encodings = [...new Set(scripts.map((script) => script.encoding))];
  const headerAverage = scripts.reduce((sum, script) => sum + script.headerBytes, 0) / Math.max(scripts.length, 1);
  console.log(
    `encodings seen: ${encodings.join(', ')}; response headers ${headerAverage.toFixed(0)} bytes a script on average (the static reading allows ${scriptHeaderBytes})`,
  );
  const apart = rows.filter(
    (row) => Math.abs(row.transferBytes - row.staticTransferBytes) > 2048 || row.files !== row.staticFiles,
  );
  console.log(
    apart.length
      ? `browser and static reading differ by more than 2 KB or in files on ${apart.length} rows`
      : 'browser and static reading agree within 2 KB and file for file on every row',
  );

  // The pieces worth cutting: the largest files, and on how many of the measured pages each loads.
  const files = new Map<string, { bytes: number; pages: Set<string> }>();
  for (const row of rows) {
    for (const script of row.scripts) {
      const entry = files.get(script.url) ?? { bytes: script.bytes, pages: new Set<string>() };
      entry.pages.add(row.path);
      files.set(script.url, entry);
    }
  }
  console.log('\nlargest script files (KB as sent, signed-in pages loading it)');
  for (const [url, entry] of [...files].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, 15)) {
    console.log(`${kb(entry.bytes).padStart(7)}  ${String(entry.pages.size).padStart(3)}  ${url}`);
  }
}
