import { lazy, Suspense, useEffect, useId, useRef, useState, type SubmitEvent } from 'react';
import { format } from '../../lib/api/messages.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import type { EnterpriseRowData } from '../../lib/schemas/enterprise.ts';
import { Loading } from '../LoadStatus.tsx';
import type { ValidationMessages } from '../auth/formValidation.ts';
import type { Option } from '../enterprise/SelectField.tsx';
import type { CertifyMessages } from '../enterprise/certifyMessages.ts';
import { ENTERPRISE_TABLE_URL, shown, shownTime } from '../enterprise/enterpriseCalls.ts';
import DataTable, { type Column } from '../table/DataTable.tsx';
import type { DataTableMessages } from '../table/dataTable.ts';
import { useSessionTable } from '../table/useSessionTable.ts';
import { queueBuild, queueQuery, readReviewedId, underReview, writeReviewedId } from './certificationQueue.ts';

/**
 * One enterprise's review, with its forms and their rules (zod), is fetched when a review is
 * opened: the queue is what the page shows at first (docs/performance.md).
 */
const CertificationReview = lazy(() => import('./CertificationReview.tsx'));

interface Props {
  locale: Locale;
  messages: CertifyMessages;
  /** The shared data table's texts (the `ordering.table.*` keys and the loading word). */
  tableMessages: DataTableMessages;
  validation: ValidationMessages;
  voltageLevels: readonly Option[];
}

/**
 * The operator's review queue (/ops/certifications): enterprises under review, oldest first, in
 * the shared data table (search, sort and paging in the address), and one of them in detail with
 * its files, to approve or return with a comment.
 */
export default function Certifications({ locale, messages: m, tableMessages, validation, voltageLevels }: Props) {
  const table = useSessionTable<EnterpriseRowData>({
    url: ENTERPRISE_TABLE_URL,
    query: queueQuery,
    build: queueBuild,
    toRequest: underReview,
  });
  // The address is read after hydration: the server rendered no review, so the first render has none either.
  const [id, setId] = useState<number | undefined>(undefined);
  const captionId = useId();
  const searchId = useId();
  const { state, retry } = table;

  useEffect(() => {
    const onPop = () => setId(readReviewedId(window.location.search));
    onPop();
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);

  // Back from a review (approved, returned, or just left): the queue has changed, load it again.
  const reviewed = useRef(id);
  useEffect(() => {
    if (reviewed.current !== undefined && id === undefined) retry();
    reviewed.current = id;
  }, [id, retry]);

  const review = (next: number | undefined) => {
    window.history.pushState(null, '', `${window.location.pathname}${writeReviewedId(window.location.search, next)}`);
    setId(next);
  };

  const search = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const value = new FormData(event.currentTarget).get('q');
    table.patch({ keyword: typeof value === 'string' ? value.trim() : '' });
  };

  if (!table.ready) return <Loading label={m['common.loading']} />;
  if (id !== undefined) {
    return (
      <Suspense fallback={<Loading label={m['common.loading']} />}>
        <CertificationReview
          key={id}
          id={id}
          locale={locale}
          messages={m}
          validation={validation}
          voltageLevels={voltageLevels}
          onBack={() => review(undefined)}
        />
      </Suspense>
    );
  }

  const columns: Column<EnterpriseRowData>[] = [
    { key: 'enterpriseName', label: m['certify.field.enterpriseName'], sortable: true, className: 'font-medium' },
    {
      key: 'creditCode',
      label: m['certify.field.creditCode'],
      sortable: true,
      render: (row) => shown(row.creditCode, m),
    },
    {
      key: 'clearanceAccount',
      label: m['certify.field.clearanceAccount'],
      sortable: true,
      render: (row) => shown(row.clearanceAccount, m),
    },
    { key: 'contactName', label: m['certify.field.contactName'], render: (row) => shown(row.contactName, m) },
    {
      key: 'submittedAt',
      label: m['certify.field.submittedAt'],
      kind: 'secondary',
      sortable: true,
      className: 'whitespace-nowrap',
      render: (row) => shownTime(row.submittedAt, locale, m),
    },
    {
      key: 'review',
      label: m['certify.ops.actions'],
      kind: 'action',
      render: (row) => (
        <button
          type="button"
          className="btn btn-primary btn-xs"
          onClick={() => review(row.id)}
          aria-label={format(m['certify.ops.review'], { name: row.enterpriseName })}
        >
          {m['certify.ops.reviewShort']}
        </button>
      ),
    },
  ];

  return (
    <section className="card border border-base-300 bg-base-100" aria-labelledby={captionId}>
      <div className="card-body gap-3">
        <h2 id={captionId} className="card-title text-base">
          {m['certify.ops.queueLabel']}
        </h2>
        <form key={state.keyword} role="search" onSubmit={search} className="flex max-w-md gap-2">
          <label htmlFor={searchId} className="sr-only">
            {m['certify.field.enterpriseName']}
          </label>
          <input
            id={searchId}
            name="q"
            type="search"
            className="input input-sm w-full"
            defaultValue={state.keyword}
            placeholder={m['certify.field.enterpriseName']}
            maxLength={100}
          />
          <button type="submit" className="btn btn-sm">
            {m['certify.ops.search']}
          </button>
        </form>
        <DataTable
          caption={m['certify.ops.queueLabel']}
          columns={columns}
          rowKey={(row) => String(row.id)}
          emptyMessage={m['certify.ops.empty']}
          messages={tableMessages}
          {...table.view}
        />
      </div>
    </section>
  );
}
