import { describe, expect, it } from 'vitest';
import { runInNewContext } from 'node:vm';
import { pwaEnabled } from '../../src/lib/layoutSettings.ts';
import {
  killSwitchWorkerSource,
  registerScript,
  serviceWorkerSource,
  unregisterScript,
} from '../../src/lib/offline.ts';

/** A minimal Cache Storage keyed by URL. */
function fakeCaches() {
  const stores = new Map<string, Map<string, Response>>();
  const open = async (name: string) => {
    if (!stores.has(name)) stores.set(name, new Map());
    const store = stores.get(name) as Map<string, Response>;
    const key = (request: Request | string) => new URL(typeof request === 'string' ? request : request.url).href;
    return {
      put: async (request: Request | string, response: Response) => void store.set(key(request), response),
      match: async (request: Request | string, options?: { ignoreSearch?: boolean }) => {
        const wanted = new URL(key(request));
        if (options?.ignoreSearch) wanted.search = '';
        return store.get(wanted.href)?.clone();
      },
      keys: async () => [...store.keys()].map((url) => new Request(url)),
      delete: async (request: Request | string) => store.delete(key(request)),
    };
  };
  return {
    stores,
    api: { open, keys: async () => [...stores.keys()], delete: async (name: string) => stores.delete(name) },
  };
}

/** Loads a worker source into a fake service-worker scope; returns its listeners. */
function loadWorker(source: string, fetchImpl: (request: Request) => Promise<Response>) {
  const listeners = new Map<string, (event: unknown) => void>();
  const caches = fakeCaches();
  const registration = {
    unregistered: false,
    unregister: async () => {
      registration.unregistered = true;
      return true;
    },
  };
  /** What the worker posted to each page (client id → messages). */
  const told = new Map<string, unknown[]>();
  const self = {
    location: new URL('https://portal.example/sw.js'),
    addEventListener: (type: string, listener: (event: unknown) => void) => listeners.set(type, listener),
    clients: {
      claim: async () => undefined,
      get: async (id: string) => ({
        postMessage: (message: unknown) => told.set(id, [...(told.get(id) ?? []), message]),
      }),
    },
    skipWaiting: () => undefined,
    registration,
  };
  runInNewContext(source, {
    self,
    caches: caches.api,
    fetch: fetchImpl,
    URL,
    Response,
    Request,
    Promise,
    Math,
    setTimeout,
  });
  let clients = 0;
  async function fetchEvent(url: string, mode: RequestMode = 'navigate') {
    let responded: Promise<Response> | undefined;
    const waited: Promise<unknown>[] = [];
    clients += 1;
    const request = new Request(url, { mode: mode === 'navigate' ? 'same-origin' : mode });
    Object.defineProperty(request, 'mode', { value: mode });
    listeners.get('fetch')?.({
      request,
      respondWith: (p: Promise<Response>) => (responded = p),
      waitUntil: (p: Promise<unknown>) => waited.push(p),
      resultingClientId: `client-${clients}`,
    });
    const response = await responded;
    await Promise.all(waited);
    return response;
  }
  return { listeners, caches, registration, fetchEvent, told };
}

describe('offline mode switch', () => {
  it('is off unless PWA says so', () => {
    expect(pwaEnabled(undefined)).toBe(false);
    expect(pwaEnabled('')).toBe(false);
    expect(pwaEnabled('false')).toBe(false);
    expect(pwaEnabled('true')).toBe(true);
    expect(pwaEnabled(' ON ')).toBe(true);
  });
});

describe('service worker', () => {
  it('keeps a visited page and shows it when the network is down', async () => {
    let online = true;
    const worker = loadWorker(serviceWorkerSource('b1'), async (request) => {
      if (!online) throw new TypeError('Failed to fetch');
      return new Response(`page ${new URL(request.url).pathname}`, { status: 200 });
    });
    const first = await worker.fetchEvent('https://portal.example/infomation/list');
    expect(await first?.text()).toBe('page /infomation/list');
    online = false;
    const again = await worker.fetchEvent('https://portal.example/infomation/list?x=1');
    expect(await again?.text()).toBe('page /infomation/list');
    // The page it showed from its cache is told so (its warning shows); the one from the network was not.
    expect([...worker.told]).toEqual([['client-2', ['offline']]]);
  });

  it('leaves the API alone and keeps hashed assets per build', async () => {
    const worker = loadWorker(serviceWorkerSource('b2'), async () => new Response('x'));
    expect(await worker.fetchEvent('https://portal.example/api/front/x', 'cors')).toBeUndefined();
    await worker.fetchEvent('https://portal.example/_astro/a.1234.js', 'no-cors');
    expect([...worker.caches.stores.keys()]).toContain('hgd-assets-b2');
  });

  it('changes with every build, which is how browsers notice a new one', () => {
    expect(serviceWorkerSource('b1')).not.toBe(serviceWorkerSource('b2'));
  });

  it('when offline mode is off, removes its caches and itself', async () => {
    const worker = loadWorker(killSwitchWorkerSource(), async () => new Response('x'));
    await (await worker.caches.api.open('hgd-pages')).put('https://portal.example/a', new Response('a'));
    let done: Promise<unknown> = Promise.resolve();
    worker.listeners.get('activate')?.({ waitUntil: (p: Promise<unknown>) => (done = p) });
    await done;
    expect(worker.registration.unregistered).toBe(true);
    expect(await worker.caches.api.keys()).toEqual([]);
  });
});

describe('page lines', () => {
  it('unregister every worker when offline mode is off', async () => {
    const unregistered: number[] = [];
    const navigator = {
      serviceWorker: { getRegistrations: async () => [1, 2].map((n) => ({ unregister: () => unregistered.push(n) })) },
    };
    runInNewContext(unregisterScript, { navigator });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(unregistered).toEqual([1, 2]);
  });

  it('show the offline warning while the network is down and offer a refresh when a new build waits', async () => {
    const element = () => ({
      hidden: true,
      button: { onclick: null as null | (() => void) },
      querySelector() {
        return this.button;
      },
    });
    const warning = element();
    const prompt = element();
    const posted: unknown[] = [];
    const windowListeners = new Map<string, () => void>();
    const registration = {
      waiting: { postMessage: (m: unknown) => posted.push(m) },
      addEventListener: () => undefined,
      update: async () => undefined,
    };
    const workerListeners = new Map<string, () => void>();
    const navigator = {
      onLine: false,
      serviceWorker: {
        controller: {},
        addEventListener: (type: string, listener: () => void) => workerListeners.set(type, listener),
        register: async () => registration,
      },
    };
    const document = {
      querySelector: (selector: string) => (selector === '[data-offline-warning]' ? warning : prompt),
      addEventListener: () => undefined,
    };
    let reloads = 0;
    let probe: (() => void) | undefined;
    let apiUp = false;
    const window = {
      addEventListener: (type: string, listener: () => void) => windowListeners.set(type, listener),
      location: { reload: () => (reloads += 1) },
      setInterval: (callback: () => void) => ((probe = callback), 1),
      clearInterval: () => (probe = undefined),
    };
    const fetch = async () => ({ ok: apiUp });
    runInNewContext(registerScript, { navigator, document, window, fetch });
    expect(warning.hidden).toBe(false);
    navigator.onLine = true;
    windowListeners.get('online')?.();
    expect(warning.hidden).toBe(true);
    // The worker says it showed this page from its cache: the warning shows, whatever onLine says.
    (workerListeners.get('message') as ((event: { data: unknown }) => void) | undefined)?.({ data: 'offline' });
    expect(warning.hidden).toBe(false);
    // …until the API answers again.
    probe?.();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(warning.hidden).toBe(false);
    apiUp = true;
    probe?.();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(warning.hidden).toBe(true);
    expect(probe).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(prompt.hidden).toBe(false);
    // The first worker taking control must not reload the page being read…
    workerListeners.get('controllerchange')?.();
    expect(reloads).toBe(0);
    // …the new build's worker does, once the visitor asked for it.
    prompt.button.onclick?.();
    expect(posted).toEqual(['skip-waiting']);
    workerListeners.get('controllerchange')?.();
    expect(reloads).toBe(1);
  });

  it('run on in a sandboxed preview, where reading navigator.serviceWorker throws', () => {
    const navigator = {
      onLine: true,
      get serviceWorker(): never {
        throw new Error('SecurityError: the context is sandboxed and lacks allow-same-origin');
      },
    };
    const document = { querySelector: () => null, addEventListener: () => undefined };
    const window = { addEventListener: () => undefined };
    expect(() => runInNewContext(unregisterScript, { navigator })).not.toThrow();
    expect(() => runInNewContext(registerScript, { navigator, document, window })).not.toThrow();
  });
});
