import { useStore } from '@nanostores/react';
import { useState } from 'react';
import { OK } from '../../lib/apiCodes.ts';
import { statusBadgeClass } from '../../lib/statusBadges.ts';
import { formatChinaDateTime } from '../../lib/chinaTime.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import { followBuild, studioBuild } from '../../stores/studioBuild.ts';
import ConfirmDialog from '../ConfirmDialog.tsx';
import { LoadFailed, Loading } from '../LoadStatus.tsx';
import CardTable, { type CardColumn } from '../table/CardTable.tsx';
import BuildStatus from './BuildStatus.tsx';
import { historyUrl } from './studioLinks.ts';
import {
  loadOverview,
  loadPublications,
  rollback,
  type StudioBuildView,
  type PublicationView,
  type RegionView,
} from '../../lib/api/studio.ts';
import { say, type StudioMessages } from '../../lib/studio/messages.ts';
import { useFollowRunning } from './useFollowRunning.ts';
import { useLoad } from './useLoad.ts';

interface Props {
  locale: Locale;
  messages: StudioMessages;
}

interface Listed {
  published: number | null;
  builds: PublicationView[];
  regions: RegionView[];
  running: StudioBuildView | null;
}

async function loadListed(): Promise<Listed | undefined> {
  const [list, overview] = await Promise.all([loadPublications(), loadOverview()]);
  return list && overview
    ? { published: list.published, builds: list.builds, regions: overview.regions, running: overview.running }
    : undefined;
}

/**
 * The publications (/studio/publications), newest first: when, by whom, what each changed, which
 * one the site shows now; the site rolled back to a kept earlier one after a confirmation.
 */
export default function Publications({ locale, messages }: Props) {
  const build = useStore(studioBuild);
  const { loaded, reload } = useLoad(loadListed);
  useFollowRunning(loaded.state === 'ready' ? loaded.value.running : null, reload);
  const [target, setTarget] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);

  if (loaded.state === 'loading') return <Loading label={messages['studio.loading']} />;
  if (loaded.state === 'failed')
    return (
      <LoadFailed message={messages['studio.loadFailed']} retryLabel={messages['studio.retry']} onRetry={reload} />
    );

  const { builds, published, regions } = loaded.value;
  const running = build?.status === 'running';

  const columns: CardColumn<PublicationView>[] = [
    {
      key: 'build',
      label: messages['studio.pub.col.build'],
      kind: 'key',
      className: 'tabular-nums',
      render: (entry) => (
        <>
          {entry.buildId}
          {entry.buildId === published && (
            <span className="badge badge-primary ml-2 whitespace-nowrap">{messages['studio.pub.current']}</span>
          )}
        </>
      ),
    },
    {
      key: 'at',
      label: messages['studio.pub.col.at'],
      kind: 'secondary',
      render: (entry) => formatChinaDateTime(entry.publishedAt ?? entry.startedAt, locale),
    },
    {
      key: 'by',
      label: messages['studio.pub.col.by'],
      render: (entry) => entry.startedBy ?? messages['studio.history.system'],
    },
    {
      key: 'state',
      label: messages['studio.pub.col.state'],
      kind: 'status',
      render: (entry) => (
        <>
          <span className={statusBadgeClass('build', entry.status)}>
            {messages[`studio.pub.status.${entry.status}`]}
          </span>
          <span className="mt-1 block text-xs text-base-content/70">{messages[`studio.pub.mode.${entry.mode}`]}</span>
        </>
      ),
    },
    {
      key: 'items',
      label: messages['studio.pub.col.items'],
      render: (entry) => (
        <>
          {entry.mode === 'initial' ? (
            <span className="text-base-content/70">{messages['studio.pub.initial']}</span>
          ) : entry.items.length === 0 ? (
            <span className="text-base-content/70">{messages['studio.pub.noItems']}</span>
          ) : (
            <ul className="grid gap-1">
              {entry.items.map((item) => (
                <li key={item.path}>
                  <a className="link" href={historyUrl(locale, item.path)}>
                    {say(messages, 'studio.pub.versionOf', { title: item.title, version: item.version })}
                  </a>
                </li>
              ))}
            </ul>
          )}
          {entry.status === 'failed' && entry.error && (
            <pre className="mt-1 max-w-md text-xs whitespace-pre-wrap text-error">{entry.error}</pre>
          )}
        </>
      ),
    },
    {
      key: 'actions',
      label: messages['studio.items.col.actions'],
      kind: 'action',
      render: (entry) =>
        entry.status === 'succeeded' &&
        entry.buildId !== published &&
        (entry.kept ? (
          <button
            type="button"
            className="btn btn-outline btn-sm"
            disabled={running || busy}
            aria-label={say(messages, 'studio.pub.rollbackTo', { buildId: entry.buildId })}
            onClick={() => setTarget(entry.buildId)}
          >
            {messages['studio.pub.rollback']}
          </button>
        ) : (
          <span className="text-sm text-base-content/70">{messages['studio.pub.notKept']}</span>
        )),
    },
  ];

  const doRollback = async () => {
    if (target === null) return;
    setBusy(true);
    const answer = await rollback(target);
    setBusy(false);
    const buildId = target;
    setTarget(null);
    if (!answer) return;
    if (answer.code !== OK) {
      setNotice({ tone: 'error', text: answer.message });
      return;
    }
    setNotice({ tone: 'success', text: say(messages, 'studio.pub.rolledBack', { buildId }) });
    if (answer.data.status === 'running') followBuild(answer.data);
    reload();
  };

  return (
    <div className="grid gap-4">
      <div aria-live="polite">
        {notice && (
          <div
            role={notice.tone === 'error' ? 'alert' : 'status'}
            className={`alert ${notice.tone === 'error' ? 'alert-error' : 'alert-success'}`}
          >
            {notice.text}
          </div>
        )}
      </div>
      {build && <BuildStatus build={build} regions={regions} locale={locale} messages={messages} />}
      {builds.length === 0 ? (
        <p className="rounded-box bg-base-200 p-4">{messages['studio.pub.empty']}</p>
      ) : (
        <CardTable
          caption={messages['studio.pub.caption']}
          columns={columns}
          rows={builds}
          rowKey={(entry) => String(entry.buildId)}
          rowProps={(entry) => ({
            'data-build': entry.buildId,
            className: entry.buildId === published ? 'bg-base-200' : undefined,
          })}
          rowHeaders
        />
      )}
      <ConfirmDialog
        open={target !== null}
        title={say(messages, 'studio.pub.rollbackTitle', { buildId: target ?? 0 })}
        body={messages['studio.pub.rollbackBody']}
        confirmLabel={messages['studio.pub.rollback']}
        cancelLabel={messages['studio.cancel']}
        busy={busy}
        onConfirm={() => void doRollback()}
        onCancel={() => setTarget(null)}
      />
    </div>
  );
}
