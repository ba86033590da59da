/**
 * Lighthouse (mobile, its default form factor and simulated throttling) on the public pages that
 * matter most — home, news list, help — against the real server serving the current `dist/`.
 * Debian's Chromium (CHROMIUM_PATH or /usr/bin/chromium) is started here with the flags measured
 * in ARCHITECTURE.md; Lighthouse attaches to it over the DevTools port. About 12 s a page.
 *
 * The site's thresholds: performance ≥ 98, accessibility 100, best practices ≥ 95, SEO 100.
 * A page below one of them is marked ✗ and the bench exits non-zero.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import lighthouse from 'lighthouse';
import { ensureChromium } from '../scripts/chromium.ts';
import { freePort, waitFor } from './server.ts';

/** Pages measured, zh-CN and the default region (Guangdong). */
export const lighthousePages = ['/welcome/home', '/infomation/list', '/assistance'] as const;

export const lighthouseThresholds = {
  performance: 98,
  accessibility: 100,
  'best-practices': 95,
  seo: 100,
} as const;
type Category = keyof typeof lighthouseThresholds;
const categories = Object.keys(lighthouseThresholds) as Category[];

const chromiumFlags = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
  // The audience's browser language. Otherwise Chromium's en-US makes the pages' pre-paint
  // locale rule move the visitor to /en-US/… first, and Lighthouse would measure two page loads.
  '--lang=zh-CN',
  '--accept-lang=zh-CN',
];

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

export interface LighthouseRow {
  page: string;
  scores: Record<Category, number>;
  passed: boolean;
  /** Audits that cost points, for the categories below their threshold. */
  failures: string[];
}

export async function benchLighthouse(distDir: string): Promise<LighthouseRow[]> {
  const chromium = await ensureChromium();
  const serverPort = await freePort();
  const devtoolsPort = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'hgd-lighthouse-'));
  const profile = mkdtempSync(join(tmpdir(), 'hgd-lighthouse-profile-'));
  const server = spawn(process.execPath, ['src/server/main.ts'], {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(serverPort),
      DATA_DIR: dataDir,
      STATIC_DIR: distDir,
      LOG_LEVEL: 'silent',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const browser = spawn(
    chromium,
    [...chromiumFlags, `--remote-debugging-port=${devtoolsPort}`, `--user-data-dir=${profile}`, 'about:blank'],
    {
      stdio: 'ignore',
    },
  );
  const origin = `http://127.0.0.1:${serverPort}`;
  const rows: LighthouseRow[] = [];
  try {
    // A fresh server migrates and seeds a new database first: allow for a busy machine.
    const answered = (response: Response) => response.status < 500;
    await Promise.all([
      waitFor(`${origin}/api/health`, 120_000, answered),
      waitFor(`http://127.0.0.1:${devtoolsPort}/json/version`, 120_000, answered),
    ]);
    for (const page of lighthousePages) {
      const result = await lighthouse(`${origin}${page}`, {
        port: devtoolsPort,
        output: 'json',
        logLevel: 'error',
        onlyCategories: [...categories],
      });
      if (!result) throw new Error(`Lighthouse returned nothing for ${page}`);
      const { lhr } = result;
      const scores = Object.fromEntries(
        categories.map((category) => [category, Math.round((lhr.categories[category]?.score ?? 0) * 100)]),
      ) as Record<Category, number>;
      const below = categories.filter((category) => scores[category] < lighthouseThresholds[category]);
      const failures = below.flatMap((category) =>
        (lhr.categories[category]?.auditRefs ?? [])
          .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
          .map((ref) => `${category}: ${ref.id} (${lhr.audits[ref.id]?.displayValue ?? lhr.audits[ref.id]?.score})`),
      );
      rows.push({ page, scores, passed: below.length === 0, failures });
    }
  } finally {
    await Promise.all([stop(browser), stop(server)]);
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(profile, { recursive: true, force: true });
  }
  return rows;
}

export function printLighthouse(rows: LighthouseRow[]): void {
  const limits = categories
    .map((c) => `${c} ${c === 'accessibility' || c === 'seo' ? '=' : '≥'} ${lighthouseThresholds[c]}`)
    .join(', ');
  console.log(`\n## Lighthouse, mobile (${limits})`);
  console.log('page'.padEnd(22) + categories.map((c) => c.padStart(16)).join('') + '  ok');
  for (const row of rows) {
    const cells = categories.map((c) =>
      `${row.scores[c]}${row.scores[c] < lighthouseThresholds[c] ? ' ✗' : ''}`.padStart(16),
    );
    console.log(row.page.padEnd(22) + cells.join('') + `  ${row.passed ? '✓' : '✗'}`);
    for (const failure of row.failures) console.log(`    ${failure}`);
  }
}
