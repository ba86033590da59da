import { useEffect, useId, useRef, useState } from 'react';
import { OK } from '../../lib/apiCodes.ts';
import { statusBadgeClass } from '../../lib/statusBadges.ts';
import { formatChinaDateTime } from '../../lib/chinaTime.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import ConfirmDialog from '../ConfirmDialog.tsx';
import { LoadFailed, Loading } from '../LoadStatus.tsx';
import CardTable, { type CardColumn } from '../table/CardTable.tsx';
import { cancelSchedule, loadSchedules, type ScheduleList, type ScheduleView } from '../../lib/api/studioSchedules.ts';
import { editUrl, publicationsUrl } from './studioLinks.ts';
import { say, type StudioKey, type StudioMessages } from '../../lib/studio/messages.ts';
import { useLoad } from './useLoad.ts';

interface Props {
  locale: Locale;
  messages: StudioMessages;
  /** Changed by the page when it has scheduled something: the list is read again. */
  refresh: number;
}

/** While something is due or under way, the list is read again this often (else at the next one's time). */
const pollMs = 5_000;
/** The longest a browser timer waits. */
const maxTimerMs = 2 ** 31 - 1;

/** The list, and when it was read (what "due" is measured against). */
async function readSchedules(): Promise<(ScheduleList & { readAt: number }) | undefined> {
  const list = await loadSchedules();
  return list && { ...list, readAt: Date.now() };
}

/** What a schedule's state is called, and its badge (the words always on it). */
function stateOf(view: ScheduleView, now: number): { key: StudioKey; badge: string } {
  const state = view.status === 'scheduled' && new Date(view.runAt).getTime() <= now ? 'due' : view.status;
  return { key: `studio.schedules.status.${state}`, badge: statusBadgeClass('schedule', state) };
}

/**
 * "已计划" on the pending-changes page: the scheduled publications and removals, soonest first —
 * when (China time), what, which items, who, and their state — each cancellable until it starts
 * (after a confirmation); below, those of the last 30 days that ran, failed (and why) or were
 * cancelled. Read again every few seconds while one is due or running.
 */
export default function ScheduledList({ locale, messages, refresh }: Props) {
  const { loaded, reload } = useLoad(readSchedules);
  const [target, setTarget] = useState<ScheduleView | null>(null);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const headingId = useId();
  const noticeRef = useRef<HTMLDivElement>(null);
  const firstRefresh = useRef(refresh);

  useEffect(() => {
    if (refresh !== firstRefresh.current) reload();
  }, [refresh, reload]);

  const now = loaded.state === 'ready' ? loaded.value.readAt : 0;
  // Read again when the soonest one is due, and every few seconds while one is due or running.
  const nextRead =
    loaded.state === 'ready' && loaded.value.upcoming.length
      ? Math.min(
          ...loaded.value.upcoming.map((view) =>
            view.status === 'running' ? pollMs : Math.max(pollMs, new Date(view.runAt).getTime() - now + 1_000),
          ),
        )
      : undefined;
  useEffect(() => {
    if (nextRead === undefined) return;
    const timer = window.setTimeout(reload, Math.min(nextRead, maxTimerMs));
    return () => window.clearTimeout(timer);
  }, [nextRead, loaded, reload]);

  const doCancel = async () => {
    if (!target) return;
    setBusy(true);
    const answer = await cancelSchedule(target.id);
    setBusy(false);
    setTarget(null);
    if (answer)
      setNotice(
        answer.code === OK
          ? { tone: 'success', text: messages['studio.schedules.cancelled'] }
          : { tone: 'error', text: answer.message },
      );
    reload();
    requestAnimationFrame(() => noticeRef.current?.focus());
  };

  const at = (iso: string) => formatChinaDateTime(iso, locale);

  // One set of columns for both lists; only the upcoming ones can still be cancelled.
  const columns = (cancellable: boolean): CardColumn<ScheduleView>[] => [
    {
      key: 'runAt',
      label: messages['studio.schedules.col.runAt'],
      kind: 'key',
      className: 'whitespace-nowrap',
      render: (view) => at(view.runAt),
    },
    {
      key: 'action',
      label: messages['studio.schedules.col.action'],
      render: (view) => messages[`studio.schedules.action.${view.action}`],
    },
    {
      key: 'items',
      label: messages['studio.schedules.col.items'],
      render: (view) => (
        <ul className="grid gap-1">
          {view.items.map((item) => (
            <li key={item.path}>
              <a className="link" href={editUrl(locale, item.path)}>
                {item.title}
              </a>
              <div className="font-mono text-xs text-base-content/70">{item.path}</div>
            </li>
          ))}
        </ul>
      ),
    },
    {
      key: 'by',
      label: messages['studio.schedules.col.by'],
      className: 'text-sm',
      render: (view) =>
        view.createdBy
          ? say(messages, 'studio.schedules.by', { name: view.createdBy, at: at(view.createdAt) })
          : at(view.createdAt),
    },
    {
      key: 'status',
      label: messages['studio.schedules.col.status'],
      kind: 'status',
      render: (view) => {
        const state = stateOf(view, now);
        return (
          <>
            <span className={state.badge} data-status={view.status}>
              {messages[state.key]}
            </span>
            {view.buildId !== null && (
              <div className="mt-1 text-sm">
                <a className="link" href={publicationsUrl(locale)}>
                  {say(messages, 'studio.schedules.build', { buildId: view.buildId })}
                </a>
              </div>
            )}
            {view.status === 'done' && view.buildId === null && (
              <p className="mt-1 text-sm whitespace-normal">{messages['studio.schedules.noBuild']}</p>
            )}
            {view.failure && (
              <div className="mt-1 grid gap-1 text-sm whitespace-normal" data-failure={view.failure.reason}>
                <p>
                  {say(messages, `studio.schedules.reason.${view.failure.reason}`, {
                    paths: view.failure.paths.join(', '),
                  })}
                </p>
                {view.failure.detail && <pre className="whitespace-pre-wrap text-xs">{view.failure.detail}</pre>}
              </div>
            )}
          </>
        );
      },
    },
    ...(cancellable
      ? [
          {
            key: 'actions',
            label: messages['studio.schedules.col.actions'],
            kind: 'action' as const,
            render: (view: ScheduleView) =>
              view.status === 'scheduled' && (
                <button
                  type="button"
                  className="btn btn-sm btn-outline btn-error"
                  aria-label={say(messages, 'studio.schedules.cancelOf', { at: at(view.runAt) })}
                  onClick={() => setTarget(view)}
                >
                  {messages['studio.schedules.cancel']}
                </button>
              ),
          },
        ]
      : []),
  ];
  const table = (caption: string, views: readonly ScheduleView[], cancellable: boolean) => (
    <CardTable
      caption={caption}
      columns={columns(cancellable)}
      rows={views}
      rowKey={(view) => String(view.id)}
      rowProps={(view) => ({ 'data-schedule': view.id })}
    />
  );

  return (
    <section aria-labelledby={headingId} className="grid gap-3" data-schedules>
      <div>
        <h2 id={headingId} className="text-lg font-semibold">
          {messages['studio.schedules.title']}
        </h2>
        <p className="text-sm text-base-content/70">{messages['studio.schedules.lead']}</p>
      </div>
      <div ref={noticeRef} tabIndex={-1} className="outline-none" aria-live="polite">
        {notice && (
          <p
            role={notice.tone === 'error' ? 'alert' : 'status'}
            className={`alert ${notice.tone === 'error' ? 'alert-error' : 'alert-success'}`}
          >
            {notice.text}
          </p>
        )}
      </div>
      {loaded.state === 'loading' && <Loading label={messages['studio.loading']} />}
      {loaded.state === 'failed' && (
        <LoadFailed message={messages['studio.loadFailed']} retryLabel={messages['studio.retry']} onRetry={reload} />
      )}
      {loaded.state === 'ready' && (
        <>
          {loaded.value.upcoming.length === 0 ? (
            <p className="rounded-box bg-base-200 p-4">{messages['studio.schedules.empty']}</p>
          ) : (
            table(messages['studio.schedules.title'], loaded.value.upcoming, true)
          )}
          {loaded.value.recent.length > 0 && (
            <details className="rounded-box border border-base-300 p-3">
              <summary className="cursor-pointer font-medium">{messages['studio.schedules.recent']}</summary>
              <div className="mt-2">{table(messages['studio.schedules.recent'], loaded.value.recent, false)}</div>
            </details>
          )}
        </>
      )}
      <ConfirmDialog
        open={target !== null}
        title={target ? say(messages, 'studio.schedules.cancelTitle', { at: at(target.runAt) }) : ''}
        body={messages['studio.schedules.cancelBody']}
        confirmLabel={messages['studio.schedules.cancel']}
        cancelLabel={messages['studio.schedules.keep']}
        busy={busy}
        onConfirm={() => void doCancel()}
        onCancel={() => setTarget(null)}
      />
    </section>
  );
}
