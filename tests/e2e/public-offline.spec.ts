/**
 * Offline mode (the spec's `pwa` setting) in a real browser. It needs a build made with offline
 * mode on, served by its own server, so it runs only when E2E_PWA_DIST names one:
 *
 *   PWA=true BUILD_LOCALES=zh-CN npx astro build --outDir /tmp/pwa-dist
 *   E2E_PWA_DIST=/tmp/pwa-dist E2E_PORT=4401 npm run test:e2e -- tests/e2e/public-offline.spec.ts
 *
 * The test serves a copy of that build, so it can publish a "new build" by changing the copy's
 * worker the way a real build does (a new build id).
 */
import { expect, test } from './support/test.ts';
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dictionaries } from '../../src/lib/i18n/index.ts';

const source = process.env['E2E_PWA_DIST'];
const port = Number(process.env['E2E_PWA_PORT'] ?? 4419);
const origin = `http://127.0.0.1:${port}`;
const t = dictionaries['zh-CN'];

test.describe('offline mode', () => {
  test.skip(!source, 'set E2E_PWA_DIST to a build made with PWA=true');
  test.describe.configure({ mode: 'serial' });

  let server: ChildProcess | undefined;
  let root = '';
  let dataDir = '';

  /** The server keeps file metadata in memory (a rebuild resets it); a fresh process sees a new build. */
  async function startServer() {
    server = spawn(process.execPath, ['src/server/main.ts'], {
      env: {
        ...process.env,
        HOST: '127.0.0.1',
        PORT: String(port),
        DATA_DIR: dataDir,
        STATIC_DIR: root,
        LOG_LEVEL: 'warn',
      },
      stdio: 'ignore',
    });
    for (let i = 0; i < 120; i += 1) {
      try {
        if ((await fetch(`${origin}/api/health`)).ok) return;
      } catch {
        /* not listening yet */
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    throw new Error('the offline-mode server did not start');
  }

  async function stopServer() {
    const running = server;
    if (!running || running.exitCode !== null) return;
    await new Promise((resolve) => {
      running.once('exit', resolve);
      running.kill();
    });
  }

  test.beforeAll(async ({}, testInfo) => {
    // Copying the offline build (npm test's: the zh-CN pages with their .br/.gz) takes a while on a busy machine.
    testInfo.setTimeout(120_000);
    root = mkdtempSync(join(tmpdir(), 'hgd-pwa-dist-'));
    dataDir = mkdtempSync(join(tmpdir(), 'hgd-pwa-data-'));
    cpSync(source ?? '', root, { recursive: true });
    rmSync(join(root, 'sw.js.br'), { force: true });
    rmSync(join(root, 'sw.js.gz'), { force: true });
    await startServer();
  });

  test.afterAll(async () => {
    await stopServer();
    rmSync(root, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('keeps visited pages, warns when offline, offers a refresh when a new build is published', async ({
    page,
    context,
  }) => {
    // Two server restarts and a worker update: more than the default 30 s on a busy CI machine.
    test.setTimeout(120_000);
    expect(readFileSync(join(root, 'sw.js'), 'utf8'), 'the build must be made with PWA=true').toContain(
      'offline mode, build',
    );
    await page.addInitScript(() => window.localStorage.setItem('locale', 'zh-CN'));
    await page.goto(`${origin}/welcome/home`);
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.goto(`${origin}/infomation/list`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(t['page.newsList.title']);

    await context.setOffline(true);
    await expect(page.getByText(t['site.offline.warning'])).toBeVisible();
    await page.goto(`${origin}/infomation/list`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(t['page.newsList.title']);
    await expect(page.getByText(t['site.offline.warning'])).toBeVisible();

    await context.setOffline(false);
    await expect(page.getByText(t['site.offline.warning'])).toBeHidden();
    // Publish a new build: its worker differs in its build id.
    const worker = join(root, 'sw.js');
    writeFileSync(worker, readFileSync(worker, 'utf8').replace(/const BUILD = "[^"]*"/, 'const BUILD = "next-build"'));
    // A new build is a new directory (npm run build): newer than the site recorded at first start.
    const now = new Date();
    utimesSync(root, now, now);
    await stopServer();
    await startServer();
    await page.goto(`${origin}/welcome/home`);
    await page.evaluate(async () => {
      await (await navigator.serviceWorker.getRegistration())?.update();
    });
    const prompt = page.getByRole('status').filter({ hasText: t['site.offline.updated'] });
    await expect(prompt).toBeVisible();
    // Listen before clicking: the reload can finish before a listener added afterwards exists.
    const reloaded = page.waitForEvent('load');
    await prompt.getByRole('button', { name: t['site.offline.refresh'] }).click();
    await reloaded;
    await expect(prompt).toBeHidden();
    expect(await page.evaluate(async () => (await caches.keys()).sort())).toEqual([
      'hgd-assets-next-build',
      'hgd-pages',
    ]);
  });
});
