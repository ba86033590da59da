/** `npm run test:e2e`: build if needed, make sure Chromium is there, run the Playwright suite. */
import { ensureChromium } from './chromium.ts';
import { buildIfStale, run } from './run.ts';

await buildIfStale();
const chromium = await ensureChromium();
process.exitCode = await run('playwright', ['test', ...process.argv.slice(2)], {
  CHROMIUM_PATH: chromium,
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
});
