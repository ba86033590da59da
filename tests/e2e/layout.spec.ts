/**
 * The layout at phone and desktop widths, in all five locales: one page of each layout (the public
 * home, news list and article, a product page with its plan table, the help centre, the login; a
 * person's orders; the operator's certification queue and orders; the studio's items; partner
 * statistics and trend), each as the demo account that sees it with data, at 360, 390 and 1280 px.
 *
 * What a visual review of phones found, as rules any page must keep:
 * - the document is never wider than the screen (a pager or a tab row pushing the page sideways);
 * - no table cell or heading is narrower than its shortest word, and for Chinese text narrower than
 *   two characters: CJK text may break between any two characters, so a squeezed auto-width table
 *   gave columns one character wide and names stacked vertically;
 * - no tab or menu label is cut: a label wider than its box only with an ellipsis, a label cut at
 *   the edge of a row only in a row that scrolls and shows a fade there, tab labels on one line
 *   and a tab list on one row;
 * - a table frame that scrolls sideways can be focused (a keyboard scrolls it) and has a name;
 * - one language per page: on a public page in en-US, id-ID or pt-BR, Chinese text (and Chinese
 *   alternative text, labels and titles) appears only inside an element marked as Chinese — content
 *   not translated yet, shown in its original (content/translations.ts) — never as the page's language.
 *
 * One test per account, so the two workers run side by side: one browser context signed in once,
 * one page visiting that account's pages locale after locale, each visit measured at the three
 * widths. With LAYOUT_SCREENSHOTS=<directory> it also saves the screenshots of docs/orders-ui.md ("Phones");
 * with CONTACT_SHEET=<directory>, the first screen of every page shape in every locale at 390 and
 * 1280 px, which `node scripts/contact-sheet.ts <directory>` lays out as the contact sheets of
 * docs/visual.md.
 */
import type { Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { expect, test } from './support/test.ts';
import { defaultLocale, locales, type Locale } from '../../src/lib/i18n/locales.ts';
import { localePath } from '../../src/lib/paths.ts';
import { demoAccounts } from '../../src/server/seed/seed.ts';
import { signIn, visitor, type Viewer } from './support/viewers.ts';

const widths = [
  { name: 'phone 360', width: 360, height: 780 },
  { name: 'phone 390', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 900 },
] as const;

/** Until a table has its rows (DataTable marks itself busy while it loads). */
const tableReady = 'table[aria-busy="false"] tbody tr';

interface Shape {
  name: string;
  path: string;
  /** What shows the page is complete (signed-in islands load their data after the first paint). */
  ready?: string;
  /** Saved as `<screenshot>-<locale>-<width>.png` when LAYOUT_SCREENSHOTS is set. */
  screenshot?: string;
}

const account = (userName: string): Viewer => {
  const found = demoAccounts.find((entry) => entry.userName === userName);
  if (!found) throw new Error(`no demo account ${userName}`);
  return { name: userName, account: found };
};

/**
 * `checkLanguage`: the pages' text is checked for one language per page (the public site's content;
 * signed-in pages show people's and enterprises' own names, which stay as they were registered).
 */
const sweeps: { viewer: Viewer; shapes: Shape[]; checkLanguage?: boolean }[] = [
  {
    viewer: visitor,
    shapes: [
      { name: 'home', path: '/welcome/home' },
      { name: 'news list', path: '/infomation/list' },
      { name: 'news article', path: '/infomation/detail/20250108-platform-launch' },
      { name: 'product with plan table', path: '/products/id1', ready: 'table tbody tr', screenshot: 'product' },
      { name: 'help centre', path: '/assistance' },
      { name: 'help document', path: '/assistance/place-an-order' },
      { name: 'package', path: '/products/id1/gd-fixed-2027', ready: 'table tbody tr' },
      { name: 'business item', path: '/business/energy-efficiency/gd-energy-audit' },
      { name: 'announcement', path: '/welcome/detail/notice-fraud-warning' },
      { name: 'login', path: '/user/login', ready: '[role="tablist"]' },
    ],
    checkLanguage: true,
  },
  {
    viewer: account('demo_company'),
    shapes: [{ name: 'my orders', path: '/person/order', ready: tableReady, screenshot: 'orders' }],
  },
  {
    viewer: account('demo_operator'),
    shapes: [
      { name: 'certification queue', path: '/ops/certifications', ready: tableReady, screenshot: 'certifications' },
      { name: 'operator orders', path: '/ops/orders', ready: tableReady },
    ],
  },
  {
    viewer: account('demo_editor'),
    shapes: [
      { name: 'studio items', path: '/studio/items?kind=set', ready: 'table tbody tr', screenshot: 'studio-items' },
    ],
  },
  {
    viewer: account('demo_bank'),
    shapes: [
      { name: 'partner statistics', path: '/partner/analysis/statistics', ready: tableReady, screenshot: 'statistics' },
      { name: 'partner trend', path: '/partner/analysis/trend', ready: tableReady },
    ],
  },
];

const screenshotDir = process.env.LAYOUT_SCREENSHOTS;
const contactSheetDir = process.env.CONTACT_SHEET;
/** A shape's name as a file name: `news article` → `news-article`. */
const slug = (name: string) => name.replace(/[^a-z0-9]+/gi, '-').toLowerCase();
const screenshotLocales: readonly Locale[] = ['zh-CN', 'id-ID'];
/** The screenshots' height: the top of the page (a phone's table and pager, a desktop's first screen), files under 150 KB. */
const screenshotHeight = (width: number) => (width > 800 ? 900 : 1600);
/** Time allowed per page visit (three widths measured), for the test's timeout: a few seconds, many more on a busy machine. */
const budgetPerVisitMs = 30_000;

/**
 * Everything on the page that breaks the rules above, in words. Runs in the page: the widths of
 * words are measured with a canvas in each text's own font.
 */
function layoutProblems(): string[] {
  const problems: string[] = [];
  const root = document.documentElement;
  if (root.scrollWidth > window.innerWidth)
    problems.push(`the page is ${root.scrollWidth} px wide in ${window.innerWidth} px`);

  const shown = (element: Element) =>
    element.checkVisibility({ visibilityProperty: true }) && element.getBoundingClientRect().width > 1;
  const name = (element: Element) =>
    `${element.tagName.toLowerCase()} "${(element.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40)}"`;
  const measure = document.createElement('canvas').getContext('2d');
  if (!measure) return ['no canvas to measure text with'];
  const wideScript = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
  const runs =
    /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+|[^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;

  /** The width the element's shortest word needs (two characters of CJK text), or 0 when it shows no word. */
  const shortestWord = (element: Element): number => {
    let need = Infinity;
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || !shown(parent)) continue;
      const style = getComputedStyle(parent);
      measure.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      for (const word of (node.textContent ?? '').split(/\s+/)) {
        for (const run of word.match(runs) ?? []) {
          if (!/[\p{L}\p{N}]/u.test(run)) continue;
          const sample = wideScript.test(run) ? [...run].slice(0, 2).join('') : run;
          need = Math.min(need, measure.measureText(sample).width);
        }
      }
    }
    return need === Infinity ? 0 : need;
  };
  const contentWidth = (element: Element) => {
    const style = getComputedStyle(element);
    const sides = ['paddingLeft', 'paddingRight', 'borderLeftWidth', 'borderRightWidth'] as const;
    return element.getBoundingClientRect().width - sides.reduce((sum, side) => sum + parseFloat(style[side]), 0);
  };

  for (const element of document.querySelectorAll('th, td, h1, h2, h3, h4, h5, h6')) {
    if (!shown(element)) continue;
    const need = shortestWord(element);
    const has = contentWidth(element);
    // Half a pixel for rounding.
    if (has + 0.5 < need)
      problems.push(`${name(element)} is ${has.toFixed(0)} px wide, its shortest word needs ${need.toFixed(0)} px`);
  }

  /** A fade on the element or the two boxes around it (a mask that hides the cut edge). */
  const fades = (element: Element) => {
    for (let at: Element | null = element, up = 0; at && up < 3; at = at.parentElement, up += 1) {
      const style = getComputedStyle(at);
      if ((style.maskImage || style.getPropertyValue('-webkit-mask-image') || 'none') !== 'none') return true;
    }
    return false;
  };
  const labelsOf = (row: Element) => [...row.querySelectorAll('a, button, [role="tab"]')].filter(shown);
  const lines = (element: Element) => {
    const range = document.createRange();
    range.selectNodeContents(element);
    return new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top)))
      .size;
  };
  for (const row of document.querySelectorAll('[role="tablist"], nav ul')) {
    if (!shown(row)) continue;
    const labels = labelsOf(row);
    if (labels.length === 0) continue;
    const tops = new Set(labels.map((label) => Math.round(label.getBoundingClientRect().top)));
    const tabs = row.getAttribute('role') === 'tablist';
    const horizontal =
      tabs ||
      (labels.length > 1 &&
        Math.abs(labels[0]!.getBoundingClientRect().top - labels[1]!.getBoundingClientRect().top) < 2);
    if (tabs && tops.size > 1) problems.push(`the tabs of ${name(row)} take ${tops.size} rows`);
    // What cuts the row: the row itself or the nearest box around it that clips, else the screen.
    let clip: Element | null = row;
    while (clip && clip !== document.body && getComputedStyle(clip).overflowX === 'visible') clip = clip.parentElement;
    if (clip === document.body) clip = null;
    const { left, right } = clip ? clip.getBoundingClientRect() : { left: 0, right: window.innerWidth };
    for (const label of labels) {
      const style = getComputedStyle(label);
      if (label.scrollWidth > label.clientWidth + 1 && style.textOverflow !== 'ellipsis')
        problems.push(`${name(label)} is cut inside its box without an ellipsis`);
      if (!horizontal) continue;
      if ((tabs || label.getAttribute('role') === 'tab' || row.matches('nav ul')) && lines(label) > 1)
        problems.push(`${name(label)} wraps onto ${lines(label)} lines`);
      const box = label.getBoundingClientRect();
      const cut = (box.left < left - 1 && box.right > left + 1) || (box.right > right + 1 && box.left < right - 1);
      if (cut && !fades(clip ?? row))
        problems.push(`${name(label)} is cut at the edge of ${name(row).slice(0, 30)} with no fade`);
    }
  }

  for (const frame of document.querySelectorAll('*')) {
    if (!frame.querySelector(':scope table') || !shown(frame)) continue;
    const overflow = getComputedStyle(frame).overflowX;
    if ((overflow !== 'auto' && overflow !== 'scroll') || frame.scrollWidth <= frame.clientWidth + 1) continue;
    const focusable = (frame as HTMLElement).tabIndex >= 0;
    const named = frame.hasAttribute('aria-label') || frame.hasAttribute('aria-labelledby');
    if (!focusable || !named)
      problems.push(
        `the scrolling frame of ${name(frame.querySelector('table') ?? frame)} is ${focusable ? '' : 'not focusable '}${named ? '' : 'without a name'}`,
      );
  }
  return problems;
}

/** Locales whose pages must hold no Chinese outside elements marked as Chinese. */
const alphabeticLocales: readonly Locale[] = ['en-US', 'id-ID', 'pt-BR'];

/**
 * Chinese on the page that is not marked as Chinese: text, and the alternative text, labels,
 * titles and placeholders a screen reader reads, whose nearest `lang` is not a Chinese one.
 * Runs in the page.
 */
function unmarkedChinese(): string[] {
  const han = /\p{Script=Han}/u;
  const chinese = (element: Element | null) =>
    (element?.closest('[lang]')?.getAttribute('lang') ?? '').startsWith('zh');
  const found: string[] = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest('script, style, template') || !han.test(node.textContent ?? '')) continue;
    if (!chinese(parent))
      found.push(`text "${(node.textContent ?? '').trim().slice(0, 40)}" in ${parent.tagName.toLowerCase()}`);
  }
  for (const element of document.body.querySelectorAll('[alt], [aria-label], [title], [placeholder]')) {
    for (const attribute of ['alt', 'aria-label', 'title', 'placeholder']) {
      const value = element.getAttribute(attribute);
      if (value && han.test(value) && !chinese(element))
        found.push(`${attribute} "${value.slice(0, 40)}" of ${element.tagName.toLowerCase()}`);
    }
  }
  return found;
}

async function settle(page: Page): Promise<void> {
  // Two frames: a resize has been laid out and painted.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

for (const { viewer, shapes, checkLanguage = false } of sweeps) {
  test(`layout: ${shapes.map((shape) => shape.name).join(', ')} as ${viewer.name}, 5 locales × phone and desktop`, async ({
    browser,
    baseURL,
  }) => {
    test.setTimeout(shapes.length * locales.length * budgetPerVisitMs);
    const context = await browser.newContext({ baseURL: baseURL!, viewport: widths[0] });
    try {
      // The address names the locale: keep each visit in it (as the accessibility sweep does).
      await context.addInitScript(
        ({ known, fallback }) => {
          const first = window.location.pathname.split('/')[1] ?? '';
          const locale = known.includes(first) ? first : fallback;
          window.localStorage.setItem('locale', locale);
          document.cookie = `locale=${locale}; Path=/`;
        },
        { known: locales as readonly string[], fallback: defaultLocale },
      );
      await signIn(context.request, baseURL!, viewer);
      const page = await context.newPage();
      const problems: string[] = [];
      const started = Date.now();
      for (const locale of locales) {
        for (const shape of shapes) {
          const address = localePath(locale, shape.path);
          await page.setViewportSize(widths[0]);
          await page.goto(address, { waitUntil: 'load' });
          if (shape.ready) await page.locator(shape.ready).first().waitFor({ timeout: 15_000 });
          if (checkLanguage && alphabeticLocales.includes(locale)) {
            for (const problem of await page.evaluate(unmarkedChinese))
              problems.push(`${address}: Chinese not marked as Chinese: ${problem}`);
          }
          for (const size of widths) {
            await page.setViewportSize(size);
            await settle(page);
            for (const problem of await page.evaluate(layoutProblems))
              problems.push(`${address} at ${size.name}: ${problem}`);
            if (contactSheetDir && size.width !== 360) {
              mkdirSync(contactSheetDir, { recursive: true });
              await page.screenshot({
                path: join(contactSheetDir, `${slug(shape.name)}--${locale}--${size.width}.png`),
              });
            }
            if (screenshotDir && shape.screenshot && screenshotLocales.includes(locale) && size.width !== 360) {
              mkdirSync(screenshotDir, { recursive: true });
              const shot = await page.screenshot({
                fullPage: true,
                clip: { x: 0, y: 0, width: size.width, height: screenshotHeight(size.width) },
              });
              // A 256-colour palette: a third of the size, the same look for flat interface colours.
              await sharp(shot)
                .png({ palette: true, compressionLevel: 9, effort: 10 })
                .toFile(join(screenshotDir, `${shape.screenshot}-${locale}-${size.width}.png`));
            }
          }
        }
      }
      const seconds = ((Date.now() - started) / 1000).toFixed(0);
      console.log(
        `layout as ${viewer.name}: ${shapes.length} pages × ${locales.length} locales × ${widths.length} widths in ${seconds} s, ${problems.length} problems`,
      );
      expect(problems, problems.join('\n')).toEqual([]);
    } finally {
      await context.close();
    }
  });
}
