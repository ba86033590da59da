/**
 * Toasts and notifications in plain DOM (no React), styled with daisyUI 5 classes.
 *
 * - `message.*`: short toasts at the bottom centre, 3 s by default; `message.notice` is the
 *   transient 1.5 s notice. Not at the top: the header is not fixed, so a toast at the top covers
 *   the main menu (and, on a phone, the section menu under it); nothing navigational is fixed
 *   at the bottom or sits in the footer.
 * - `notification.*`: a title and a description at the top right, 24 px from the top, 4.5 s.
 *
 * Each kind stacks in its own fixed container (a polite live region that stays in the page, so
 * screen readers announce what is added to it); errors carry role="alert", the rest role="status".
 * Text is set with textContent only: server messages are never parsed as HTML. Every toast has a
 * close button with an accessible name; hovering or focusing a toast pauses its timer. The
 * entrance animation is daisyUI's own (`.toast > *`), which it only runs under
 * `prefers-reduced-motion: no-preference`. Class names are written out in full (never built from
 * parts) so that Tailwind's source scan finds them.
 */
import { loadMessages, loadedMessages, fallbackMessages } from './messages.ts';

export const MESSAGE_DURATION_MS = 3000;
export const NOTICE_DURATION_MS = 1500;
export const NOTIFICATION_DURATION_MS = 4500;
export const NOTIFICATION_TOP_PX = 24;

export type ToastKind = 'success' | 'error' | 'info' | 'warning';

export interface ToastHandle {
  /** Removes the toast now (idempotent). */
  close(): void;
}

export interface NotificationArgs {
  title: string;
  description?: string;
  /** A link under the text: where to do what the notification asks. */
  link?: { href: string; text: string };
  /** Milliseconds; 0 keeps it until closed. Default 4.5 s. */
  duration?: number;
}

type Placement = 'message' | 'notification';

const alertClass: Record<ToastKind, string> = {
  success: 'alert alert-success',
  error: 'alert alert-error',
  info: 'alert alert-info',
  warning: 'alert alert-warning',
};

const containerClass: Record<Placement, string> = {
  message: 'toast toast-bottom toast-center',
  notification: 'toast toast-top toast-end',
};

function container(placement: Placement): HTMLElement {
  const existing = document.querySelector<HTMLElement>(`[data-hgd-toasts="${placement}"]`);
  if (existing) return existing;
  const el = document.createElement('div');
  el.dataset['hgdToasts'] = placement;
  el.className = containerClass[placement];
  el.setAttribute('aria-live', 'polite');
  el.style.zIndex = '1000';
  el.style.pointerEvents = 'none';
  if (placement === 'notification') {
    el.style.top = `${NOTIFICATION_TOP_PX}px`;
    el.style.insetInlineEnd = `${NOTIFICATION_TOP_PX}px`;
    el.style.margin = '0';
    el.style.padding = '0';
  }
  document.body.append(el);
  return el;
}

function closeButton(): HTMLButtonElement {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'btn btn-ghost btn-xs btn-circle';
  const label = loadedMessages()?.['common.close'];
  button.setAttribute('aria-label', label ?? fallbackMessages['common.close']);
  if (!label) {
    void loadMessages().then((messages) => {
      if (messages) button.setAttribute('aria-label', messages['common.close']);
    });
  }
  const icon = document.createElement('span');
  icon.setAttribute('aria-hidden', 'true');
  icon.textContent = '✕';
  button.append(icon);
  return button;
}

const noop: ToastHandle = { close() {} };

function canShow(): boolean {
  return typeof document !== 'undefined' && document.body !== null;
}

function show(placement: Placement, kind: ToastKind, content: Node[], duration: number): ToastHandle {
  const item = document.createElement('div');
  item.className = `${alertClass[kind]} ${placement === 'notification' ? 'max-w-sm' : 'max-w-md'} shadow-lg`;
  item.setAttribute('role', kind === 'error' ? 'alert' : 'status');
  item.dataset['kind'] = kind;
  item.style.pointerEvents = 'auto';
  const body = document.createElement('div');
  body.append(...content);
  const button = closeButton();
  item.append(body, button);

  let timer: ReturnType<typeof setTimeout> | undefined;
  let remaining = duration;
  let startedAt = 0;
  let closed = false;
  const close = (): void => {
    if (closed) return;
    closed = true;
    if (timer !== undefined) clearTimeout(timer);
    item.remove();
  };
  const start = (): void => {
    if (duration <= 0 || closed || timer !== undefined) return;
    startedAt = Date.now();
    timer = setTimeout(close, remaining);
  };
  const pause = (): void => {
    if (timer === undefined) return;
    clearTimeout(timer);
    timer = undefined;
    remaining = Math.max(0, remaining - (Date.now() - startedAt));
  };
  button.addEventListener('click', close);
  item.addEventListener('mouseenter', pause);
  item.addEventListener('mouseleave', start);
  item.addEventListener('focusin', pause);
  item.addEventListener('focusout', (event) => {
    if (!(event.relatedTarget instanceof Node && item.contains(event.relatedTarget))) start();
  });

  container(placement).append(item);
  start();
  return { close };
}

function textNode(tag: 'span' | 'p', text: string, className?: string): HTMLElement {
  const el = document.createElement(tag);
  if (className) el.className = className;
  el.textContent = text;
  return el;
}

function toast(kind: ToastKind) {
  return (text: string, duration: number = MESSAGE_DURATION_MS): ToastHandle =>
    canShow() ? show('message', kind, [textNode('span', text)], duration) : noop;
}

/** Short toasts at the bottom centre (3 s by default; `notice` 1.5 s). */
export const message = {
  success: toast('success'),
  error: toast('error'),
  info: toast('info'),
  warning: toast('warning'),
  /** The transient notice: an info toast that goes after 1.5 s. */
  notice: (text: string): ToastHandle => toast('info')(text, NOTICE_DURATION_MS),
};

function notify(kind: ToastKind) {
  return ({ title, description, link, duration = NOTIFICATION_DURATION_MS }: NotificationArgs): ToastHandle => {
    if (!canShow()) return noop;
    const content: Node[] = [textNode('p', title, 'font-semibold')];
    if (description) content.push(textNode('p', description, 'text-sm'));
    if (link) {
      const anchor = document.createElement('a');
      anchor.className = 'link text-sm font-medium';
      anchor.href = link.href;
      anchor.textContent = link.text;
      content.push(anchor);
    }
    return show('notification', kind, content, duration);
  };
}

/** Notifications with a title and a description at the top right (4.5 s by default). */
export const notification = {
  success: notify('success'),
  error: notify('error'),
  info: notify('info'),
  warning: notify('warning'),
};
