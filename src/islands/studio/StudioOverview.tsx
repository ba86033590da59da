import { useStore } from '@nanostores/react';
import { contentKinds, type ContentKind } from '../../content/paths.ts';
import { formatChinaDateTime } from '../../lib/chinaTime.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import { studioBuild } from '../../stores/studioBuild.ts';
import { LoadFailed, Loading } from '../LoadStatus.tsx';
import CardTable, { type CardColumn } from '../table/CardTable.tsx';
import type { ExportMessages } from '../table/exportFile.ts';
import BuildStatus from './BuildStatus.tsx';
import ContentPackage from './ContentPackage.tsx';
import { changesUrl, itemsUrl } from './studioLinks.ts';
import { loadOverview, type Overview } from '../../lib/api/studio.ts';
import { say, type StudioMessages } from '../../lib/studio/messages.ts';
import { useFollowRunning } from './useFollowRunning.ts';
import { useLoad } from './useLoad.ts';

interface Props {
  locale: Locale;
  messages: StudioMessages;
  exportMessages: ExportMessages;
}

/**
 * The studio's first page (/studio): the public site's current publication, the pending changes
 * (with the way to preview and publish them), a build under way, and every kind of content
 * with its number of items and drafts, each leading to its list.
 */
export default function StudioOverview({ locale, messages, exportMessages }: Props) {
  const build = useStore(studioBuild);
  const { loaded, reload } = useLoad(loadOverview);
  useFollowRunning(loaded.state === 'ready' ? loaded.value.running : null, reload);

  if (loaded.state === 'loading') return <Loading label={messages['studio.loading']} />;
  if (loaded.state === 'failed')
    return (
      <LoadFailed message={messages['studio.loadFailed']} retryLabel={messages['studio.retry']} onRetry={reload} />
    );
  const overview: Overview = loaded.value;

  const counts = (kind: ContentKind) => overview.kinds[kind] ?? { items: 0, drafts: 0 };
  const columns: CardColumn<ContentKind>[] = [
    {
      key: 'kind',
      label: messages['studio.overview.col.kind'],
      kind: 'key',
      render: (kind) => (
        <a className="link" href={itemsUrl(locale, kind)}>
          {messages[`studio.kind.${kind}`]}
        </a>
      ),
    },
    {
      key: 'items',
      label: messages['studio.overview.col.items'],
      className: 'text-right tabular-nums',
      render: (kind) => counts(kind).items,
    },
    {
      key: 'drafts',
      label: messages['studio.overview.col.drafts'],
      className: 'text-right tabular-nums',
      render: (kind) =>
        counts(kind).drafts > 0 ? <span className="badge badge-warning">{counts(kind).drafts}</span> : 0,
    },
  ];

  return (
    <div className="grid gap-6">
      <div className="grid gap-4 md:grid-cols-2">
        <section aria-labelledby="studio-site" className="rounded-box bg-base-200 p-4">
          <h2 id="studio-site" className="font-semibold">
            {messages['studio.overview.site']}
          </h2>
          <p className="mt-2">
            {overview.published
              ? say(messages, 'studio.overview.published', {
                  buildId: overview.published.buildId,
                  at: formatChinaDateTime(overview.published.publishedAt, locale),
                })
              : messages['studio.overview.neverPublished']}
          </p>
        </section>
        <section aria-labelledby="studio-drafts" className="rounded-box bg-base-200 p-4">
          <h2 id="studio-drafts" className="font-semibold">
            {messages['studio.overview.col.drafts']}
          </h2>
          <p className="mt-2">
            {overview.drafts > 0
              ? say(messages, 'studio.overview.drafts', { count: overview.drafts })
              : messages['studio.overview.noDrafts']}
          </p>
          {overview.drafts > 0 && (
            <a className="btn btn-primary btn-sm mt-3" href={changesUrl(locale)}>
              {messages['studio.overview.reviewDrafts']}
            </a>
          )}
        </section>
      </div>
      {build && <BuildStatus build={build} regions={overview.regions} locale={locale} messages={messages} />}
      <ContentPackage locale={locale} messages={messages} exportMessages={exportMessages} onImported={reload} />
      <CardTable
        caption={messages['studio.overview.kinds']}
        captionShown
        columns={columns}
        rows={contentKinds}
        rowKey={(kind) => kind}
        rowHeaders
      />
    </div>
  );
}
