/**
 * The one request client of the browser (spec sections 7 and 8), on the browser's own `fetch`
 * (a fetch wrapper library added 4 KB compressed to every signed-in page for nothing used here).
 *
 * - Same origin, cookies sent (`credentials: 'same-origin'`); every request carries
 *   `X-Requested-With: XMLHttpRequest` (the server's CSRF rule) and `Accept-Language` with the
 *   page's locale (server messages come back in it).
 * - Bodies are form-encoded by default (`{ json: true }` sends JSON); GET parameters and downloads
 *   use the flattened query (arrays joined by commas, nested objects as `key.subkey`).
 * - Every answer is the envelope `{ code, message, data }`:
 *   200 → the call resolves `data` (`{}` when data is null, per spec section 3);
 *   901 → login status cleared, browser sent to the login page with the current address;
 *   any other code → an error toast with the server's message, the call resolves `undefined`.
 *   With `{ quiet: true }` the call resolves the whole envelope instead, and shows no toast, so a
 *   form can put the message next to its fields (901 still goes to the login page).
 * - 403 with `data.secondFactorRequired` (a role-guarded call on a session that owes a second
 *   factor): a notification with the server's message and a link to account settings, where the
 *   factor is enrolled or verified; the call resolves undefined, quiet or not (nothing to show at
 *   a field, and nothing the page could do about it).
 * - Transport faults (HTTP status outside 2xx, no response, timeout, unreadable JSON) show a
 *   notification (spec section 8) and the call resolves `undefined`. An aborted call is silent.
 *
 * So a caller never needs try/catch: `const data = await get(...); if (!data) return;` — "each
 * flow stops silently if its call returns nothing" (spec section 4).
 */
import { FORBIDDEN, OK, SESSION_EXPIRED, type ApiEnvelope } from '../apiCodes.ts';
import { loginUrlFor } from '../loginRedirect.ts';
import { localePath } from '../paths.ts';
import { secondFactorDemandOf, secondFactorSettingsPath } from '../secondFactorDemand.ts';
import { clearLoginStatus } from '../storedLoginStatus.ts';
import { toFormBody, toMultipart, withQuery, type RequestData } from './encode.ts';
import { pageLocale, translator } from './messages.ts';
import { message, notification } from './notify.ts';

export type { ApiEnvelope } from '../apiCodes.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What a body may be: plain fields (encoded per the rules in encode.ts) or a ready FormData. */
export type BodyData = RequestData | FormData;

export interface CallOptions {
  /**
   * Resolve the whole envelope `{ code, message, data }` for every business answer and show no
   * toast: for forms that show the server's message inline. Transport faults still notify and
   * resolve undefined; 901 still leads to the login page.
   */
  quiet?: boolean;
  /**
   * For calls a visitor may make without a session (the header's current-user call): a 901 answer
   * clears the login status but does not leave the page.
   */
  allowAnonymous?: boolean;
  /** Milliseconds before the call is abandoned; 0 (the default, spec section 9) means never. */
  timeout?: number;
  /** Aborting the call is silent: it resolves undefined with no message. */
  signal?: AbortSignal;
  /** Extra headers (the client's own two headers cannot be overridden). */
  headers?: Readonly<Record<string, string>>;
}

export interface RequestOptions extends CallOptions {
  method?: Method;
  /** Query parameters, flattened like a download's. */
  params?: RequestData;
  /** The body (ignored for GET). */
  data?: BodyData;
  /** Send `data` as JSON instead of a form. */
  json?: boolean;
}

export interface UploadProgress {
  loaded: number;
  /** 0 when the browser does not know the total. */
  total: number;
  /** 0–100, rounded down; 0 when the total is unknown. */
  percent: number;
}

export interface UploadOptions extends CallOptions {
  /** Reports upload progress; the upload then goes through XMLHttpRequest. */
  onProgress?: (progress: UploadProgress) => void;
}

type Quiet = { quiet: true };

/** How a call ended, before the envelope rules apply. */
type Outcome =
  | { kind: 'response'; status: number; statusText: string; body: string }
  | { kind: 'network' }
  | { kind: 'timeout'; ms: number }
  | { kind: 'aborted' };

const X_REQUESTED_WITH = 'XMLHttpRequest';

function baseHeaders(extra: Readonly<Record<string, string>> = {}): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(extra)) {
    const lower = name.toLowerCase();
    if (lower !== 'x-requested-with' && lower !== 'accept-language') headers[name] = value;
  }
  headers['X-Requested-With'] = X_REQUESTED_WITH;
  headers['Accept-Language'] = pageLocale();
  if (!Object.keys(headers).some((name) => name.toLowerCase() === 'accept')) headers['Accept'] = 'application/json';
  return headers;
}

/** The caller's signal plus the timeout, as one signal; `timedOut()` tells the two apart. */
function combineSignals(signal: AbortSignal | undefined, timeout: number) {
  const controller = new AbortController();
  let timedOut = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const onAbort = (): void => controller.abort(signal?.reason);
  if (signal) {
    if (signal.aborted) controller.abort(signal.reason);
    else signal.addEventListener('abort', onAbort, { once: true });
  }
  if (timeout > 0) {
    timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new DOMException(`timeout of ${timeout}ms exceeded`, 'TimeoutError'));
    }, timeout);
  }
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    done: (): void => {
      if (timer !== undefined) clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    },
  };
}

async function viaFetch(
  url: string,
  init: { method: Method; headers: Record<string, string>; body?: BodyInit | undefined },
  options: CallOptions,
): Promise<Outcome> {
  const timeout = options.timeout ?? 0;
  const signals = combineSignals(options.signal, timeout);
  try {
    const response = await fetch(url, {
      method: init.method,
      headers: init.headers,
      ...(init.body === undefined ? {} : { body: init.body }),
      credentials: 'same-origin',
      signal: signals.signal,
    });
    // Read inside the try: a connection lost while the body arrives is a network fault too.
    const body = await response.text();
    return { kind: 'response', status: response.status, statusText: response.statusText, body };
  } catch {
    if (signals.timedOut()) return { kind: 'timeout', ms: timeout };
    if (options.signal?.aborted) return { kind: 'aborted' };
    return { kind: 'network' };
  } finally {
    signals.done();
  }
}

function viaXhr(
  url: string,
  body: FormData,
  options: UploadOptions,
  onProgress: (p: UploadProgress) => void,
): Promise<Outcome> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    const timeout = options.timeout ?? 0;
    const onAbort = (): void => xhr.abort();
    const finish = (outcome: Outcome): void => {
      options.signal?.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    xhr.open('POST', url, true);
    for (const [name, value] of Object.entries(baseHeaders(options.headers))) xhr.setRequestHeader(name, value);
    xhr.timeout = timeout;
    xhr.responseType = 'text';
    xhr.upload.addEventListener('progress', (event) => {
      const total = event.lengthComputable ? event.total : 0;
      onProgress({ loaded: event.loaded, total, percent: total > 0 ? Math.floor((event.loaded / total) * 100) : 0 });
    });
    xhr.addEventListener('load', () =>
      finish({ kind: 'response', status: xhr.status, statusText: xhr.statusText, body: String(xhr.responseText) }),
    );
    xhr.addEventListener('error', () => finish({ kind: 'network' }));
    xhr.addEventListener('timeout', () => finish({ kind: 'timeout', ms: timeout }));
    xhr.addEventListener('abort', () => finish({ kind: 'aborted' }));
    if (options.signal?.aborted) {
      finish({ kind: 'aborted' });
      return;
    }
    options.signal?.addEventListener('abort', onAbort, { once: true });
    xhr.send(body);
  });
}

function isEnvelope(value: unknown): value is ApiEnvelope<unknown> {
  return value !== null && typeof value === 'object' && typeof (value as { code?: unknown }).code === 'number';
}

/** The path shown in error titles: without query string (it may carry personal data). */
function displayUrl(url: string): string {
  return url.split(/[?#]/, 1)[0] ?? url;
}

/** Sends the browser to the login page with the current address as `redirect` (unless already there). */
export function goToLogin(): void {
  const target = loginUrlFor(window.location.href);
  if (target !== null) window.location.assign(target);
}

/** Applies the spec's envelope and error rules to how the call ended. */
async function settle<T>(url: string, outcome: Outcome, options: CallOptions): Promise<T | ApiEnvelope<T> | undefined> {
  if (outcome.kind === 'aborted') return undefined;
  if (outcome.kind !== 'response') {
    const t = await translator();
    notification.error({
      title: t('request.noResponseTitle') ?? '',
      description:
        (outcome.kind === 'timeout' ? t('request.timeout', { ms: outcome.ms }) : t('request.noResponse')) ?? '',
    });
    return undefined;
  }
  const { status, statusText, body } = outcome;
  if (status < 200 || status > 299) {
    const t = await translator();
    notification.error({
      title: t('request.errorTitle', { status, url: displayUrl(url) }) ?? '',
      description: t(`http.${status}`) ?? statusText,
    });
    return undefined;
  }
  let envelope: unknown;
  try {
    envelope = JSON.parse(body);
  } catch {
    envelope = undefined;
  }
  if (!isEnvelope(envelope)) {
    const t = await translator();
    notification.error({
      title: t('request.errorTitle', { status, url: displayUrl(url) }) ?? '',
      description: t('request.parseError') ?? '',
    });
    return undefined;
  }
  const result: ApiEnvelope<T> = {
    code: envelope.code,
    message: typeof envelope.message === 'string' ? envelope.message : '',
    data: (envelope.data ?? {}) as T,
  };
  if (result.code === SESSION_EXPIRED) {
    clearLoginStatus();
    if (!options.allowAnonymous) goToLogin();
    return options.quiet ? result : undefined;
  }
  if (result.code === FORBIDDEN && secondFactorDemandOf(result.data)) {
    const t = await translator();
    notification.warning({
      title: result.message,
      link: { href: localePath(pageLocale(), secondFactorSettingsPath), text: t('session.secondFactorLink') ?? '' },
      duration: 0,
    });
    return undefined;
  }
  if (options.quiet) return result;
  if (result.code !== OK) {
    message.error(result.message || String(result.code));
    return undefined;
  }
  return result.data;
}

/**
 * The lower-level call: any method, query parameters, a body. Prefer `get`/`post`/`upload`.
 * Never rejects; resolves undefined when the flow should stop (see the module comment).
 */
export function request<T = unknown>(url: string, options: RequestOptions & Quiet): Promise<ApiEnvelope<T> | undefined>;
export function request<T = unknown>(url: string, options?: RequestOptions): Promise<T | undefined>;
export async function request<T>(url: string, options: RequestOptions = {}): Promise<T | ApiEnvelope<T> | undefined> {
  const method = options.method ?? 'GET';
  const headers = baseHeaders(options.headers);
  let body: BodyInit | undefined;
  if (method !== 'GET' && options.data !== undefined) {
    if (options.data instanceof FormData) {
      body = options.data; // the browser writes the multipart content type and boundary
    } else if (options.json) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(options.data);
    } else {
      headers['Content-Type'] = 'application/x-www-form-urlencoded;charset=UTF-8';
      body = toFormBody(options.data).toString();
    }
  }
  const target = withQuery(url, options.params);
  const outcome = await viaFetch(target, { method, headers, body }, options);
  return settle<T>(url, outcome, options);
}

/** GET with query parameters. */
export function get<T = unknown>(
  url: string,
  params: RequestData | undefined,
  options: CallOptions & Quiet,
): Promise<ApiEnvelope<T> | undefined>;
export function get<T = unknown>(url: string, params?: RequestData, options?: CallOptions): Promise<T | undefined>;
export function get<T>(
  url: string,
  params?: RequestData,
  options: CallOptions = {},
): Promise<T | ApiEnvelope<T> | undefined> {
  return request<T>(url, { ...options, method: 'GET', ...(params ? { params } : {}) });
}

/** POST with a form body (or JSON with `{ json: true }`). */
export function post<T = unknown>(
  url: string,
  data: BodyData | undefined,
  options: CallOptions & { json?: boolean } & Quiet,
): Promise<ApiEnvelope<T> | undefined>;
export function post<T = unknown>(
  url: string,
  data?: BodyData,
  options?: CallOptions & { json?: boolean },
): Promise<T | undefined>;
export function post<T>(
  url: string,
  data?: BodyData,
  options: CallOptions & { json?: boolean } = {},
): Promise<T | ApiEnvelope<T> | undefined> {
  return request<T>(url, { ...options, method: 'POST', ...(data === undefined ? {} : { data }) });
}

/**
 * POST as multipart/form-data built from the fields (File/Blob values as files). With
 * `onProgress` it goes through XMLHttpRequest (fetch cannot report upload progress); the answer
 * is handled exactly like any other call.
 */
export function upload<T = unknown>(
  url: string,
  data: BodyData,
  options: UploadOptions & Quiet,
): Promise<ApiEnvelope<T> | undefined>;
export function upload<T = unknown>(url: string, data: BodyData, options?: UploadOptions): Promise<T | undefined>;
export async function upload<T>(
  url: string,
  data: BodyData,
  options: UploadOptions = {},
): Promise<T | ApiEnvelope<T> | undefined> {
  const form = toMultipart(data);
  const { onProgress } = options;
  const outcome = onProgress
    ? await viaXhr(url, form, options, onProgress)
    : await viaFetch(url, { method: 'POST', headers: baseHeaders(options.headers), body: form }, options);
  return settle<T>(url, outcome, options);
}

/**
 * Downloads a file: the browser navigates to the URL with the data as a flattened query string
 * (the server answers with `Content-Disposition: attachment`, so the page stays). Nothing to
 * wait for and nothing to report: a download the user cancels is silent. A navigation cannot send
 * `X-Requested-With`, so the CSRF rule refuses it (403) for the GETs it guards, every `export…`
 * among them: those go through `fetchDownload`.
 */
export function download(url: string, data?: RequestData): void {
  window.location.assign(withQuery(url, data));
}

export interface FetchDownloadOptions extends CallOptions {
  /** Bytes received so far, as the file arrives (exports are streamed, so no total is known). */
  onProgress?: (receivedBytes: number) => void;
}

/** The file name from `Content-Disposition`: the UTF-8 `filename*` when given, else `filename`. */
export function fileNameOf(disposition: string | null, fallback: string): string {
  if (!disposition) return fallback;
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(disposition);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      /* a malformed escape: use the plain name */
    }
  }
  const plain = /filename\s*=\s*"([^"]*)"|filename\s*=\s*([^;]+)/i.exec(disposition);
  return (plain?.[1] ?? plain?.[2]?.trim()) || fallback;
}

/**
 * Downloads a file like `download` (a GET with the flattened query) but through fetch, so the page
 * can show progress and the server's refusal in place instead of leaving the page for an error
 * answer. The file is then saved under the server's name. Resolves `undefined` when saved or
 * aborted. A refusal follows the client's rules: notified, resolving `undefined`; or with
 * `{ quiet: true }` resolving its envelope for the page to show. Transport faults notify.
 */
export async function fetchDownload(
  url: string,
  data: RequestData | undefined,
  options: FetchDownloadOptions = {},
): Promise<ApiEnvelope<unknown> | undefined> {
  const target = withQuery(url, data);
  const signals = combineSignals(options.signal, options.timeout ?? 0);
  let outcome: Outcome;
  try {
    const headers = baseHeaders({ Accept: '*/*', ...options.headers });
    const response = await fetch(target, { headers, credentials: 'same-origin', signal: signals.signal });
    const type = response.headers.get('Content-Type') ?? '';
    if (!response.ok || type.includes('application/json') || !response.body) {
      outcome = {
        kind: 'response',
        status: response.status,
        statusText: response.statusText,
        body: await response.text(),
      };
    } else {
      const parts: Uint8Array[] = [];
      let received = 0;
      const reader = response.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parts.push(value);
        received += value.length;
        options.onProgress?.(received);
      }
      const link = document.createElement('a');
      link.href = URL.createObjectURL(new Blob(parts as BlobPart[], { type }));
      link.download = fileNameOf(
        response.headers.get('Content-Disposition'),
        displayUrl(url).split('/').pop() ?? 'download',
      );
      document.body.append(link);
      link.click();
      link.remove();
      // Give the browser a moment to start saving before the memory is released.
      setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
      return undefined;
    }
  } catch {
    if (signals.timedOut()) outcome = { kind: 'timeout', ms: options.timeout ?? 0 };
    else if (options.signal?.aborted) outcome = { kind: 'aborted' };
    else outcome = { kind: 'network' };
  } finally {
    signals.done();
  }
  const settled = await settle<unknown>(url, outcome, { ...options, quiet: true });
  if (settled === undefined) return undefined;
  const envelope = settled as ApiEnvelope<unknown>;
  // A 200 envelope where a file was expected: treat as done (nothing to save, nothing wrong).
  if (envelope.code === OK) return undefined;
  if (options.quiet) return envelope;
  if (envelope.code !== SESSION_EXPIRED) message.error(envelope.message || String(envelope.code));
  return undefined;
}
