import { useCallback, useId, useState } from 'react';
import { isContentKind, kindPaths, type ContentKind } from '../../content/paths.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import { LoadFailed, Loading } from '../LoadStatus.tsx';
import CardTable, { type CardColumn } from '../table/CardTable.tsx';
import StateBadge from './StateBadge.tsx';
import { lastChangeText } from './lastChange.ts';
import { editUrl, historyUrl, newItemUrl, studioHome } from './studioLinks.ts';
import { loadItems, loadOverview, type ItemSummary, type RegionView } from '../../lib/api/studio.ts';
import { say, type StudioMessages } from '../../lib/studio/messages.ts';
import { useLoad } from './useLoad.ts';
import { useQuery } from './useQuery.ts';

interface Props {
  locale: Locale;
  messages: StudioMessages;
}

type Listing =
  { state: 'unknownKind' } | { state: 'ready'; kind: ContentKind; items: ItemSummary[]; regions: RegionView[] };

async function loadListing(search: URLSearchParams): Promise<Listing | undefined> {
  const kind = search.get('kind');
  if (!isContentKind(kind)) return { state: 'unknownKind' };
  const [list, overview] = await Promise.all([loadItems(kind), loadOverview()]);
  return list && overview ? { state: 'ready', kind, items: list.items, regions: overview.regions } : undefined;
}

/**
 * The items of one kind (/studio/items?kind=news): title, id, region, state in words and colour,
 * the last draft's author and time, and the way to edit each or see its history; per-region
 * kinds can be narrowed to one region (kept in the address as `&region=`).
 */
export default function ItemList({ locale, messages }: Props) {
  const query = useQuery();
  const read = useCallback(() => (query ? loadListing(query) : new Promise<undefined>(() => {})), [query]);
  const { loaded, reload } = useLoad(read);
  const [chosenRegion, setChosenRegion] = useState<string | null>(null);
  const regionId = useId();

  if (loaded.state === 'loading') return <Loading label={messages['studio.loading']} />;
  if (loaded.state === 'failed')
    return (
      <LoadFailed message={messages['studio.loadFailed']} retryLabel={messages['studio.retry']} onRetry={reload} />
    );
  const load = loaded.value;
  if (load.state === 'unknownKind') {
    return (
      <div role="alert" className="alert alert-warning">
        <span>{messages['studio.items.unknownKind']}</span>
        <a className="btn btn-sm" href={studioHome(locale)}>
          {messages['studio.items.back']}
        </a>
      </div>
    );
  }

  const { kind, items, regions } = load;
  const region = chosenRegion ?? query?.get('region') ?? '';
  const spec = kindPaths[kind];
  const kindName = messages[`studio.kind.${kind}`];
  const shown = region ? items.filter((item) => item.areaCode === region) : items;
  const regionName = (areaCode: string | null) =>
    regions.find((entry) => entry.areaCode === areaCode)?.name ?? areaCode ?? '';

  const columns: CardColumn<ItemSummary>[] = [
    {
      key: 'title',
      label: messages['studio.items.col.title'],
      kind: 'key',
      render: (item) => (
        <a className="link" href={editUrl(locale, item.path)}>
          {item.title}
        </a>
      ),
    },
    ...(spec.single
      ? []
      : [
          {
            key: 'id',
            label: messages['studio.items.col.id'],
            kind: 'secondary' as const,
            className: 'font-mono text-xs',
          },
        ]),
    ...(spec.perRegion
      ? [
          {
            key: 'region',
            label: messages['studio.items.col.region'],
            render: (item: ItemSummary) => regionName(item.areaCode),
          },
        ]
      : []),
    {
      key: 'state',
      label: messages['studio.items.col.state'],
      kind: 'status',
      render: (item) => <StateBadge state={item.state} messages={messages} />,
    },
    {
      key: 'draft',
      label: messages['studio.items.col.draft'],
      className: 'text-sm',
      render: (item) => lastChangeText(item, messages, locale),
    },
    {
      key: 'actions',
      label: messages['studio.items.col.actions'],
      kind: 'action',
      render: (item) => (
        <>
          <a
            className="btn btn-ghost btn-xs"
            href={editUrl(locale, item.path)}
            aria-label={say(messages, 'studio.items.editItem', { title: item.title })}
          >
            {messages['studio.items.edit']}
          </a>
          {item.publishedVersion > 0 && (
            <a
              className="btn btn-ghost btn-xs"
              href={historyUrl(locale, item.path)}
              aria-label={say(messages, 'studio.items.historyOf', { title: item.title })}
            >
              {messages['studio.items.history']}
            </a>
          )}
        </>
      ),
    },
  ];

  const chooseRegion = (value: string) => {
    setChosenRegion(value);
    const url = new URL(window.location.href);
    if (value) url.searchParams.set('region', value);
    else url.searchParams.delete('region');
    window.history.replaceState(null, '', url);
  };

  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h2 className="text-xl font-semibold">{kindName}</h2>
        <div className="flex flex-wrap items-end gap-3">
          {spec.perRegion && (
            <div className="fieldset py-0">
              <label htmlFor={regionId} className="fieldset-legend pb-1 text-sm">
                {messages['studio.items.region']}
              </label>
              <select
                id={regionId}
                className="select select-sm w-44"
                value={region}
                onChange={(event) => chooseRegion(event.target.value)}
              >
                <option value="">{messages['studio.items.allRegions']}</option>
                {regions.map((entry) => (
                  <option key={entry.areaCode} value={entry.areaCode}>
                    {entry.name}
                  </option>
                ))}
              </select>
            </div>
          )}
          {!spec.single && (
            <a className="btn btn-primary btn-sm" href={newItemUrl(locale, kind)}>
              {say(messages, 'studio.items.new', { kind: kindName })}
            </a>
          )}
        </div>
      </div>
      {shown.length === 0 ? (
        <p className="rounded-box bg-base-200 p-4">{messages['studio.items.empty']}</p>
      ) : (
        <CardTable
          caption={say(messages, 'studio.items.caption', { kind: kindName })}
          columns={columns}
          rows={shown}
          rowKey={(item) => item.path}
          rowHeaders
        />
      )}
    </div>
  );
}
