// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { download, fetchDownload, get, post, request, upload, type UploadProgress } from '../../src/lib/api/index.ts';
import { fileNameOf } from '../../src/lib/api/client.ts';
import { LOGIN_STATUS_KEY } from '../../src/lib/storedLoginStatus.ts';
import { loginStatus, markLoggedIn } from '../../src/stores/loginStatus.ts';

type FetchArgs = [input: RequestInfo | URL, init?: RequestInit];
const fetchMock = vi.fn<(...args: FetchArgs) => Promise<Response>>();

function setURL(url: string): void {
  (window as unknown as { happyDOM: { setURL(u: string): void } }).happyDOM.setURL(url);
}

function json(body: unknown, init: ResponseInit = {}): Response {
  return new Response(JSON.stringify(body), {
    status: 200,
    ...init,
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });
}

function envelope(code: number, message: string, data: unknown = {}): Response {
  return json({ code, message, data });
}

function lastCall() {
  const call = fetchMock.mock.calls.at(-1);
  if (!call) throw new Error('fetch was not called');
  const [input, init = {}] = call;
  return { url: String(input), init, headers: new Headers(init.headers) };
}

const messageBox = () => document.querySelector<HTMLElement>('[data-hgd-toasts="message"]');
const notificationBox = () => document.querySelector<HTMLElement>('[data-hgd-toasts="notification"]');
const notificationTitle = () => notificationBox()?.querySelector('.font-semibold')?.textContent;
const notificationText = () => notificationBox()?.querySelector('.text-sm')?.textContent;

let assign: ReturnType<typeof vi.fn<(url: string | URL) => void>>;

beforeEach(() => {
  fetchMock.mockReset();
  globalThis.fetch = fetchMock as unknown as typeof fetch;
  document.body.innerHTML = '';
  document.documentElement.lang = 'zh-CN';
  setURL('http://localhost:4321/person/order?id=5#list');
  sessionStorage.clear();
  assign = vi.fn<(url: string | URL) => void>();
  vi.spyOn(window.location, 'assign').mockImplementation(assign);
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('what every request sends', () => {
  test('X-Requested-With, Accept-Language from <html lang>, same-origin credentials', async () => {
    fetchMock.mockResolvedValue(envelope(200, 'ok'));
    document.documentElement.lang = 'en-US';
    await get('/api/x');
    const { headers, init } = lastCall();
    expect(headers.get('x-requested-with')).toBe('XMLHttpRequest');
    expect(headers.get('accept-language')).toBe('en-US');
    expect(init.credentials).toBe('same-origin');
  });

  test('Accept-Language is zh-CN when <html lang> is missing or unsupported', async () => {
    fetchMock.mockResolvedValue(envelope(200, 'ok'));
    document.documentElement.lang = '';
    await get('/api/x');
    expect(lastCall().headers.get('accept-language')).toBe('zh-CN');
  });

  test('the client headers cannot be overridden; no dummy token headers are sent', async () => {
    fetchMock.mockResolvedValue(envelope(200, 'ok'));
    await post('/api/x', {}, { headers: { 'x-requested-with': 'nope', 'X-Extra': '1' } });
    const { headers } = lastCall();
    expect(headers.get('x-requested-with')).toBe('XMLHttpRequest');
    expect(headers.get('x-extra')).toBe('1');
    const names = [...headers.keys()].map((name) => name.toLowerCase()).sort();
    expect(names).toEqual(['accept', 'accept-language', 'content-type', 'x-extra', 'x-requested-with']);
  });

  test('GET parameters are flattened into the query, with no timestamp parameter', async () => {
    fetchMock.mockResolvedValue(envelope(200, 'ok'));
    await get('/api/front/hgdsel/set/getSetByAreaCode', {
      areaCode: 440000,
      ids: [1, 2],
      range: { start: '2024' },
      x: null,
    });
    const { url, init } = lastCall();
    expect(url).toBe('/api/front/hgdsel/set/getSetByAreaCode?areaCode=440000&ids=1%2C2&range.start=2024');
    expect(init.method).toBe('GET');
    expect(init.body).toBeUndefined();
  });

  test('no retry: a failing call is made once', async () => {
    fetchMock.mockResolvedValue(new Response('{}', { status: 503, statusText: 'Service Unavailable' }));
    await get('/api/x');
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});

describe('bodies', () => {
  test('form encoding by default; objects become JSON strings in their field', async () => {
    fetchMock.mockResolvedValue(envelope(200, 'ok'));
    const antTable = { pager: { current: 1, pageSize: 10 } };
    await post('/api/front/hgdsel/order/getAntTable', { antTable, keyword: 'a b', empty: undefined });
    const { init, headers } = lastCall();
    expect(init.method).toBe('POST');
    expect(headers.get('content-type')).toBe('application/x-www-form-urlencoded;charset=UTF-8');
    const body = new URLSearchParams(String(init.body));
    expect(body.get('antTable')).toBe(JSON.stringify(antTable));
    expect(body.get('keyword')).toBe('a b');
    expect(body.has('empty')).toBe(false);
  });

  test('JSON on request', async () => {
    fetchMock.mockResolvedValue(envelope(200, 'ok'));
    await post('/api/x', { a: 1, nested: { b: [1, 2] } }, { json: true });
    const { init, headers } = lastCall();
    expect(headers.get('content-type')).toBe('application/json');
    expect(JSON.parse(String(init.body))).toEqual({ a: 1, nested: { b: [1, 2] } });
  });

  test('request with another method and both params and a body', async () => {
    fetchMock.mockResolvedValue(envelope(200, 'ok', { done: true }));
    const data = await request<{ done: boolean }>('/api/x', { method: 'PUT', params: { id: 3 }, data: { a: 1 } });
    expect(data).toEqual({ done: true });
    const { url, init } = lastCall();
    expect(url).toBe('/api/x?id=3');
    expect(init.method).toBe('PUT');
    expect(String(init.body)).toBe('a=1');
  });

  test('upload posts multipart form data built from the fields', async () => {
    fetchMock.mockResolvedValue(envelope(200, 'ok', { fileId: 9 }));
    const file = new File(['%PDF-1.7'], 'licence.pdf', { type: 'application/pdf' });
    const data = await upload<{ fileId: number }>('/api/front/hgdarc/enterpriseauthfile/upload', {
      kind: 'licence',
      file,
    });
    expect(data).toEqual({ fileId: 9 });
    const { init, headers } = lastCall();
    expect(init.method).toBe('POST');
    expect(init.body).toBeInstanceOf(FormData);
    const form = init.body as FormData;
    expect(form.get('kind')).toBe('licence');
    expect((form.get('file') as File).name).toBe('licence.pdf');
    // The browser writes the multipart type with its boundary.
    expect(headers.get('content-type')).toBeNull();
    expect(headers.get('x-requested-with')).toBe('XMLHttpRequest');
  });
});

describe('upload with progress (XMLHttpRequest)', () => {
  class FakeXhr extends EventTarget {
    static last: FakeXhr | undefined;
    static respond: (xhr: FakeXhr) => void = () => {};
    upload = new EventTarget();
    method = '';
    url = '';
    headers: Record<string, string> = {};
    body: unknown;
    status = 0;
    statusText = '';
    responseText = '';
    responseType = '';
    timeout = 0;
    open(method: string, url: string): void {
      this.method = method;
      this.url = url;
    }
    setRequestHeader(name: string, value: string): void {
      this.headers[name.toLowerCase()] = value;
    }
    send(body: unknown): void {
      this.body = body;
      FakeXhr.last = this;
      queueMicrotask(() => FakeXhr.respond(this));
    }
    abort(): void {
      this.dispatchEvent(new Event('abort'));
    }
    progress(loaded: number, total: number): void {
      this.upload.dispatchEvent(Object.assign(new Event('progress'), { lengthComputable: true, loaded, total }));
    }
    finish(status: number, body: string, statusText = ''): void {
      Object.assign(this, { status, statusText, responseText: body });
      this.dispatchEvent(new Event('load'));
    }
  }

  beforeEach(() => {
    FakeXhr.last = undefined;
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  test('reports progress, sends the headers and the multipart body, handles the envelope', async () => {
    FakeXhr.respond = (xhr) => {
      xhr.progress(50, 200);
      xhr.progress(200, 200);
      xhr.finish(200, JSON.stringify({ code: 200, message: 'ok', data: { fileId: 1 } }));
    };
    const onProgress = vi.fn<(progress: UploadProgress) => void>();
    document.documentElement.lang = 'pt-BR';
    const data = await upload('/api/up', { kind: 'letter', file: new Blob(['x']) }, { onProgress });
    expect(data).toEqual({ fileId: 1 });
    expect(onProgress.mock.calls.map(([p]) => p.percent)).toEqual([25, 100]);
    expect(onProgress.mock.calls[0]?.[0]).toEqual({ loaded: 50, total: 200, percent: 25 });
    const xhr = FakeXhr.last;
    expect(xhr?.method).toBe('POST');
    expect(xhr?.url).toBe('/api/up');
    expect(xhr?.headers['x-requested-with']).toBe('XMLHttpRequest');
    expect(xhr?.headers['accept-language']).toBe('pt-BR');
    expect((xhr?.body as FormData).get('kind')).toBe('letter');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  test('a business error from an upload is a toast, like any call', async () => {
    FakeXhr.respond = (xhr) => xhr.finish(200, JSON.stringify({ code: 400, message: '文件类型不支持', data: {} }));
    const data = await upload('/api/up', { file: new Blob(['x']) }, { onProgress: () => {} });
    expect(data).toBeUndefined();
    expect(messageBox()?.textContent).toContain('文件类型不支持');
  });

  test('a transport error from an upload is a notification', async () => {
    FakeXhr.respond = (xhr) => xhr.finish(413, '{"code":413,"message":"too large","data":{}}', 'Payload Too Large');
    expect(await upload('/api/up', { file: new Blob(['x']) }, { onProgress: () => {} })).toBeUndefined();
    expect(notificationTitle()).toBe('请求错误 413: /api/up');
    expect(notificationText()).toBe('请求内容过大，服务器拒绝处理。');
  });

  test('network failure of an upload', async () => {
    FakeXhr.respond = (xhr) => xhr.dispatchEvent(new Event('error'));
    expect(await upload('/api/up', {}, { onProgress: () => {} })).toBeUndefined();
    expect(notificationText()).toBe('请求异常，服务校验失败');
  });

  test('an aborted upload is silent', async () => {
    FakeXhr.respond = () => {};
    const controller = new AbortController();
    const pending = upload('/api/up', {}, { onProgress: () => {}, signal: controller.signal });
    await Promise.resolve();
    controller.abort();
    expect(await pending).toBeUndefined();
    expect(notificationBox()?.children.length ?? 0).toBe(0);
  });
});

describe('download', () => {
  test('navigates to the url with the flattened query', () => {
    download('/api/front/hgdsel/settlementbuyresult/exportSettlementAntTable', {
      months: ['2024-01', '2024-02'],
      range: { start: '2024-01', end: null },
      areaCode: 440000,
      gone: undefined,
    });
    expect(assign).toHaveBeenCalledWith(
      '/api/front/hgdsel/settlementbuyresult/exportSettlementAntTable?months=2024-01%2C2024-02&range.start=2024-01&areaCode=440000',
    );
    expect(fetchMock).not.toHaveBeenCalled();
  });

  test('without data, the url as it is', () => {
    download('/api/front/hgdarc/partner/exportAntTable');
    expect(assign).toHaveBeenCalledWith('/api/front/hgdarc/partner/exportAntTable');
  });
});

describe('fetchDownload', () => {
  const exportUrl = '/api/front/hgdsel/settlementbuyresult/exportSettlementAntTable';
  const xlsxType = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

  function file(chunks: string[], name: string): Response {
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
        controller.close();
      },
    });
    return new Response(body, {
      headers: {
        'content-type': xlsxType,
        'content-disposition': `attachment; filename="export.xlsx"; filename*=UTF-8''${encodeURIComponent(name)}`,
      },
    });
  }

  function captureSaves() {
    const saved: { name: string; href: string }[] = [];
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:http://localhost/1');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ name: this.download, href: this.href });
    });
    return saved;
  }

  test('fetches the flattened query with the client headers, reports progress and saves under the server name', async () => {
    const saved = captureSaves();
    fetchMock.mockResolvedValue(file(['PK', '0123456789'], '结算结果-20261122.xlsx'));
    const progress: number[] = [];
    const failure = await fetchDownload(
      exportUrl,
      { antTable: '{"pager":{"current":1}}', partnerId: 4 },
      { onProgress: (bytes) => progress.push(bytes) },
    );
    expect(failure).toBeUndefined();
    const { url, headers } = lastCall();
    expect(url).toBe(`${exportUrl}?antTable=%7B%22pager%22%3A%7B%22current%22%3A1%7D%7D&partnerId=4`);
    expect(headers.get('X-Requested-With')).toBe('XMLHttpRequest');
    expect(progress).toEqual([2, 12]);
    expect(saved).toEqual([{ name: '结算结果-20261122.xlsx', href: 'blob:http://localhost/1' }]);
    expect(document.querySelector('a[download]')).toBeNull();
  });

  test('a refusal resolves its envelope when quiet, and saves nothing', async () => {
    const saved = captureSaves();
    fetchMock.mockResolvedValue(envelope(404, '未找到该机构'));
    expect(await fetchDownload(exportUrl, { partnerId: 999 }, { quiet: true })).toEqual({
      code: 404,
      message: '未找到该机构',
      data: {},
    });
    expect(saved).toEqual([]);
    expect(messageBox()?.children.length ?? 0).toBe(0);
  });

  test('without quiet, a refusal is shown as a message and resolves undefined', async () => {
    captureSaves();
    fetchMock.mockResolvedValue(envelope(400, '月份格式不正确'));
    expect(await fetchDownload(exportUrl, {})).toBeUndefined();
    expect(messageBox()?.textContent).toContain('月份格式不正确');
  });

  test('an HTTP error notifies like any call', async () => {
    captureSaves();
    fetchMock.mockResolvedValue(new Response('boom', { status: 500, statusText: 'Internal Server Error' }));
    expect(await fetchDownload(exportUrl, {}, { quiet: true })).toBeUndefined();
    expect(notificationTitle()).toContain('500');
  });

  test('an aborted download is silent', async () => {
    const controller = new AbortController();
    fetchMock.mockImplementation(
      (_input, init) =>
        new Promise((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    const pending = fetchDownload(exportUrl, {}, { signal: controller.signal });
    controller.abort();
    expect(await pending).toBeUndefined();
    expect(notificationBox()?.children.length ?? 0).toBe(0);
  });

  test('fileNameOf prefers the UTF-8 name, then the plain one, then the fallback', () => {
    expect(fileNameOf(`attachment; filename="a.xlsx"; filename*=UTF-8''%E7%BB%9F%E8%AE%A1.xlsx`, 'x')).toBe(
      '统计.xlsx',
    );
    expect(fileNameOf('attachment; filename="a.xlsx"', 'x')).toBe('a.xlsx');
    expect(fileNameOf("attachment; filename*=UTF-8''%E0%A4%A; filename=b.xlsx", 'x')).toBe('b.xlsx');
    expect(fileNameOf(null, 'x')).toBe('x');
  });
});

describe('the envelope', () => {
  test('code 200 resolves data', async () => {
    fetchMock.mockResolvedValue(envelope(200, '成功', { list: [1] }));
    expect(await get('/api/x')).toEqual({ list: [1] });
    expect(messageBox()?.children.length ?? 0).toBe(0);
  });

  test('null data resolves an empty object', async () => {
    fetchMock.mockResolvedValue(envelope(200, '成功', null));
    expect(await get('/api/x')).toEqual({});
  });

  test('another code: an error toast with the server message for 3 s, resolves undefined', async () => {
    fetchMock.mockResolvedValue(envelope(409, '订单状态不允许取消', { ignored: true }));
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const result = await post('/api/front/hgdsel/order/del', { orderNo: 'HGD1' });
    expect(result).toBeUndefined();
    const toast = messageBox()?.firstElementChild;
    expect(toast?.getAttribute('role')).toBe('alert');
    expect(toast?.className).toContain('alert-error');
    expect(toast?.textContent).toContain('订单状态不允许取消');
    expect(notificationBox()?.children.length ?? 0).toBe(0);
    vi.advanceTimersByTime(2999);
    expect(messageBox()?.children).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(messageBox()?.children).toHaveLength(0);
  });

  test('quiet: resolves the whole envelope, no toast', async () => {
    fetchMock.mockResolvedValue(envelope(400, '手机号格式不正确', { errors: [{ field: 'phone', message: 'x' }] }));
    const answer = await post('/api/front/system/register', { phone: '1' }, { quiet: true });
    expect(answer).toEqual({
      code: 400,
      message: '手机号格式不正确',
      data: { errors: [{ field: 'phone', message: 'x' }] },
    });
    expect(messageBox()?.children.length ?? 0).toBe(0);
    fetchMock.mockResolvedValue(envelope(200, '注册成功'));
    expect(await post('/api/front/system/register', {}, { quiet: true })).toEqual({
      code: 200,
      message: '注册成功',
      data: {},
    });
  });

  test('quiet: transport faults still notify and resolve undefined', async () => {
    fetchMock.mockResolvedValue(new Response('', { status: 500, statusText: 'Internal Server Error' }));
    expect(await get('/api/x', undefined, { quiet: true })).toBeUndefined();
    expect(notificationTitle()).toBe('请求错误 500: /api/x');
  });
});

describe('901: session missing or expired', () => {
  test('clears the login status and goes to the login page with the full current address', async () => {
    markLoggedIn('account');
    fetchMock.mockResolvedValue(envelope(901, '登录已过期'));
    expect(await get('/api/front/hgdsel/order/getOrderDetail', { orderNo: 'x' })).toBeUndefined();
    expect(assign).toHaveBeenCalledTimes(1);
    expect(assign).toHaveBeenCalledWith(
      `/user/login?redirect=${encodeURIComponent('http://localhost:4321/person/order?id=5#list')}`,
    );
    expect(loginStatus.get()).toBeNull();
    expect(sessionStorage.getItem(LOGIN_STATUS_KEY)).toBeNull();
    expect(messageBox()?.children.length ?? 0).toBe(0);
  });

  test('keeps the locale of the page', async () => {
    setURL('http://localhost:4321/en-US/person/overview');
    fetchMock.mockResolvedValue(envelope(901, 'expired'));
    await get('/api/x');
    expect(assign).toHaveBeenCalledWith(
      `/en-US/user/login?redirect=${encodeURIComponent('http://localhost:4321/en-US/person/overview')}`,
    );
  });

  test('no navigation when already on the login page', async () => {
    setURL('http://localhost:4321/user/login?redirect=%2Fperson');
    fetchMock.mockResolvedValue(envelope(901, 'expired'));
    expect(await post('/api/x', {})).toBeUndefined();
    expect(assign).not.toHaveBeenCalled();
  });

  test('quiet still goes to login, and resolves the envelope', async () => {
    fetchMock.mockResolvedValue(envelope(901, 'expired'));
    expect(await post('/api/x', {}, { quiet: true })).toEqual({ code: 901, message: 'expired', data: {} });
    expect(assign).toHaveBeenCalledTimes(1);
  });

  test('allowAnonymous: clears the status but stays on the page', async () => {
    markLoggedIn('mobile');
    fetchMock.mockResolvedValue(envelope(901, 'expired'));
    expect(await get('/api/front/user/currentUser', undefined, { allowAnonymous: true })).toBeUndefined();
    expect(assign).not.toHaveBeenCalled();
    expect(loginStatus.get()).toBeNull();
  });
});

describe('transport errors', () => {
  test.each([
    [404, 'Not Found', '请求错误 404: /api/x', '发出的请求针对的是不存在的记录，服务器没有进行操作。'],
    [500, 'Internal Server Error', '请求错误 500: /api/x', '服务器发生错误，请检查服务器。'],
    [502, 'Bad Gateway', '请求错误 502: /api/x', '网关错误。'],
  ])('HTTP %i: notification with the status-table description', async (status, statusText, title, description) => {
    fetchMock.mockResolvedValue(json({ code: status, message: 'server text', data: {} }, { status, statusText }));
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    expect(await get('/api/x', { secret: '13800000000' })).toBeUndefined();
    const item = notificationBox()?.firstElementChild;
    expect(item?.getAttribute('role')).toBe('alert');
    expect(notificationTitle()).toBe(title);
    expect(notificationText()).toBe(description);
    expect(notificationBox()?.style.top).toBe('24px');
    expect(messageBox()?.children.length ?? 0).toBe(0);
    vi.advanceTimersByTime(4499);
    expect(notificationBox()?.children).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(notificationBox()?.children).toHaveLength(0);
  });

  test('a status outside the table: the response status text', async () => {
    fetchMock.mockResolvedValue(new Response('nope', { status: 418, statusText: "I'm a teapot" }));
    await get('/api/x');
    expect(notificationTitle()).toBe('请求错误 418: /api/x');
    expect(notificationText()).toBe("I'm a teapot");
  });

  test('in English', async () => {
    document.documentElement.lang = 'en-US';
    fetchMock.mockResolvedValue(new Response('', { status: 404, statusText: 'Not Found' }));
    await post('/api/x', { a: 1 });
    expect(notificationTitle()).toBe('Request error 404: /api/x');
    expect(notificationText()).toBe('The requested record does not exist; the server did nothing.');
  });

  test('no response at all', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    expect(await get('/api/x')).toBeUndefined();
    expect(notificationTitle()).toBe('网络异常');
    expect(notificationText()).toBe('请求异常，服务校验失败');
  });

  test('no response, in English', async () => {
    document.documentElement.lang = 'en-US';
    fetchMock.mockRejectedValue(new TypeError('Network request failed'));
    await post('/api/x');
    expect(notificationTitle()).toBe('Network problem');
    expect(notificationText()).toBe('Request exception, service verification failed');
  });

  function hangUntilAborted(): void {
    fetchMock.mockImplementation(
      (_input, init) =>
        new Promise<Response>((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
        }),
    );
  }

  test('timeout', async () => {
    hangUntilAborted();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const pending = get('/api/x', undefined, { timeout: 1000 });
    await vi.advanceTimersByTimeAsync(999);
    expect(lastCall().init.signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await pending).toBeUndefined();
    expect(notificationText()).toBe('请求超时（1000 毫秒）');
  });

  test('timeout, in English', async () => {
    document.documentElement.lang = 'en-US';
    hangUntilAborted();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const pending = post('/api/x', {}, { timeout: 250 });
    await vi.advanceTimersByTimeAsync(250);
    await pending;
    expect(notificationText()).toBe('Timeout of 250ms exceeded');
  });

  test('no timeout by default', async () => {
    hangUntilAborted();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    void get('/api/x');
    await vi.advanceTimersByTimeAsync(60 * 60 * 1000);
    expect(lastCall().init.signal?.aborted).toBe(false);
    expect(notificationBox()?.children.length ?? 0).toBe(0);
  });

  test('unreadable JSON', async () => {
    fetchMock.mockResolvedValue(
      new Response('<html>oops</html>', { status: 200, headers: { 'content-type': 'text/html' } }),
    );
    expect(await get('/api/x')).toBeUndefined();
    expect(notificationTitle()).toBe('请求错误 200: /api/x');
    expect(notificationText()).toBe('响应内容无法解析');
  });

  test('JSON that is not an envelope counts as unreadable', async () => {
    fetchMock.mockResolvedValue(json([1, 2]));
    expect(await get('/api/x')).toBeUndefined();
    expect(notificationText()).toBe('响应内容无法解析');
  });

  test('an aborted call is silent', async () => {
    hangUntilAborted();
    const controller = new AbortController();
    const pending = get('/api/x', undefined, { signal: controller.signal });
    controller.abort();
    expect(await pending).toBeUndefined();
    expect(notificationBox()?.children.length ?? 0).toBe(0);
    expect(messageBox()?.children.length ?? 0).toBe(0);
  });
});
