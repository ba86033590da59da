import { useStore } from '@nanostores/react';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { format } from '../../lib/api/messages.ts';
import { formatChinaDateTime } from '../../lib/chinaTime.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import { loginPath } from '../../lib/loginRedirect.ts';
import { localePath } from '../../lib/paths.ts';
import type { NoticeTypeName } from '../../lib/notices.ts';
import { clearType, loadNotices, markRead, notices } from '../../stores/notices.ts';
import { currentUser, loginStatus } from '../../stores/session.ts';
import ConfirmDialog from '../ConfirmDialog.tsx';
import { postForm } from '../auth/formCall.ts';
import { useMountedSignal } from '../useMountedSignal.ts';
import { useDismiss } from '../useDismiss.ts';
import {
  NOTICE_CLEAR_URL,
  NOTICE_READ_URL,
  badgeText,
  noticeTypes,
  noticesOfType,
  type NoticeBellMessages,
} from './noticeBell.ts';

interface Props {
  locale: Locale;
  messages: NoticeBellMessages;
}

type LoadState = 'idle' | 'loading' | 'ready' | 'failed' | 'anonymous';

/** What the notices' answer means for the bell. */
function stateAfter(answer: unknown): LoadState {
  // A visitor: the call answered 901 and cleared the login status (allowAnonymous).
  return answer ? 'ready' : loginStatus.get() === null ? 'anonymous' : 'failed';
}

/**
 * The header's notice bell: a button and, when open, the user's notices by type with unread
 * counts; one notice can be marked read, and every notice of a type cleared (after a
 * confirmation). Its closed state is server-rendered and the same for every visitor; it hydrates
 * on intent (`client:intent`) and only then asks for the notices.
 */
export default function NoticeBell({ locale, messages }: Props) {
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const tabRefs = useRef<(HTMLButtonElement | null)[]>([]);
  const panelId = useId();
  const baseId = useId();
  const [open, setOpen] = useState(false);
  const [state, setState] = useState<LoadState>('idle');
  const [type, setType] = useState<NoticeTypeName>('notification');
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const list = useStore(notices);
  const user = useStore(currentUser);
  useMountedSignal(rootRef);

  /** Again (a retry). */
  const load = async () => {
    setState('loading');
    setState(stateAfter(await loadNotices()));
  };

  useEffect(() => {
    void loadNotices().then((answer) => setState(stateAfter(answer)));
    // Logging out (or any 901) empties the notices; the bell then speaks to a visitor.
    return loginStatus.listen((value) => {
      if (value === null) setState('anonymous');
    });
  }, []);

  // Escape in the confirmation closes the confirmation only.
  useDismiss(open, setOpen, rootRef, buttonRef, !confirming);

  // Counts live on the current user (spec §3, §4); the store recalculates them on every change.
  // Only once the notices have loaded in the browser: the server-rendered bell has no badge,
  // whoever looks at it (the state is 'idle' there and at hydration).
  const unread = state === 'ready' ? (user.unreadCount ?? 0) : 0;
  const label =
    unread > 0 ? format(messages['account.notices.bellUnread'], { count: unread }) : messages['account.notices.bell'];
  const typeLabel = (name: NoticeTypeName) => messages[`account.notices.type.${name}`];
  const current = noticesOfType(list, type);

  const onTabKey = (event: KeyboardEvent<HTMLButtonElement>) => {
    const index = noticeTypes.indexOf(type);
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    event.preventDefault();
    const next = noticeTypes[(index + step + noticeTypes.length) % noticeTypes.length] ?? 'notification';
    setType(next);
    tabRefs.current[noticeTypes.indexOf(next)]?.focus();
  };

  const read = async (id: number | string) => {
    const answer = await postForm(NOTICE_READ_URL, { id });
    if (answer?.ok) markRead(id);
  };

  const clear = async () => {
    setBusy(true);
    const answer = await postForm(NOTICE_CLEAR_URL, { type });
    setBusy(false);
    setConfirming(false);
    if (answer?.ok) clearType(type);
  };

  const body = () => {
    if (state === 'anonymous') {
      return (
        <p className="p-2 text-sm">
          {messages['account.notices.loginPrompt']}{' '}
          <a className="link link-primary" href={localePath(locale, loginPath)}>
            {messages['header.login']}
          </a>
        </p>
      );
    }
    if (state === 'failed') {
      return (
        <div className="flex items-center gap-2 p-2 text-sm">
          <span>{messages['account.common.loadFailed']}</span>
          <button type="button" className="btn btn-xs" onClick={() => void load()}>
            {messages['account.common.retry']}
          </button>
        </div>
      );
    }
    if (state !== 'ready') {
      return (
        <p role="status" className="flex items-center gap-2 p-2 text-sm text-base-content/70">
          <span className="loading loading-spinner loading-xs" aria-hidden="true" />
          {messages['account.notices.loading']}
        </p>
      );
    }
    return (
      <>
        <div role="tablist" aria-label={messages['account.notices.tabsLabel']} className="tabs tabs-border">
          {noticeTypes.map((name, index) => {
            const count = noticesOfType(list, name).unread;
            return (
              <button
                key={name}
                ref={(node) => {
                  tabRefs.current[index] = node;
                }}
                id={`${baseId}-tab-${name}`}
                type="button"
                role="tab"
                aria-selected={type === name}
                aria-controls={`${baseId}-panel`}
                tabIndex={type === name ? 0 : -1}
                className={type === name ? 'tab tab-active gap-1' : 'tab gap-1'}
                onClick={() => setType(name)}
                onKeyDown={onTabKey}
              >
                {typeLabel(name)}
                {count > 0 && (
                  <span
                    className="badge badge-primary badge-xs"
                    aria-label={format(messages['account.notices.unreadCount'], { count })}
                  >
                    {badgeText(count)}
                  </span>
                )}
              </button>
            );
          })}
        </div>
        <div
          id={`${baseId}-panel`}
          role="tabpanel"
          aria-labelledby={`${baseId}-tab-${type}`}
          className="max-h-80 overflow-y-auto"
        >
          {current.items.length === 0 ? (
            <p className="p-4 text-center text-sm text-muted">
              {format(messages['account.notices.empty'], { type: typeLabel(type) })}
            </p>
          ) : (
            <ul className="divide-y divide-base-200">
              {current.items.map((notice) => (
                <li key={notice.id} className="flex items-start gap-2 py-2">
                  <div className="min-w-0 flex-1">
                    <p className={notice.read ? 'text-sm text-base-content/70' : 'text-sm font-medium'}>
                      {!notice.read && <span className="sr-only">{messages['account.notices.unread']}: </span>}
                      {notice.title}
                    </p>
                    {notice.description && <p className="text-xs text-muted">{notice.description}</p>}
                    {notice.datetime && (
                      <p className="text-xs text-muted">{formatChinaDateTime(notice.datetime, locale)}</p>
                    )}
                  </div>
                  {!notice.read && (
                    <button type="button" className="btn btn-ghost btn-xs" onClick={() => void read(notice.id)}>
                      {messages['account.notices.markRead']}
                    </button>
                  )}
                </li>
              ))}
            </ul>
          )}
        </div>
        {current.items.length > 0 && (
          <div className="border-t border-base-200 pt-2 text-right">
            <button type="button" className="btn btn-ghost btn-xs text-error" onClick={() => setConfirming(true)}>
              {format(messages['account.notices.clear'], { type: typeLabel(type) })}
            </button>
          </div>
        )}
        <ConfirmDialog
          open={confirming}
          title={format(messages['account.notices.clear'], { type: typeLabel(type) })}
          body={format(messages['account.notices.confirmClear'], { type: typeLabel(type) })}
          confirmLabel={messages['account.common.confirm']}
          cancelLabel={messages['account.common.cancel']}
          busy={busy}
          onConfirm={() => void clear()}
          onCancel={() => setConfirming(false)}
        />
      </>
    );
  };

  return (
    <div ref={rootRef} className="relative">
      <button
        ref={buttonRef}
        type="button"
        className="btn btn-ghost btn-sm btn-square relative"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        aria-label={label}
        onClick={() => setOpen((value) => !value)}
      >
        {/* pointer-events-none: a click before hydration must land on the button itself; the
            client:intent directive replays held clicks on HTML elements only, not on SVG parts. */}
        <svg
          aria-hidden="true"
          viewBox="0 0 24 24"
          className="pointer-events-none size-5"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
        >
          <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
          <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
        </svg>
        {unread > 0 && (
          <span aria-hidden="true" className="pointer-events-none badge badge-error badge-xs absolute -right-1 -top-1">
            {badgeText(unread)}
          </span>
        )}
      </button>
      {open && (
        <div
          id={panelId}
          role="region"
          aria-label={messages['account.notices.panelLabel']}
          className="absolute right-0 z-20 mt-1 w-80 max-w-[calc(100vw-2rem)] rounded-box bg-base-100 p-2 shadow-lg"
        >
          {body()}
        </div>
      )}
    </div>
  );
}
