/**
 * `client:intent` — hydrate an island on the first sign that the visitor is about to use it
 * (pointer over it, touch, focus, a key), never before. Public pages therefore load no
 * framework code until someone reaches for a header control.
 *
 * A click that lands before hydration is held and replayed once the island says it has mounted
 * (it dispatches `island:mounted`, see src/islands/useMountedSignal.ts); hydration may replace the
 * island's nodes, so the replay targets the node at the same position, not the original node.
 * Focus is given back the same way, but only when hydration took it away: when the element last
 * focused inside the island was replaced and focus fell to the page. A visitor who has tabbed on
 * while the code loaded keeps focus where they put it.
 *
 * `client:intent="signed-in"`: the same for visitors, but when the browser has a session (the
 * server's signed-in hint cookie) the island hydrates as soon as the browser is idle — the header's
 * bell shows a signed-in user's unread count on every page, and visitors still load nothing.
 */
import type { ClientDirective } from 'astro';
import { signedInHintCookieName } from '../lib/apiCodes.ts';

/** How long after hydration a held click may wait for the island's mount signal. */
const mountSignalGraceMs = 5000;

const intentEvents = ['pointerenter', 'pointerdown', 'touchstart', 'focusin', 'keydown'] as const;

/** Child-index path from `root` to `node`, to find "the same" node after re-rendering. */
function pathTo(root: Element, node: Element): number[] {
  const path: number[] = [];
  let current: Element | null = node;
  while (current && current !== root) {
    const parent: Element | null = current.parentElement;
    if (!parent) return [];
    path.unshift(Array.prototype.indexOf.call(parent.children, current));
    current = parent;
  }
  return path;
}

function nodeAt(root: Element, path: number[]): HTMLElement | null {
  let current: Element | undefined = root;
  for (const index of path) current = current?.children[index];
  return current instanceof HTMLElement ? current : null;
}

/** Whether the browser holds the server's signed-in hint; an editor's preview (a sandboxed page) may not read cookies at all. */
function hasSignedInHint(): boolean {
  try {
    return document.cookie.split(/;\s*/).some((cookie) => cookie.startsWith(`${signedInHintCookieName}=`));
  } catch {
    return false;
  }
}

/** Whether focus is on nothing: on the page itself, or on an element no longer in it. */
function focusIsLost(): boolean {
  const active = document.activeElement;
  return !active || active === document.body || !active.isConnected;
}

const intent: ClientDirective = (load, options, el) => {
  let started = false;
  let pendingClick: number[] | null = null;
  /** The element focused last while the island was not yet mounted, if it is inside the island. */
  let focused: { node: Element; path: number[] } | null = null;

  const onClick = (event: Event) => {
    if (!(event.target instanceof Element)) return;
    event.preventDefault();
    event.stopPropagation();
    pendingClick = pathTo(el, event.target);
    void start();
  };

  // Every focus move on the page until mounted: one out of the island forgets the one inside it.
  const onFocusIn = (event: Event) => {
    focused =
      event.target instanceof Element && el.contains(event.target)
        ? { node: event.target, path: pathTo(el, event.target) }
        : null;
  };

  const onIntent = (event: Event) => {
    if (event.type === 'focusin') onFocusIn(event);
    void start();
  };

  el.addEventListener(
    'island:mounted',
    () => {
      el.removeEventListener('click', onClick, true);
      document.removeEventListener('focusin', onFocusIn, true);
      // Only focus that hydration took (its element replaced, focus fell to the page) is given back.
      if (focused && !focused.node.isConnected && focusIsLost()) nodeAt(el, focused.path)?.focus();
      focused = null;
      if (pendingClick) nodeAt(el, pendingClick)?.click();
      pendingClick = null;
    },
    { once: true },
  );

  async function start() {
    if (started) return;
    started = true;
    for (const type of intentEvents) el.removeEventListener(type, onIntent);
    document.addEventListener('focusin', onFocusIn, true);
    const hydrate = await load();
    await hydrate();
    // An island that never signals would swallow clicks for good; stop holding them after a while.
    setTimeout(() => el.removeEventListener('click', onClick, true), mountSignalGraceMs);
  }

  el.addEventListener('click', onClick, true);
  for (const type of intentEvents) el.addEventListener(type, onIntent, { passive: true });
  if (options.value === 'signed-in' && hasSignedInHint()) {
    const idle = window.requestIdleCallback ?? ((run: () => void) => setTimeout(run, 200));
    idle(() => void start());
  }
};

export default intent;
