/**
 * Focus stays where the keyboard put it while the header's islands wake up. They hydrate on
 * intent (src/integrations/intent-directive.ts): a Tab onto the region switch starts loading its
 * code, and by the time it mounts a fast typist has tabbed on; mounting must not pull focus back.
 *
 * On one page of each layout (each header and side-menu variant; read from the route table),
 * signed out for public pages and also signed in on the home page (the bell hydrates by itself
 * there), in a new browser context (empty cache, so loading takes its real time), Tab is pressed at
 * full speed with no wait between presses; after each press the focused element is recorded and
 * placed in document order against the one before. Focus must only move forward until it leaves
 * the page (wraps round).
 */
import type { Page } from '@playwright/test';
import { expect, test } from './support/test.ts';
import { pageRoutes, type LayoutName } from '../../src/lib/routes.ts';
import { sitePages } from './support/sitePages.ts';
import { canOpen, signIn, viewers, visitor, type Viewer } from './support/viewers.ts';

/** More presses than any header has stops, so the walk goes on into the page. */
const presses = 36;

interface Step {
  /** Tag, then aria-label or text, then its child-index path from <html>. */
  focused: string;
  /** Where it is against the element focused before this press. */
  order: 'first' | 'forward' | 'within' | 'back' | 'same' | 'left the page' | 'not comparable';
}

/** Records the focused element after a press (runs in the page; state kept on `window`). */
function recordFocus(): Step {
  interface Record {
    node: Element;
    path: number[];
  }
  const state = window as unknown as { focusWalkPrevious?: Record };
  const pathOf = (node: Element): number[] => {
    const path: number[] = [];
    for (
      let current: Element | null = node;
      current && current !== document.documentElement;
      current = current.parentElement
    ) {
      const parent: Element | null = current.parentElement;
      if (!parent) return [];
      path.unshift(Array.prototype.indexOf.call(parent.children, current));
    }
    return path;
  };
  const nodeAt = (path: number[]): Element | undefined => {
    let current: Element | undefined = document.documentElement;
    for (const index of path) current = current?.children[index];
    return current;
  };
  const active = document.activeElement;
  if (!active || active === document.body) {
    delete state.focusWalkPrevious;
    return { focused: '(none)', order: 'left the page' };
  }
  const path = pathOf(active);
  const name = (active.getAttribute('aria-label') ?? active.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40);
  const focused = `<${active.tagName.toLowerCase()}> "${name}" @${path.join('.')}`;
  const previous = state.focusWalkPrevious;
  state.focusWalkPrevious = { node: active, path };
  if (!previous) return { focused, order: 'first' };
  // Hydration may have replaced the element focused before: compare with the one now at its place.
  const before = previous.node.isConnected ? previous.node : nodeAt(previous.path);
  if (!before) return { focused, order: 'not comparable' };
  // A date or time field has a stop per part (year, month, ...): Tab walks them on the same element.
  if (before === active)
    return {
      focused,
      order:
        active instanceof HTMLInputElement && /^(date|month|week|time|datetime-local)$/.test(active.type)
          ? 'within'
          : 'same',
    };
  const position = before.compareDocumentPosition(active);
  if (position & Node.DOCUMENT_POSITION_FOLLOWING) return { focused, order: 'forward' };
  if (position & Node.DOCUMENT_POSITION_PRECEDING) return { focused, order: 'back' };
  return { focused, order: 'not comparable' };
}

/** Presses Tab `presses` times as fast as the browser takes them, recording focus after each. */
async function tabWalk(page: Page): Promise<Step[]> {
  const steps: Step[] = [];
  for (let press = 0; press < presses; press += 1) {
    await page.keyboard.press('Tab');
    steps.push(await page.evaluate(recordFocus));
  }
  return steps;
}

/** The steps until focus first leaves the page (after that, Tab starts again from the top). */
function untilWrapped(steps: Step[]): Step[] {
  const left = steps.findIndex((step) => step.order === 'left the page');
  return left === -1 ? steps : steps.slice(0, left);
}

interface Walk {
  path: string;
  viewer: Viewer;
}

/** One page of each layout, as the first viewer who may open it; a public page's deeper shape too, and the home page signed in. */
function walks(): Walk[] {
  const firstOfLayout = new Map<LayoutName, string>();
  for (const route of pageRoutes) if (!firstOfLayout.has(route.layout)) firstOfLayout.set(route.layout, route.path);
  const list: Walk[] = [...firstOfLayout.values()].map((path) => {
    const route = pageRoutes.find((candidate) => candidate.path === path)!;
    return { path, viewer: viewers.find((viewer) => canOpen(viewer, route))! };
  });
  const detail = sitePages().find((page) => page.route.key === 'newsDetail' && page.path !== page.route.path);
  if (detail) list.push({ path: detail.path, viewer: visitor });
  const home = pageRoutes[0]!;
  list.push({ path: home.path, viewer: viewers.find((viewer) => viewer.account)! });
  return list;
}

for (const { path, viewer } of walks()) {
  test(`Tab at full speed only moves focus forward while the header hydrates: ${path} as ${viewer.name}`, async ({
    browser,
    baseURL,
  }) => {
    // A new context each time: an empty cache, so the islands' code arrives as slowly as on a first visit.
    const context = await browser.newContext({ baseURL: baseURL!, locale: 'zh-CN' });
    try {
      await signIn(context.request, baseURL!, viewer);
      const page = await context.newPage();
      await page.goto(path, { waitUntil: 'load' });
      expect(new URL(page.url()).pathname, `${path} stayed on its page`).toBe(path);
      const steps = await tabWalk(page);
      const walked = untilWrapped(steps);
      const trail = steps
        .map((step, index) => `${String(index + 1).padStart(2)} ${step.order.padEnd(14)} ${step.focused}`)
        .join('\n');
      expect(walked.length, `focus reached the page at all:\n${trail}`).toBeGreaterThan(3);
      const wrong = walked.filter((step) => !['first', 'forward', 'within'].includes(step.order));
      expect(wrong, `focus moved back or stood still:\n${trail}`).toEqual([]);
    } finally {
      await context.close();
    }
  });
}
