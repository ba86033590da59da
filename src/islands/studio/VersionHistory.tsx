import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import { kindOfPath, type ContentKind } from '../../content/paths.ts';
import { OK } from '../../lib/apiCodes.ts';
import { formatChinaDateTime } from '../../lib/chinaTime.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import ConfirmDialog from '../ConfirmDialog.tsx';
import { LoadFailed, Loading } from '../LoadStatus.tsx';
import CardTable, { type CardColumn } from '../table/CardTable.tsx';
import { editUrl } from './studioLinks.ts';
import {
  loadItem,
  loadVersion,
  loadVersions,
  restoreItem,
  type ItemView,
  type VersionSummary,
} from '../../lib/api/studio.ts';
import { say, type StudioMessages } from '../../lib/studio/messages.ts';
import { useLoad } from './useLoad.ts';
import { useQuery } from './useQuery.ts';
import { versionDiff } from './versionDiff.ts';

interface Props {
  locale: Locale;
  messages: StudioMessages;
}

/** A version number, or the current draft. */
type Side = number | 'draft';

interface History {
  kind: ContentKind;
  item: ItemView;
  versions: VersionSummary[];
}

type Opened = { state: 'missing' } | ({ state: 'ready' } & History);

async function openHistory(path: string): Promise<Opened | undefined> {
  const kind = kindOfPath(path)?.kind;
  if (!kind) return { state: 'missing' };
  const [item, list] = await Promise.all([loadItem(path), loadVersions(path)]);
  if (!item || !list) return undefined;
  if (item.code !== OK) return { state: 'missing' };
  return { state: 'ready', kind, item: item.data, versions: list.versions };
}

/** What is compared at first: the draft against the newest version when there is a draft, else the newest against the one before. */
function firstPair({ item, versions }: History): { from: Side | null; to: Side | null } {
  const [newest, previous] = versions;
  if (item.draft !== null && newest) return { from: newest.version, to: 'draft' };
  return { from: previous?.version ?? newest?.version ?? null, to: newest?.version ?? null };
}

/**
 * An item's version history (/studio/history?path=…): every published version, newest first;
 * any two of them (or one and the current draft) compared as a line diff of their file text;
 * and a version made the draft again (after a confirmation), to be published like any change.
 */
export default function VersionHistory({ locale, messages }: Props) {
  const query = useQuery();
  const path = query?.get('path') ?? '';
  const read = useCallback(() => (query ? openHistory(path) : new Promise<undefined>(() => {})), [query, path]);
  const { loaded, reload } = useLoad(read);
  const opened = loaded.state === 'ready' && loaded.value.state === 'ready' ? loaded.value : undefined;
  const [chosen, setChosen] = useState<{ from: Side | null; to: Side | null } | null>(null);
  const [versionData, setVersionData] = useState<ReadonlyMap<string, unknown>>(new Map());
  const [restore, setRestore] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const fromId = useId();
  const toId = useId();

  const { from, to } = chosen ?? (opened ? firstPair(opened) : { from: null, to: null });

  // Fetch the versions being compared that are not loaded yet.
  useEffect(() => {
    if (!opened) return;
    for (const side of [from, to]) {
      const key = `${opened.item.path}#${String(side)}`;
      if (typeof side !== 'number' || versionData.has(key)) continue;
      void loadVersion(opened.item.path, side).then((answer) => {
        if (answer) setVersionData((current) => new Map(current).set(key, answer.data));
      });
    }
  }, [opened, from, to, versionData]);

  const diff = useMemo(() => {
    if (!opened || from === null || to === null) return undefined;
    const get = (side: Side) =>
      side === 'draft'
        ? { known: true, data: opened.item.draft }
        : {
            known: versionData.has(`${opened.item.path}#${side}`),
            data: versionData.get(`${opened.item.path}#${side}`),
          };
    const before = get(from);
    const after = get(to);
    return before.known && after.known ? versionDiff(opened.kind, before.data, after.data) : undefined;
  }, [opened, from, to, versionData]);

  if (loaded.state === 'loading') return <Loading label={messages['studio.loading']} />;
  if (loaded.state === 'failed')
    return (
      <LoadFailed message={messages['studio.loadFailed']} retryLabel={messages['studio.retry']} onRetry={reload} />
    );
  if (!opened)
    return (
      <p role="alert" className="alert alert-warning">
        {messages['studio.edit.notFound']}
      </p>
    );

  const { item, versions } = opened;
  const sideName = (side: Side) => {
    if (side === 'draft') return messages['studio.history.draft'];
    const entry = versions.find((version) => version.version === side);
    return say(messages, entry?.deleted ? 'studio.history.deletedVersion' : 'studio.history.version', {
      version: side,
    });
  };
  const sides: Side[] = [
    ...(item.draft !== null ? (['draft'] as Side[]) : []),
    ...versions.map((version) => version.version),
  ];

  const doRestore = async () => {
    if (restore === null) return;
    setBusy(true);
    const answer = await restoreItem(item.path, restore, item.revision);
    setBusy(false);
    const version = restore;
    setRestore(null);
    if (!answer) return;
    if (answer.code !== OK) {
      setNotice({ tone: 'error', text: answer.message });
      return;
    }
    setNotice({ tone: 'success', text: say(messages, 'studio.history.restored', { version }) });
    setChosen(null);
    reload();
  };

  const columns: CardColumn<VersionSummary>[] = [
    {
      key: 'version',
      label: messages['studio.history.col.version'],
      kind: 'key',
      render: (version) => sideName(version.version),
    },
    {
      key: 'publishedAt',
      label: messages['studio.history.col.publishedAt'],
      kind: 'secondary',
      render: (version) => formatChinaDateTime(version.publishedAt, locale),
    },
    {
      key: 'publishedBy',
      label: messages['studio.history.col.publishedBy'],
      render: (version) => version.publishedBy ?? messages['studio.history.system'],
    },
    {
      key: 'build',
      label: messages['studio.history.col.build'],
      className: 'tabular-nums',
      render: (version) => version.buildId ?? '',
    },
    {
      key: 'actions',
      label: messages['studio.items.col.actions'],
      kind: 'action',
      // The newest version with no draft over it is what the draft would already be.
      render: (version) =>
        !version.deleted &&
        (item.draft !== null || version.version !== versions[0]?.version) && (
          <button type="button" className="btn btn-ghost btn-xs" onClick={() => setRestore(version.version)}>
            {messages['studio.history.restore']}
          </button>
        ),
    },
  ];

  const picker = (id: string, label: string, value: Side | null, set: (side: Side) => void) => (
    <div className="fieldset py-0">
      <label htmlFor={id} className="fieldset-legend pb-1 text-sm">
        {label}
      </label>
      <select
        id={id}
        className="select select-sm w-48"
        value={value === null ? '' : String(value)}
        onChange={(event) => set(event.target.value === 'draft' ? 'draft' : Number(event.target.value))}
      >
        {sides.map((side) => (
          <option key={String(side)} value={String(side)}>
            {sideName(side)}
          </option>
        ))}
      </select>
    </div>
  );

  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-xl font-semibold">
          {item.title} <span className="font-mono text-sm font-normal text-base-content/70">{item.path}</span>
        </h2>
        <a className="btn btn-ghost btn-sm" href={editUrl(locale, item.path)}>
          {messages['studio.items.edit']}
        </a>
      </div>
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
      {versions.length === 0 ? (
        <p className="rounded-box bg-base-200 p-4">{messages['studio.history.empty']}</p>
      ) : (
        <CardTable
          caption={messages['studio.history.caption']}
          columns={columns}
          rows={versions}
          rowKey={(version) => String(version.version)}
          rowHeaders
        />
      )}
      {sides.length > 0 && (
        <section aria-labelledby="studio-compare" className="grid gap-3">
          <h2 id="studio-compare" className="text-lg font-semibold">
            {messages['studio.history.compare']}
          </h2>
          <div className="flex flex-wrap items-end gap-3">
            {picker(fromId, messages['studio.history.from'], from, (side) => setChosen({ from: side, to }))}
            {picker(toId, messages['studio.history.to'], to, (side) => setChosen({ from, to: side }))}
          </div>
          {!diff && from !== null && to !== null && <p role="status">{messages['studio.loading']}</p>}
          {diff && from !== null && to !== null && (
            <div>
              <p className="text-sm" role="status">
                {say(messages, 'studio.history.diff', { from: sideName(from), to: sideName(to) })}
                {' — '}
                {diff.added + diff.removed === 0
                  ? messages['studio.history.same']
                  : say(messages, 'studio.history.summary', { added: diff.added, removed: diff.removed })}
              </p>
              <pre
                className="mt-2 max-h-[32rem] overflow-auto rounded-box border border-base-300 bg-base-100 text-sm"
                aria-label={say(messages, 'studio.history.diff', { from: sideName(from), to: sideName(to) })}
                tabIndex={0}
              >
                {diff.lines.map((line, index) => (
                  <div
                    key={index}
                    className={
                      line.change === 'added' ? 'bg-success/15' : line.change === 'removed' ? 'bg-error/15' : ''
                    }
                    data-diff={line.change}
                  >
                    <span className="inline-block w-6 select-none text-center font-bold" aria-hidden="true">
                      {line.change === 'added' ? '+' : line.change === 'removed' ? '−' : ' '}
                    </span>
                    {line.change !== 'same' && (
                      <span className="sr-only">
                        {messages[line.change === 'added' ? 'studio.history.added' : 'studio.history.removed']}:{' '}
                      </span>
                    )}
                    {line.text || ' '}
                  </div>
                ))}
              </pre>
            </div>
          )}
        </section>
      )}
      <ConfirmDialog
        open={restore !== null}
        title={say(messages, 'studio.history.restoreTitle', { version: restore ?? 0 })}
        body={messages['studio.history.restoreBody']}
        confirmLabel={messages['studio.history.restore']}
        cancelLabel={messages['studio.cancel']}
        busy={busy}
        onConfirm={() => void doRestore()}
        onCancel={() => setRestore(null)}
      />
    </div>
  );
}
