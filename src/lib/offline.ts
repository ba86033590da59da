/**
 * Offline mode (the spec's `pwa` setting; src/lib/layoutSettings.ts). Two pieces of text, both
 * tested in tests/unit/offline.test.ts:
 *
 * - `serviceWorkerSource(buildId)`: a small hand-written service worker. Pages are fetched from
 *   the network first and every page visited is kept, so it can be shown when the network is
 *   down; hashed assets (`/_astro/*`) are kept on first use and served from the cache (their names
 *   change when they do); other files are served from the cache while a fresh copy is fetched;
 *   `/api` is never touched. Each build has its own id inside the worker, so publishing a build
 *   changes the worker's bytes: the browser installs the new one beside the old one and the page
 *   offers a refresh (it activates only when the visitor agrees).
 * - `killSwitchWorkerSource()`: the worker served when offline mode is off: it removes its caches
 *   and unregisters itself, so a visitor of an earlier offline-mode build is not left behind.
 * - `registerScript` / `unregisterScript`: the inline page lines for each case.
 */

/** Cache names; pages survive new builds (visited pages stay readable), assets are per build. */
export const pageCache = 'hgd-pages';
export const assetCachePrefix = 'hgd-assets-';
/** How many visited pages are kept (oldest dropped first). */
export const maxKeptPages = 60;

export function serviceWorkerSource(buildId: string): string {
  return `/* 汇购电 offline mode, build ${buildId} */
const BUILD = ${JSON.stringify(buildId)};
const PAGES = ${JSON.stringify(pageCache)};
const ASSETS = ${JSON.stringify(assetCachePrefix)} + BUILD;
const MAX_PAGES = ${maxKeptPages};

// No skipWaiting on install: a new build's worker waits for the visitor's go-ahead (the page's
// refresh button); the first worker a browser sees activates at once anyway.
self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(${JSON.stringify(assetCachePrefix)}) && name !== ASSETS) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener('message', (event) => {
  if (event.data === 'skip-waiting') self.skipWaiting();
});

async function keepPage(request, response) {
  const cache = await caches.open(PAGES);
  await cache.put(request, response);
  const keys = await cache.keys();
  for (const old of keys.slice(0, Math.max(0, keys.length - MAX_PAGES))) await cache.delete(old);
}

// A page shown from the cache because the network failed says so to that page: navigator.onLine
// is true on any network that is up but leads nowhere, and on a document a browser opened offline.
async function tellOffline(clientId) {
  for (let i = 0; i < 50 && clientId; i += 1) {
    const client = await self.clients.get(clientId);
    if (client) return client.postMessage('offline');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function page(event) {
  const { request } = event;
  try {
    const response = await fetch(request);
    if (response.ok) await keepPage(request, response.clone());
    return response;
  } catch (error) {
    const cache = await caches.open(PAGES);
    const kept = (await cache.match(request, { ignoreSearch: true })) || (await cache.match(new URL('/welcome/home', self.location.origin).href));
    if (!kept) throw error;
    event.waitUntil(tellOffline(event.resultingClientId));
    return kept;
  }
}

async function asset(request) {
  const cache = await caches.open(ASSETS);
  const kept = await cache.match(request);
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

async function staleWhileRevalidate(event) {
  const cache = await caches.open(PAGES);
  const kept = await cache.match(event.request);
  const fresh = fetch(event.request).then(async (response) => {
    if (response.ok) await cache.put(event.request, response.clone());
    return response;
  });
  if (kept) {
    event.waitUntil(fresh.catch(() => undefined));
    return kept;
  }
  return fresh;
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin || url.pathname.startsWith('/api/')) return;
  if (request.mode === 'navigate') event.respondWith(page(event));
  else if (url.pathname.startsWith('/_astro/')) event.respondWith(asset(request));
  else if (url.pathname !== '/sw.js') event.respondWith(staleWhileRevalidate(event));
});
`;
}

export function killSwitchWorkerSource(): string {
  return `/* 汇购电: offline mode is off; this worker removes itself and its caches. */
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) if (name.startsWith('hgd-')) await caches.delete(name);
    await self.registration.unregister();
  })());
});
`;
}

/**
 * Inline lines on every page when offline mode is off: unregister any worker left from an earlier
 * build. Both page scripts catch what they throw: in an editor's preview (a sandboxed, opaque
 * origin: src/server/routes/studioFiles.ts) merely reading `navigator.serviceWorker` throws.
 */
export const unregisterScript = `try{if("serviceWorker"in navigator)navigator.serviceWorker.getRegistrations().then(function(r){r.forEach(function(x){x.unregister()})}).catch(function(){})}catch(e){}`;

/**
 * Inline lines on every page when offline mode is on: register /sw.js, show the offline warning
 * while the network is down or when the worker says it showed this page from its cache (then
 * until the API answers again: no 'online' event comes to a page that never saw it go), and the new-content prompt when a new build's worker is waiting. The
 * page reloads only after the visitor asked for it (the first worker's `clients.claim()` changes
 * the controller too, and must not reload a page being read).
 * Elements: `[data-offline-warning]`, `[data-update-prompt]` with a `button` inside.
 */
export const registerScript = `(function(n,d,w){try{if(!("serviceWorker"in n))return;
var off=d.querySelector("[data-offline-warning]"),up=d.querySelector("[data-update-prompt]");
function net(){if(off)off.hidden=n.onLine}w.addEventListener("online",net);w.addEventListener("offline",net);net();
n.serviceWorker.addEventListener("message",function(e){if(e.data!=="offline"||!off)return;off.hidden=false;
var t=w.setInterval(function(){fetch("/api/health/live",{credentials:"omit",cache:"no-store"}).then(function(r){if(r.ok){off.hidden=true;w.clearInterval(t)}}).catch(function(){})},3000)});
var asked=false;n.serviceWorker.addEventListener("controllerchange",function(){if(!asked)return;asked=false;w.location.reload()});
function offer(reg){if(!up||!reg.waiting||!n.serviceWorker.controller)return;up.hidden=false;
up.querySelector("button").onclick=function(){if(reg.waiting){asked=true;reg.waiting.postMessage("skip-waiting")}}}
n.serviceWorker.register("/sw.js").then(function(reg){offer(reg);
reg.addEventListener("updatefound",function(){var s=reg.installing;if(s)s.addEventListener("statechange",function(){if(s.state==="installed")offer(reg)})});
d.addEventListener("visibilitychange",function(){if(d.visibilityState==="visible")reg.update().catch(function(){})})}).catch(function(){})}catch(e){}})(navigator,document,window)`.replace(
  /\n/g,
  '',
);
