import { useStore } from '@nanostores/react';
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import type { Locale } from '../../lib/i18n/locales.ts';
import { localePath } from '../../lib/paths.ts';
import type { UserInfoData } from '../../lib/schemas/account.ts';
import { loadNotices, notices } from '../../stores/notices.ts';
import { getForm } from '../auth/formCall.ts';
import { labelCase } from '../auth/formValidation.ts';
import { OVERVIEW_NOTICE_COUNT, type OverviewMessages } from './overview.ts';
import { roleKey } from '../../lib/roles.ts';
import { USER_INFO_URL, authStatusLabel, formatDateTime, storeUserInfo } from './personData.ts';
import { useSessionReady } from '../useSessionReady.ts';
import { LoadFailed, Loading } from '../LoadStatus.tsx';
import LatestOrders from './LatestOrders.tsx';
import StatusBadge from '../StatusBadge.tsx';

interface Props {
  locale: Locale;
  messages: OverviewMessages;
}

type Loaded = { state: 'loading' } | { state: 'failed' } | { state: 'ready'; info: UserInfoData };

function Card({ title, action, children }: { title: string; action?: ReactNode; children: ReactNode }) {
  return (
    <section className="card border border-base-300 bg-base-100" aria-label={title}>
      <div className="card-body gap-3">
        <div className="flex items-center justify-between gap-2">
          <h2 className="card-title text-base">{title}</h2>
          {action}
        </div>
        {children}
      </div>
    </section>
  );
}

function Row({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div className="flex gap-3 text-sm">
      <dt className="w-24 shrink-0 text-muted">{labelCase(label)}</dt>
      <dd className="min-w-0 break-words">{value}</dd>
    </div>
  );
}

/** Certification needs doing (not certified) or redoing (returned). */
const certifiable = new Set([0, 3]);

/**
 * The personal overview (/person/overview): who I am, my enterprise and its certification status,
 * my latest orders and my latest notices.
 */
export default function Overview({ locale, messages }: Props) {
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const [noticesState, setNoticesState] = useState<'loading' | 'failed' | 'ready'>('loading');
  const list = useStore(notices);
  const dash = messages['account.common.dash'];

  // Starts as loading: the first load only sets the answers; a retry shows loading first.
  const fetchAll = useCallback(async (): Promise<Loaded> => {
    const [answer] = await Promise.all([
      getForm<UserInfoData>(USER_INFO_URL),
      loadNotices().then((answer) => setNoticesState(answer ? 'ready' : 'failed')),
    ]);
    if (answer?.ok) storeUserInfo(answer.data);
    return answer?.ok ? { state: 'ready', info: answer.data } : { state: 'failed' };
  }, []);
  const load = useCallback(async () => {
    setLoaded({ state: 'loading' });
    setLoaded(await fetchAll());
  }, [fetchAll]);

  const ready = useSessionReady();
  useEffect(() => {
    if (ready) void fetchAll().then(setLoaded);
  }, [ready, fetchAll]);

  if (loaded.state === 'loading') {
    return <Loading label={messages['common.loading']} />;
  }
  if (loaded.state === 'failed') {
    return (
      <LoadFailed
        message={messages['account.common.loadFailed']}
        retryLabel={messages['account.common.retry']}
        onRetry={() => void load()}
      />
    );
  }

  const { info } = loaded;
  const enterprise = info.enterprise;
  const latest = list.slice(0, OVERVIEW_NOTICE_COUNT);
  const typeLabel = (type: string) =>
    type === 'notification' || type === 'message' || type === 'event' ? messages[`account.notices.type.${type}`] : type;

  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <Card
        title={messages['account.overview.meTitle']}
        action={
          <a className="link link-primary text-sm" href={localePath(locale, '/person/account')}>
            {messages['account.overview.editAccount']}
          </a>
        }
      >
        <dl className="grid gap-2">
          <Row label={messages['field.name']} value={info.name || dash} />
          <Row label={messages['field.userName']} value={info.userName || dash} />
          <Row label={messages['field.phone']} value={info.mobile || dash} />
          <Row label={messages['field.email']} value={info.email || dash} />
          <Row
            label={messages['account.overview.roles']}
            value={info.roles.map((role) => messages[roleKey(role)]).join('、') || dash}
          />
          <Row
            label={messages['account.overview.memberSince']}
            value={info.createdAt ? formatDateTime(info.createdAt, locale) : dash}
          />
        </dl>
      </Card>

      <Card title={messages['account.overview.enterpriseTitle']}>
        {enterprise ? (
          <>
            <dl className="grid gap-2">
              <Row label={messages['field.enterpriseName']} value={enterprise.enterpriseName} />
              <Row label={messages['field.clearanceAccount']} value={enterprise.clearanceAccount} />
              <Row
                label={messages['account.overview.certStatus']}
                value={
                  <StatusBadge
                    kind="auth"
                    status={enterprise.authStatus}
                    label={authStatusLabel(enterprise.authStatus, messages)}
                    size="sm"
                  />
                }
              />
            </dl>
            <div className="card-actions">
              {certifiable.has(enterprise.authStatus) && (
                <a className="btn btn-primary btn-sm" href={localePath(locale, '/certify/enterprise')}>
                  {messages['account.overview.certify']}
                </a>
              )}
              <a className="btn btn-ghost btn-sm" href={localePath(locale, '/person/enterprise')}>
                {messages['account.overview.enterpriseDetail']}
              </a>
            </div>
          </>
        ) : (
          <>
            <p className="text-sm text-base-content/70">{messages['account.overview.noEnterprise']}</p>
            <div className="card-actions">
              <a className="btn btn-primary btn-sm" href={localePath(locale, '/setting/binding')}>
                {messages['account.overview.bind']}
              </a>
            </div>
          </>
        )}
      </Card>

      <Card
        title={messages['account.overview.ordersTitle']}
        action={
          <a className="link link-primary text-sm" href={localePath(locale, '/person/order')}>
            {messages['account.overview.allOrders']}
          </a>
        }
      >
        {/* Only an enterprise has orders; anyone else sees the empty state and where to start. */}
        {enterprise ? (
          <LatestOrders locale={locale} messages={messages} />
        ) : (
          <p className="text-sm text-base-content/70">{messages['account.overview.ordersEmpty']}</p>
        )}
        <div className="card-actions">
          {enterprise?.authStatus === 2 && (
            <a className="btn btn-primary btn-sm" href={localePath(locale, '/handle/order')}>
              {messages['ordering.list.newOrder']}
            </a>
          )}
          <a className="btn btn-ghost btn-sm" href={localePath(locale, '/products')}>
            {messages['account.overview.browseProducts']}
          </a>
        </div>
      </Card>

      <Card title={messages['account.overview.noticesTitle']}>
        {noticesState === 'loading' ? (
          <p role="status" className="text-sm text-base-content/70">
            {messages['common.loading']}
          </p>
        ) : noticesState === 'failed' ? (
          <p className="text-sm text-error">{messages['account.common.loadFailed']}</p>
        ) : latest.length === 0 ? (
          <p className="text-sm text-base-content/70">{messages['account.overview.noticesEmpty']}</p>
        ) : (
          <ul className="divide-y divide-base-200">
            {latest.map((notice) => (
              <li key={notice.id} className="py-2">
                <p className="flex items-center gap-2 text-sm font-medium">
                  <span className="badge badge-ghost badge-sm">{typeLabel(notice.type)}</span>
                  <span className="min-w-0 flex-1 truncate">{notice.title}</span>
                  {!notice.read && (
                    <span className="badge badge-primary badge-sm">{messages['account.notices.unread']}</span>
                  )}
                </p>
                {notice.description && <p className="mt-1 text-sm text-base-content/70">{notice.description}</p>}
                {notice.datetime && (
                  <p className="mt-1 text-xs text-muted">{formatDateTime(notice.datetime, locale)}</p>
                )}
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}
