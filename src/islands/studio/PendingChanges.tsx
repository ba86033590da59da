import { useStore } from '@nanostores/react';
import { useRef, useState } from 'react';
import { CONFLICT, OK, BAD_REQUEST } from '../../lib/apiCodes.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import { formatCount } from '../../lib/i18n/plural.ts';
import { followBuild, studioBuild } from '../../stores/studioBuild.ts';
import type { ValidationMessages } from '../auth/formValidation.ts';
import ConfirmDialog from '../ConfirmDialog.tsx';
import { LoadFailed, Loading } from '../LoadStatus.tsx';
import CardTable, { type CardColumn } from '../table/CardTable.tsx';
import BuildStatus from './BuildStatus.tsx';
import ScheduleControl from './ScheduleControl.tsx';
import ScheduledList from './ScheduledList.tsx';
import StateBadge from './StateBadge.tsx';
import { lastChangeText } from './lastChange.ts';
import { editUrl } from './studioLinks.ts';
import {
  contentInvalidOf,
  loadDrafts,
  loadOverview,
  startBuild,
  type StudioBuildView,
  type ContentProblem,
  type ItemSummary,
  type RegionView,
} from '../../lib/api/studio.ts';
import { say, type FieldLabels, type StudioMessages } from '../../lib/studio/messages.ts';
import { useFollowRunning } from './useFollowRunning.ts';
import { useLoad } from './useLoad.ts';

interface Props {
  locale: Locale;
  messages: StudioMessages;
  labels: FieldLabels;
  /** The validation texts (the schedule form's time). */
  validation: ValidationMessages;
}

interface Pending {
  drafts: ItemSummary[];
  regions: RegionView[];
  running: StudioBuildView | null;
}

async function loadPending(): Promise<Pending | undefined> {
  const [drafts, overview] = await Promise.all([loadDrafts(), loadOverview()]);
  return drafts && overview
    ? { drafts: drafts.items, regions: overview.regions, running: overview.running }
    : undefined;
}

/**
 * The pending changes (/studio/changes): every draft, all chosen by default; "preview" builds the
 * site with the chosen drafts without publishing it, "publish" publishes them in one build after
 * a confirmation. The build is then followed (progress, outcome) below the list; a build already
 * running when the page opens is followed too, and starting another is refused until it ends.
 * "Schedule publication" publishes the chosen drafts at a chosen China time instead; what is
 * scheduled is listed below ("已计划"), each cancellable until it starts.
 */
export default function PendingChanges({ locale, messages, labels, validation }: Props) {
  const build = useStore(studioBuild);
  const { loaded, reload } = useLoad(loadPending);
  useFollowRunning(loaded.state === 'ready' ? loaded.value.running : null, reload);
  const [unchosen, setUnchosen] = useState<ReadonlySet<string>>(new Set());
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<{ text: string; invalid?: ContentProblem | undefined } | null>(null);
  const [scheduled, setScheduled] = useState<{ text: string; round: number } | null>(null);
  const statusRef = useRef<HTMLDivElement>(null);

  if (loaded.state === 'loading') return <Loading label={messages['studio.loading']} />;
  if (loaded.state === 'failed')
    return (
      <LoadFailed message={messages['studio.loadFailed']} retryLabel={messages['studio.retry']} onRetry={reload} />
    );

  const { drafts, regions } = loaded.value;
  const chosen = drafts.filter((item) => !unchosen.has(item.path));
  const running = build?.status === 'running';
  const regionName = (areaCode: string | null) =>
    regions.find((region) => region.areaCode === areaCode)?.name ?? areaCode ?? '';

  const start = async (purpose: 'preview' | 'publish') => {
    setRefusal(null);
    setBusy(true);
    // The chosen drafts by name, even when all are chosen: a draft saved meanwhile by someone else is not published unseen.
    const paths = chosen.map((item) => item.path);
    const answer = await startBuild(purpose, paths);
    setBusy(false);
    setConfirming(false);
    if (!answer) return;
    if (answer.code === OK) {
      followBuild(answer.data);
      statusRef.current?.focus();
      return;
    }
    const invalid = answer.code === BAD_REQUEST ? contentInvalidOf(answer) : undefined;
    setRefusal({
      text: answer.code === CONFLICT && !answer.message ? messages['studio.build.busy'] : answer.message,
      invalid,
    });
  };

  const toggle = (path: string) =>
    setUnchosen((current) => {
      const next = new Set(current);
      if (next.has(path)) next.delete(path);
      else next.add(path);
      return next;
    });

  const columns: CardColumn<ItemSummary>[] = [
    {
      key: 'chosen',
      label: '',
      className: 'w-10',
      head: {
        content: (
          <input
            type="checkbox"
            className="checkbox checkbox-sm"
            aria-label={messages['studio.changes.selectAll']}
            checked={chosen.length === drafts.length}
            ref={(box) => {
              if (box) box.indeterminate = chosen.length > 0 && chosen.length < drafts.length;
            }}
            onChange={() =>
              setUnchosen(chosen.length === drafts.length ? new Set(drafts.map((item) => item.path)) : new Set())
            }
          />
        ),
        className: 'w-10',
      },
      render: (item) => (
        <input
          type="checkbox"
          className="checkbox checkbox-sm"
          aria-label={say(messages, 'studio.changes.select', { title: item.title })}
          checked={!unchosen.has(item.path)}
          onChange={() => toggle(item.path)}
        />
      ),
    },
    {
      key: 'item',
      label: messages['studio.changes.col.item'],
      kind: 'key',
      render: (item) => (
        <>
          <a className="link" href={editUrl(locale, item.path)}>
            {item.title}
          </a>
          <div className="font-mono text-xs text-base-content/70">
            {item.path}
            {item.areaCode ? ` · ${regionName(item.areaCode)}` : ''}
          </div>
        </>
      ),
    },
    { key: 'kind', label: messages['studio.changes.col.kind'], render: (item) => messages[`studio.kind.${item.kind}`] },
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
  ];

  return (
    <div className="grid gap-4">
      {drafts.length === 0 ? (
        <p className="rounded-box bg-base-200 p-4">{messages['studio.changes.none']}</p>
      ) : (
        <>
          <CardTable
            caption={messages['studio.changes.caption']}
            columns={columns}
            rows={drafts}
            rowKey={(item) => item.path}
          />
          <div className="flex flex-wrap items-center gap-3">
            <span className="text-sm" aria-live="polite">
              {say(messages, 'studio.changes.chosen', { count: chosen.length, total: drafts.length })}
            </span>
            <button
              type="button"
              className="btn"
              disabled={busy || running || chosen.length === 0}
              onClick={() => void start('preview')}
            >
              {messages['studio.changes.preview']}
            </button>
            <button
              type="button"
              className="btn btn-primary"
              disabled={busy || running || chosen.length === 0}
              onClick={() => setConfirming(true)}
            >
              {messages['studio.changes.publish']}
            </button>
            <ScheduleControl
              action="publish"
              paths={chosen.map((item) => item.path)}
              label={messages['studio.schedule.open']}
              title={formatCount(messages, 'studio.schedule.publishTitle', locale, chosen.length)}
              body={messages['studio.schedule.publishBody']}
              disabled={busy || chosen.length === 0}
              locale={locale}
              messages={messages}
              validation={validation}
              onScheduled={(_view, text) => setScheduled((current) => ({ text, round: (current?.round ?? 0) + 1 }))}
            />
            {chosen.length === 0 && <span className="text-sm">{messages['studio.changes.nothingChosen']}</span>}
          </div>
        </>
      )}
      {refusal && (
        <div role="alert" className="alert alert-error flex-col items-start">
          <p>{refusal.invalid ? messages['studio.changes.invalid'] : refusal.text}</p>
          {refusal.invalid && (
            <>
              <pre className="text-sm whitespace-pre-wrap" data-content-error>
                {refusal.text}
              </pre>
              <a className="link font-medium" href={editUrl(locale, refusal.invalid.path)}>
                {messages['studio.changes.fix']}:{' '}
                {say(messages, 'studio.changes.invalidAt', {
                  path: refusal.invalid.path,
                  field: labelOfField(refusal.invalid.field, labels),
                })}
              </a>
            </>
          )}
        </div>
      )}
      <div aria-live="polite">
        {scheduled && (
          <p role="status" className="alert alert-success">
            {scheduled.text}
          </p>
        )}
      </div>
      <div ref={statusRef} tabIndex={-1} className="min-h-8 outline-none">
        {build && <BuildStatus build={build} regions={regions} locale={locale} messages={messages} />}
      </div>
      <ScheduledList locale={locale} messages={messages} refresh={scheduled?.round ?? 0} />
      <ConfirmDialog
        open={confirming}
        title={formatCount(messages, 'studio.changes.publishTitle', locale, chosen.length)}
        body={messages['studio.changes.publishBody']}
        confirmLabel={messages['studio.changes.publish']}
        cancelLabel={messages['studio.cancel']}
        busy={busy}
        onConfirm={() => void start('publish')}
        onCancel={() => setConfirming(false)}
      />
    </div>
  );
}

/** `descList.0.desc` → the label of its last named part (说明内容), else the path as it is. */
function labelOfField(field: string, labels: FieldLabels): string {
  const name = [...field.split('.')].reverse().find((part) => !/^\d+$/.test(part));
  return (name && labels[name]) || field;
}
