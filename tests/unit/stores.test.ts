// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';

type FetchArgs = [input: RequestInfo | URL, init?: RequestInit];
const fetchMock = vi.fn<(...args: FetchArgs) => Promise<Response>>();

function setURL(url: string): void {
  (window as unknown as { happyDOM: { setURL(u: string): void } }).happyDOM.setURL(url);
}

function envelope(code: number, message: string, data: unknown = {}): Response {
  return new Response(JSON.stringify({ code, message, data }), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  });
}

let assign: ReturnType<typeof vi.fn<(url: string | URL) => void>>;

beforeEach(() => {
  vi.resetModules();
  localStorage.clear();
  sessionStorage.clear();
  document.body.innerHTML = '';
  document.documentElement.lang = 'zh-CN';
  setURL('http://localhost:4321/person/overview');
  fetchMock.mockReset();
  globalThis.fetch = fetchMock as unknown as typeof fetch;
  assign = vi.fn<(url: string | URL) => void>();
  vi.spyOn(window.location, 'assign').mockImplementation(assign);
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('area', () => {
  test('defaults to 440000 广东省', async () => {
    const { areaCode, areaName } = await import('../../src/stores/area.ts');
    expect(areaCode.get()).toBe('440000');
    expect(areaName.get()).toBe('广东省');
  });

  test('setArea persists under areaCode and areaName, and is read back on the next page', async () => {
    const first = await import('../../src/stores/area.ts');
    first.setArea(450000, '广西壮族自治区');
    expect(localStorage.getItem('areaCode')).toBe('450000');
    expect(localStorage.getItem('areaName')).toBe('广西壮族自治区');
    expect(first.areaCode.get()).toBe('450000');
    vi.resetModules();
    const next = await import('../../src/stores/area.ts');
    expect(next.areaCode.get()).toBe('450000');
    expect(next.areaName.get()).toBe('广西壮族自治区');
  });
});

describe('locale', () => {
  test('starts from <html lang>; zh-CN when unsupported', async () => {
    document.documentElement.lang = 'id-ID';
    expect((await import('../../src/stores/locale.ts')).locale.get()).toBe('id-ID');
    vi.resetModules();
    document.documentElement.lang = 'fr';
    expect((await import('../../src/stores/locale.ts')).locale.get()).toBe('zh-CN');
  });

  test('chooseLocale stores the choice (storage + cookie) and returns the same page in that locale', async () => {
    setURL('http://localhost:4321/products?id=id2#sets');
    const cookieWrites: string[] = [];
    const descriptor = Object.getOwnPropertyDescriptor(Document.prototype, 'cookie');
    vi.spyOn(document, 'cookie', 'set').mockImplementation((value: string) => {
      cookieWrites.push(value);
      descriptor?.set?.call(document, value);
    });
    const { chooseLocale, locale } = await import('../../src/stores/locale.ts');
    expect(chooseLocale('en-US')).toBe('/en-US/products?id=id2#sets');
    expect(localStorage.getItem('locale')).toBe('en-US');
    expect(cookieWrites).toEqual(['locale=en-US; Path=/; Max-Age=31536000; SameSite=Lax']);
    expect(locale.get()).toBe('en-US');
  });

  test('back to zh-CN drops the prefix', async () => {
    setURL('http://localhost:4321/pt-BR/person/order');
    const { chooseLocale } = await import('../../src/stores/locale.ts');
    expect(chooseLocale('zh-CN')).toBe('/person/order');
    expect(localStorage.getItem('locale')).toBe('zh-CN');
    expect(document.cookie).toContain('locale=zh-CN');
    setURL('http://localhost:4321/');
    expect(chooseLocale('zh-TW')).toBe('/zh-TW');
  });
});

describe('login status', () => {
  test('kept as JSON in sessionStorage, never with a session id', async () => {
    const { markLoggedIn, markLoggedOut, loginStatus, LOGIN_STATUS_KEY } = await import('../../src/stores/session.ts');
    expect(loginStatus.get()).toBeNull();
    markLoggedIn('mobile');
    expect(JSON.parse(sessionStorage.getItem(LOGIN_STATUS_KEY) ?? 'null')).toEqual({ status: 'ok', type: 'mobile' });
    expect(loginStatus.get()).toEqual({ status: 'ok', type: 'mobile' });
    const everything = JSON.stringify({ ...sessionStorage, ...localStorage });
    expect(everything).not.toMatch(/sid|session|token/i);
    expect(sessionStorage).toHaveLength(1);
    markLoggedOut();
    expect(sessionStorage.getItem(LOGIN_STATUS_KEY)).toBeNull();
    expect(loginStatus.get()).toBeNull();
  });

  test('read back on the next page; malformed means logged out', async () => {
    sessionStorage.setItem('loginStatus', JSON.stringify({ status: 'ok', type: 'account', sid: 'x' }));
    const first = await import('../../src/stores/loginStatus.ts');
    expect(first.loginStatus.get()).toEqual({ status: 'ok', type: 'account' });
    vi.resetModules();
    sessionStorage.setItem('loginStatus', '{oops');
    const second = await import('../../src/stores/loginStatus.ts');
    expect(second.loginStatus.get()).toBeNull();
  });
});

describe('current user mapping', () => {
  const response = {
    orgId: 12,
    orgName: '南方售电',
    userName: 'zhang3',
    telephone: '13800000000',
    enterpriseName: '广州某某制造有限公司',
    avatar: '/avatar.png',
    email: 'z@example.cn',
    roles: ['enterprise'],
  };

  test('mapCurrentUser renames the fields', async () => {
    const { mapCurrentUser } = await import('../../src/stores/session.ts');
    expect(mapCurrentUser(response)).toEqual({
      id: 12,
      name: '南方售电',
      userName: 'zhang3',
      phone: '13800000000',
      telephone: '13800000000',
      group: '广州某某制造有限公司',
      avatar: '/avatar.png',
      email: 'z@example.cn',
      roles: ['enterprise'],
    });
  });

  test('an empty response maps to {}', async () => {
    const { mapCurrentUser } = await import('../../src/stores/session.ts');
    expect(mapCurrentUser({})).toEqual({});
    expect(mapCurrentUser(null)).toEqual({});
    expect(mapCurrentUser(undefined)).toEqual({});
  });

  test('applyUserInfo copies mobile into telephone', async () => {
    const { applyUserInfo, mapCurrentUser } = await import('../../src/stores/session.ts');
    const user = mapCurrentUser(response);
    const updated = applyUserInfo(user, { mobile: '13900000000' });
    expect(updated.telephone).toBe('13900000000');
    expect(updated.phone).toBe('13900000000');
    expect(updated.id).toBe(12);
    expect(user.telephone).toBe('13800000000'); // not mutated
    expect(applyUserInfo(user, {})).toBe(user);
  });

  test('applyNoticeCounts stores notifyCount and unreadCount', async () => {
    const { applyNoticeCounts } = await import('../../src/stores/session.ts');
    expect(applyNoticeCounts({ id: 1 }, { totalCount: 5, unreadCount: 2 })).toEqual({
      id: 1,
      notifyCount: 5,
      unreadCount: 2,
    });
  });
});

describe('loadCurrentUser and logout', () => {
  test('loads and maps the current user through the client', async () => {
    fetchMock.mockResolvedValue(envelope(200, 'ok', { orgId: 'o1', orgName: 'N', telephone: '1' }));
    const { loadCurrentUser, currentUser } = await import('../../src/stores/session.ts');
    expect(await loadCurrentUser()).toEqual({ id: 'o1', name: 'N', phone: '1', telephone: '1' });
    expect(currentUser.get()).toEqual({ id: 'o1', name: 'N', phone: '1', telephone: '1' });
    const [input, init] = fetchMock.mock.calls[0] ?? [];
    expect(String(input)).toBe('/api/front/user/currentUser');
    expect(new Headers(init?.headers).get('x-requested-with')).toBe('XMLHttpRequest');
  });

  test('an empty answer stores {}', async () => {
    fetchMock.mockResolvedValue(envelope(200, 'ok', null));
    const { loadCurrentUser, currentUser } = await import('../../src/stores/session.ts');
    currentUser.set({ id: 'stale' });
    await loadCurrentUser();
    expect(currentUser.get()).toEqual({});
  });

  test('a visitor (901) gets {} and stays on the page; a protected page goes to login', async () => {
    fetchMock.mockImplementation(() => Promise.resolve(envelope(901, 'expired')));
    const { loadCurrentUser, currentUser } = await import('../../src/stores/session.ts');
    currentUser.set({ id: 'stale' });
    expect(await loadCurrentUser()).toBeUndefined();
    expect(currentUser.get()).toEqual({});
    expect(assign).not.toHaveBeenCalled();
    await loadCurrentUser({ required: true });
    expect(assign).toHaveBeenCalledWith(
      `/user/login?redirect=${encodeURIComponent('http://localhost:4321/person/overview')}`,
    );
  });

  test('a 901 anywhere clears the current user', async () => {
    fetchMock.mockResolvedValue(envelope(901, 'expired'));
    const { currentUser, markLoggedIn } = await import('../../src/stores/session.ts');
    const { get } = await import('../../src/lib/api/client.ts');
    markLoggedIn('account');
    currentUser.set({ id: 1 });
    await get('/api/front/hgdsel/order/getListByGuideType');
    expect(currentUser.get()).toEqual({});
  });

  test('logout posts, keeps the server message for the login page, clears the status, goes to login', async () => {
    fetchMock.mockResolvedValue(envelope(200, '安全退出！'));
    const { logout, markLoggedIn, currentUser, loginStatus } = await import('../../src/stores/session.ts');
    markLoggedIn('account');
    currentUser.set({ id: 1 });
    expect(await logout()).toBe(true);
    const [input, init] = fetchMock.mock.calls[0] ?? [];
    expect(String(input)).toBe('/api/front/system/logout');
    expect(init?.method).toBe('POST');
    // A toast here would die with the page; the login page shows the kept message (flash.ts).
    expect(document.querySelector('[data-hgd-toasts="message"] .alert-success')).toBeNull();
    expect(JSON.parse(sessionStorage.getItem('hgd.flash') ?? 'null')).toEqual({ kind: 'success', text: '安全退出！' });
    expect(sessionStorage.getItem('loginStatus')).toBeNull();
    expect(loginStatus.get()).toBeNull();
    expect(currentUser.get()).toEqual({});
    expect(assign).toHaveBeenCalledWith(
      `/user/login?redirect=${encodeURIComponent('http://localhost:4321/person/overview')}`,
    );
  });

  test('logout on the login page itself shows the message at once (no navigation to wait for)', async () => {
    setURL('http://localhost:4321/user/login');
    fetchMock.mockResolvedValue(envelope(200, '安全退出！'));
    const { logout } = await import('../../src/stores/session.ts');
    expect(await logout()).toBe(true);
    expect(document.querySelector('[data-hgd-toasts="message"] .alert-success')?.textContent).toContain('安全退出！');
    expect(sessionStorage.getItem('hgd.flash')).toBeNull();
    expect(assign).not.toHaveBeenCalled();
  });

  test('a refused logout changes nothing and says why', async () => {
    fetchMock.mockResolvedValue(envelope(429, '操作过于频繁'));
    const { logout, markLoggedIn, loginStatus } = await import('../../src/stores/session.ts');
    markLoggedIn('account');
    expect(await logout()).toBe(false);
    expect(loginStatus.get()).toEqual({ status: 'ok', type: 'account' });
    expect(document.querySelector('[data-hgd-toasts="message"] .alert-error')?.textContent).toContain('操作过于频繁');
    expect(assign).not.toHaveBeenCalled();
  });
});

describe('notices', () => {
  const list = [
    { id: 1, type: 'notification', read: false, title: 'a' },
    { id: 2, type: 'notification', read: true, title: 'b' },
    { id: 3, type: 'message', read: false, title: 'c' },
    { id: 4, type: 'event', title: 'd' },
  ];

  test('setNotices stores the counts on the user', async () => {
    const { setNotices } = await import('../../src/stores/notices.ts');
    const { currentUser } = await import('../../src/stores/session.ts');
    currentUser.set({ id: 9 });
    setNotices(list);
    expect(currentUser.get()).toEqual({ id: 9, notifyCount: 4, unreadCount: 3 });
  });

  test('markRead marks one locally and recalculates unreadCount', async () => {
    const { setNotices, markRead, notices } = await import('../../src/stores/notices.ts');
    const { currentUser } = await import('../../src/stores/session.ts');
    setNotices(list);
    markRead(3);
    expect(notices.get().find((n) => n.id === 3)?.read).toBe(true);
    expect(notices.get().find((n) => n.id === 1)?.read).toBe(false);
    expect(currentUser.get()).toMatchObject({ notifyCount: 4, unreadCount: 2 });
    expect(fetchMock).not.toHaveBeenCalled();
  });

  test('clearType removes every notice of one type and recalculates', async () => {
    const { setNotices, clearType, notices } = await import('../../src/stores/notices.ts');
    const { currentUser } = await import('../../src/stores/session.ts');
    setNotices(list);
    clearType('notification');
    expect(notices.get().map((n) => n.id)).toEqual([3, 4]);
    expect(currentUser.get()).toMatchObject({ notifyCount: 2, unreadCount: 2 });
  });

  test('loadNotices loads the list and the counts', async () => {
    fetchMock.mockResolvedValue(envelope(200, 'ok', list));
    const { loadNotices, notices } = await import('../../src/stores/notices.ts');
    const { currentUser } = await import('../../src/stores/session.ts');
    await loadNotices();
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe('/api/notices');
    expect(notices.get()).toHaveLength(4);
    expect(currentUser.get()).toMatchObject({ notifyCount: 4, unreadCount: 3 });
  });

  test('logging out empties the list', async () => {
    const { setNotices, notices } = await import('../../src/stores/notices.ts');
    const { markLoggedIn, markLoggedOut } = await import('../../src/stores/session.ts');
    markLoggedIn('account');
    setNotices(list);
    markLoggedOut();
    expect(notices.get()).toEqual([]);
  });
});
