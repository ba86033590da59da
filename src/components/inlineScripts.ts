/**
 * The inline scripts that are the same on every page, in one list: astro.config.mjs allows
 * exactly these texts (their hashes) in every page's Content-Security-Policy, so the pages run no
 * other inline code. A script reads what varies from its page's markup — its own `data-*`
 * attributes through `document.currentScript` — so its text, and so its hash, never changes.
 *
 * Scripts that carry their page's own data (the region and query-form pre-paint lines, a redirect
 * page's target) are not here: the component that writes the page's head hashes them for that
 * page alone (BaseLayout.astro, pages/[...from].astro).
 */
import { careAttribute, careChangeEvent, careStorageKey } from '../lib/careMode.ts';
import { localeStorageKey } from '../lib/i18n/locales.ts';
import { prepaintLocaleScript } from '../lib/i18n/prepaint.ts';
import { FLASH_STORAGE_KEY } from '../lib/flash.ts';
import { layoutSettings } from '../lib/layoutSettings.ts';
import { registerScript, unregisterScript } from '../lib/offline.ts';
import { areaStorageKey } from '../lib/regionPrepaint.ts';
import { transformSync } from 'esbuild';

/**
 * A script as the pages carry it: minified by esbuild when this module loads (at build), so the
 * source stays readable and every public page's HTML is 0.6 KB gzip lighter. The hashes in the
 * pages' policy are of these minified texts.
 */
function minified(source: string): string {
  return transformSync(source, { minify: true, loader: 'js' }).code.trim();
}

/** Offline mode registers the service worker; off, any old one is unregistered (src/lib/offline.ts). */
export const offlineScript = layoutSettings.pwa ? registerScript : unregisterScript;

/** The header's native disclosures (menu, products, language): Escape closes one and gives focus back to its summary; a click elsewhere closes it. */
export const headerDisclosureScript = minified(String.raw`document.addEventListener('keydown', function (e) {
  const d = e.key === 'Escape' && e.target instanceof Element && e.target.closest('header details[open]');
  if (!d) return;
  d.open = false;
  d.querySelector('summary')?.focus();
});
document.addEventListener('click', function (e) {
  document.querySelectorAll('header details[open]').forEach(function (d) {
    if (!(e.target instanceof Node && d.contains(e.target))) d.open = false;
  });
});`);

/**
 * Shared pages are the same in every region: the stored area's name goes into the area selector
 * before paint. `data-names`: area code → short name in the page's language.
 */
export const storedAreaNameScript = minified(
  String.raw`try{const n=JSON.parse(document.currentScript.dataset.names),a=localStorage.getItem(${JSON.stringify(areaStorageKey)}),e=document.querySelector('[data-area-name]');if(e&&Object.prototype.hasOwnProperty.call(n,a))e.textContent=n[a]}catch{/* storage disabled: the default name stays */}`,
);

/** The language switch's links store the choice (localStorage + cookie) before they are followed, and keep query and hash. */
export const languageChoiceScript = minified(String.raw`document.addEventListener('click', function (e) {
  const a = e.target instanceof Element && e.target.closest('[data-language-switch] a[data-locale]');
  if (!a) return;
  const key = ${JSON.stringify(localeStorageKey)}, l = a.getAttribute('data-locale');
  try { localStorage.setItem(key, l); } catch { /* storage disabled: the cookie still carries the choice */ }
  try { document.cookie = key + '=' + l + '; Path=/; Max-Age=31536000; SameSite=Lax'; } catch { /* no cookies (a sandboxed preview): the link still leads there */ }
  a.href = a.getAttribute('href') + location.search + location.hash;
});`);

/** Care mode before first paint (src/lib/careMode.ts): in the head, right after the language rule. */
export const prepaintCareScript = `try{localStorage.getItem(${JSON.stringify(careStorageKey)})==="1"&&document.documentElement.setAttribute(${JSON.stringify(careAttribute)},"")}catch(e){}`;

/**
 * The care-mode switches (the header's button, the phone menu's entry): each says whether the mode
 * is on (aria-pressed); pressing one turns it on or off at once, stores the choice and tells the
 * page (the banner stops).
 */
export const careSwitchScript = minified(String.raw`(function () {
  const root = document.documentElement, key = ${JSON.stringify(careStorageKey)}, name = ${JSON.stringify(careAttribute)};
  const show = () => document.querySelectorAll('[data-care-switch]').forEach((b) => b.setAttribute('aria-pressed', String(root.hasAttribute(name))));
  document.addEventListener('click', (e) => {
    if (!(e.target instanceof Element && e.target.closest('[data-care-switch]'))) return;
    const on = !root.hasAttribute(name);
    root.toggleAttribute(name, on);
    try { on ? localStorage.setItem(key, '1') : localStorage.removeItem(key); } catch { /* storage disabled: on for this page only */ }
    show();
    document.dispatchEvent(new Event(${JSON.stringify(careChangeEvent)}));
  });
  show();
})();`);

/**
 * The message a previous page left for this one (src/lib/flash.ts), as a toast with the request
 * client's markup (notify.ts), joining its container when one exists. `data-close-label`: the
 * close button's name in the page's language.
 */
export const flashMessageScript = minified(String.raw`(function () {
  const closeLabel = document.currentScript.dataset.closeLabel;
  const storageKey = ${JSON.stringify(FLASH_STORAGE_KEY)};
  let flash;
  try {
    flash = JSON.parse(sessionStorage.getItem(storageKey) || 'null');
    sessionStorage.removeItem(storageKey);
  } catch {
    return;
  }
  if (!flash || typeof flash.text !== 'string' || !flash.text) return;
  const show = function () {
    let box = document.querySelector('[data-hgd-toasts="message"]');
    const created = !box;
    if (created) {
      box = document.createElement('div');
      box.setAttribute('data-hgd-toasts', 'message');
      box.className = 'toast toast-bottom toast-center';
      box.setAttribute('aria-live', 'polite');
      box.style.zIndex = '1000';
      box.style.pointerEvents = 'none';
      document.body.append(box);
    }
    const item = document.createElement('div');
    item.className = (flash.kind === 'info' ? 'alert alert-info' : 'alert alert-success') + ' max-w-md shadow-lg';
    item.setAttribute('role', 'status');
    item.style.pointerEvents = 'auto';
    const text = document.createElement('span');
    text.textContent = flash.text;
    const close = document.createElement('button');
    close.type = 'button';
    close.className = 'btn btn-ghost btn-xs btn-circle';
    close.setAttribute('aria-label', closeLabel);
    close.textContent = '✕';
    close.addEventListener('click', function () { item.remove(); });
    item.append(text, close);
    // A live region announces what is added to it, not what it was born with: when the
    // container is new, add the toast a moment later. It goes after 3 s, as other toasts do.
    setTimeout(function () {
      box.append(item);
      setTimeout(function () { item.remove(); }, 3000);
    }, created ? 100 : 0);
  };
  if (document.body) show();
  else document.addEventListener('DOMContentLoaded', show, { once: true });
})();`);

/** `<site-tabs>` (site/Tabs.astro): clicks, arrow keys / Home / End, and the tab whose panel the address's hash names. */
export const tabsScript =
  minified(String.raw`if (!customElements.get('site-tabs')) customElements.define('site-tabs', class extends HTMLElement {
  connectedCallback() {
    const tabs = [...this.querySelectorAll(':scope > [role=tablist] > [role=tab]')];
    const select = (tab, focus) => {
      for (const t of tabs) {
        const on = t === tab;
        t.setAttribute('aria-selected', String(on));
        t.tabIndex = on ? 0 : -1;
        const panel = document.getElementById(t.getAttribute('aria-controls'));
        if (panel) panel.hidden = !on;
      }
      if (focus) tab.focus();
    };
    this.addEventListener('click', (e) => {
      const tab = e.target instanceof Element && e.target.closest('[role=tab]');
      if (tab && tabs.includes(tab)) select(tab, false);
    });
    this.addEventListener('keydown', (e) => {
      const i = tabs.indexOf(document.activeElement);
      if (i < 0) return;
      const next = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: tabs.length - 1 }[e.key];
      if (next === undefined) return;
      e.preventDefault();
      select(tabs[(next + tabs.length) % tabs.length], true);
    });
    const id = decodeURIComponent(location.hash.slice(1));
    const wanted = id && tabs.find((t) => t.getAttribute('aria-controls') === id);
    if (wanted) select(wanted, false);
  }
});`);

/**
 * `<site-carousel>` (site/Carousel.astro). Rotation is on unless the visitor asked for less
 * motion (the button turns it off for good); it starts with the visitor's first sign of presence
 * (pointer, touch, scroll, key) and stops while the tab is hidden, so no slide moves before anyone
 * looks, nor for a background tab. Slide changes are announced only when they are the visitor's
 * own doing.
 */
export const carouselScript =
  minified(String.raw`if (!customElements.get('site-carousel')) customElements.define('site-carousel', class extends HTMLElement {
  connectedCallback() {
    const slides = [...this.querySelectorAll('[data-slide]')];
    if (slides.length < 2) return;
    const live = this.querySelector('[data-slides]');
    const rotate = this.querySelector('[data-rotate]');
    const counter = this.querySelector('[data-counter]');
    let index = 0, timer = 0, hovered = false, focused = false;
    let playing = !matchMedia('(prefers-reduced-motion: reduce)').matches;
    const care = () => document.documentElement.hasAttribute(${JSON.stringify(careAttribute)});
    let present = false;
    const arrive = () => {
      if (present) return;
      present = true;
      for (const type of presence) removeEventListener(type, arrive);
      sync();
    };
    const presence = ['pointermove', 'pointerdown', 'touchstart', 'scroll', 'keydown'];
    for (const type of presence) addEventListener(type, arrive, { passive: true });
    document.addEventListener('visibilitychange', () => sync());
    document.addEventListener(${JSON.stringify(careChangeEvent)}, () => sync());
    const show = (i) => {
      index = (i + slides.length) % slides.length;
      slides.forEach((s, n) => { s.hidden = n !== index; });
      counter.textContent = index + 1 + ' / ' + slides.length;
    };
    const sync = () => {
      clearInterval(timer);
      const running = playing && !care() && present && !hovered && !focused && document.visibilityState === 'visible';
      live.setAttribute('aria-live', running ? 'off' : 'polite');
      if (running) timer = setInterval(() => show(index + 1), 6000);
      rotate.setAttribute('aria-label', rotate.dataset[playing ? 'pauseLabel' : 'playLabel']);
      rotate.querySelector('[data-icon-pause]').classList.toggle('hidden', !playing);
      rotate.querySelector('[data-icon-play]').classList.toggle('hidden', playing);
    };
    this.addEventListener('click', (e) => {
      const button = e.target instanceof Element && e.target.closest('button');
      if (!button) return;
      if (button === rotate) playing = !playing;
      else if (button.dataset.step) show(index + Number(button.dataset.step));
      sync();
    });
    this.addEventListener('mouseenter', () => { hovered = true; sync(); });
    this.addEventListener('mouseleave', () => { hovered = false; sync(); });
    this.addEventListener('focusin', () => { focused = true; sync(); });
    this.addEventListener('focusout', (e) => { if (!this.contains(e.relatedTarget)) { focused = false; sync(); } });
    sync();
  }
});`);

/**
 * The release line of the operator console's footer (Footer.astro): the version and commit of the
 * API answering, from its liveness call (routes/health.ts) — what an operator reports a fault
 * against, and during a rollout not always what built the page. The line before the script
 * carries the message in `data-template` (`{version}`, `{commit}`) and stays hidden without an
 * answer. No cookie is sent: the call needs no session. Not in the list below: only the console's
 * pages carry it, so only their policies list it (BaseLayout.astro), and the public pages' HTML
 * budget pays nothing for it.
 */
export const releaseLineScript = minified(String.raw`(function () {
  const line = document.currentScript.previousElementSibling;
  fetch('/api/health/live', { credentials: 'omit' })
    .then(function (response) { return response.ok ? response.json() : null; })
    .then(function (body) {
      const data = body && body.data;
      if (!data || typeof data.version !== 'string' || typeof data.commit !== 'string') return;
      line.textContent = line.dataset.template.replace('{version}', data.version).replace('{commit}', data.commit.slice(0, 7));
      line.hidden = false;
    })
    .catch(function () { /* no answer: the line stays hidden */ });
})();`);

/** Every script above, and the language rule before first paint (src/lib/i18n/prepaint.ts). */
export const constantInlineScripts: readonly string[] = [
  prepaintLocaleScript,
  prepaintCareScript,
  careSwitchScript,
  offlineScript,
  headerDisclosureScript,
  storedAreaNameScript,
  languageChoiceScript,
  flashMessageScript,
  tabsScript,
  carouselScript,
];
