import { useStore } from '@nanostores/react';
import { useEffect, useId, useRef, useState } from 'react';
import type { Locale } from '../../lib/i18n/locales.ts';
import { loginStatus } from '../../stores/loginStatus.ts';
import { currentUser, loadCurrentUser, logout } from '../../stores/session.ts';
import { useMountedSignal } from '../useMountedSignal.ts';
import { useDismiss } from '../useDismiss.ts';
import { userMenuItems, type UserMenuMessages } from './userMenu.ts';

interface Props {
  locale: Locale;
  messages: UserMenuMessages;
}

/**
 * The header's account menu (a disclosure: a button and a list of links). Its closed state is
 * server-rendered and identical for everyone; it hydrates on intent (`client:intent`).
 */
export default function UserMenu({ locale, messages }: Props) {
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuId = useId();
  const [open, setOpen] = useState(false);
  const status = useStore(loginStatus);
  const user = useStore(currentUser);
  useMountedSignal(rootRef);

  useDismiss(open, setOpen, rootRef, buttonRef);

  // The roles decide whether the studio is offered: ask for the user once the menu opens, when no page has yet.
  const loggedIn = status?.status === 'ok';
  useEffect(() => {
    if (open && loggedIn && user.id === undefined) void loadCurrentUser();
  }, [open, loggedIn, user.id]);

  // Rendered only when open: the server-rendered closed state is the same for every visitor,
  // so hydration never mismatches whatever the login status.
  const items = userMenuItems(loggedIn, locale, messages, user.roles);

  return (
    <div ref={rootRef} className="relative">
      <button
        ref={buttonRef}
        type="button"
        className="btn btn-ghost btn-sm gap-1"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((value) => !value)}
      >
        <svg
          aria-hidden="true"
          viewBox="0 0 24 24"
          className="size-4"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
        >
          <circle cx="12" cy="8" r="4" />
          <path d="M4 21a8 8 0 0 1 16 0" />
        </svg>
        {/* Named by its text, so the name holds what is seen (WCAG 2.5.3): "我的 账户菜单". */}
        <span>{messages['header.account']}</span>
        <span className="sr-only"> {messages['header.accountMenu']}</span>
      </button>
      {open && (
        <ul id={menuId} className="menu absolute right-0 z-20 mt-1 w-48 rounded-box bg-base-100 p-2 shadow-lg">
          {items.map((item) => (
            <li key={item.kind === 'link' ? item.href : 'logout'}>
              {item.kind === 'link' ? (
                <a href={item.href}>{item.label}</a>
              ) : (
                <button type="button" onClick={() => void logout()}>
                  {item.label}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
