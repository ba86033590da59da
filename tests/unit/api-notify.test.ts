// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { message, notification } from '../../src/lib/api/notify.ts';
import { loadMessages } from '../../src/lib/api/messages.ts';

const messageBox = () => document.querySelector<HTMLElement>('[data-hgd-toasts="message"]');
const notificationBox = () => document.querySelector<HTMLElement>('[data-hgd-toasts="notification"]');

beforeEach(() => {
  document.body.innerHTML = '';
  document.documentElement.lang = 'zh-CN';
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('message toasts', () => {
  test('bottom centre (never over the header or a menu), daisyUI classes, an error is an alert, success a status', () => {
    message.error('出错了');
    message.success('成功');
    const box = messageBox();
    expect(box?.className).toBe('toast toast-bottom toast-center');
    expect(box?.getAttribute('aria-live')).toBe('polite');
    const [error, success] = [...(box?.children ?? [])];
    expect(error?.className).toContain('alert alert-error');
    expect(error?.parentElement?.classList.contains('toast')).toBe(true); // daisyUI's reduced-motion-aware entrance
    expect(error?.getAttribute('role')).toBe('alert');
    expect(error?.textContent).toContain('出错了');
    expect(success?.className).toContain('alert alert-success');
    expect(success?.getAttribute('role')).toBe('status');
  });

  test('stack in order and go after 3 s', () => {
    message.success('one');
    vi.advanceTimersByTime(1000);
    message.success('two');
    expect(messageBox()?.children).toHaveLength(2);
    vi.advanceTimersByTime(1999);
    expect(messageBox()?.children).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(messageBox()?.children).toHaveLength(1);
    expect(messageBox()?.textContent).toContain('two');
    vi.advanceTimersByTime(1000);
    expect(messageBox()?.children).toHaveLength(0);
  });

  test('the transient notice goes after 1.5 s', () => {
    message.notice('saved');
    vi.advanceTimersByTime(1499);
    expect(messageBox()?.children).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(messageBox()?.children).toHaveLength(0);
  });

  test('server text is shown as text, never parsed as HTML', () => {
    message.error('<img src=x onerror="alert(1)">');
    expect(document.querySelector('img')).toBeNull();
    expect(messageBox()?.textContent).toContain('<img src=x');
  });

  test('the close button has an accessible name and closes the toast', async () => {
    message.info('hello', 0);
    const button = messageBox()?.querySelector('button');
    expect(button?.getAttribute('aria-label')).toBe('关闭');
    button?.click();
    expect(messageBox()?.children).toHaveLength(0);
  });

  test('the close button is named in the page language', async () => {
    vi.useRealTimers();
    document.documentElement.lang = 'en-US';
    await loadMessages('en-US');
    message.info('hello', 0);
    expect(messageBox()?.querySelector('button')?.getAttribute('aria-label')).toBe('Close');
  });

  test('hovering pauses the timer', () => {
    const handle = message.success('stay');
    const item = messageBox()?.firstElementChild;
    vi.advanceTimersByTime(1000);
    item?.dispatchEvent(new Event('mouseenter'));
    vi.advanceTimersByTime(10_000);
    expect(messageBox()?.children).toHaveLength(1);
    item?.dispatchEvent(new Event('mouseleave'));
    vi.advanceTimersByTime(1999);
    expect(messageBox()?.children).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(messageBox()?.children).toHaveLength(0);
    handle.close(); // idempotent
  });
});

describe('notifications', () => {
  test('top right, 24 px from the top, title and description, gone after 4.5 s', () => {
    notification.error({ title: '请求错误 500: /api/x', description: '服务器发生错误，请检查服务器。' });
    const box = notificationBox();
    expect(box?.className).toBe('toast toast-top toast-end');
    expect(box?.style.top).toBe('24px');
    const item = box?.firstElementChild;
    expect(item?.getAttribute('role')).toBe('alert');
    expect(item?.querySelector('.font-semibold')?.textContent).toBe('请求错误 500: /api/x');
    expect(item?.textContent).toContain('服务器发生错误，请检查服务器。');
    vi.advanceTimersByTime(4499);
    expect(box?.children).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(box?.children).toHaveLength(0);
  });

  test('each kind has its literal daisyUI class', () => {
    notification.success({ title: 's' });
    notification.info({ title: 'i' });
    notification.warning({ title: 'w' });
    const classes = [...(notificationBox()?.children ?? [])].map((el) => el.className.split(' ').slice(0, 2).join(' '));
    expect(classes).toEqual(['alert alert-success', 'alert alert-info', 'alert alert-warning']);
    expect([...(notificationBox()?.children ?? [])].map((el) => el.getAttribute('role'))).toEqual([
      'status',
      'status',
      'status',
    ]);
  });

  test('duration can be changed', () => {
    notification.success({ title: 'done', duration: 1000 });
    vi.advanceTimersByTime(1000);
    expect(notificationBox()?.children).toHaveLength(0);
  });
});
