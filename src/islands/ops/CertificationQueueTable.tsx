import { useId, type SubmitEvent } from 'react';
import { format } from '../../lib/api/messages.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import type { EnterpriseRowData } from '../../lib/schemas/enterprise.ts';
import type { TableQueryState } from '../../lib/tableRequest.ts';
import type { CertifyMessages } from '../enterprise/certifyMessages.ts';
import { shown, shownTime } from '../enterprise/enterpriseCalls.ts';

interface Props {
  rows: readonly EnterpriseRowData[];
  total: number;
  table: TableQueryState;
  locale: Locale;
  messages: CertifyMessages;
  onSearch: (keyword: string) => void;
  onPage: (page: number) => void;
  onReview: (id: number) => void;
}

/** The queue as a table with a keyword search and paging; each row opens its review. */
export default function CertificationQueueTable({ rows, total, table, locale, messages: m, onSearch, onPage, onReview }: Props) {
  const captionId = useId();
  const searchId = useId();
  const pages = Math.max(1, Math.ceil(total / table.size));
  const search = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const value = new FormData(event.currentTarget).get('q');
    onSearch(typeof value === 'string' ? value.trim() : '');
  };
  return (
    <section className="card border border-base-300 bg-base-100" aria-labelledby={captionId}>
      <div className="card-body gap-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id={captionId} className="card-title text-base">{m['certify.ops.queueLabel']}</h2>
          <p role="status" className="text-sm text-base-content/70">{format(m['certify.ops.count'], { total })}</p>
        </div>
        <form role="search" onSubmit={search} className="flex max-w-md gap-2">
          <label htmlFor={searchId} className="sr-only">{m['certify.field.enterpriseName']}</label>
          <input id={searchId} name="q" type="search" className="input input-sm w-full" defaultValue={table.keyword} placeholder={m['certify.field.enterpriseName']} maxLength={100} />
          <button type="submit" className="btn btn-sm">{m['certify.ops.search']}</button>
        </form>
        {rows.length === 0 ? (
          <p className="text-sm text-base-content/70">{m['certify.ops.empty']}</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="table table-sm" aria-labelledby={captionId}>
              <thead>
                <tr>
                  <th scope="col">{m['certify.field.enterpriseName']}</th>
                  <th scope="col">{m['certify.field.creditCode']}</th>
                  <th scope="col">{m['certify.field.clearanceAccount']}</th>
                  <th scope="col">{m['certify.field.contactName']}</th>
                  <th scope="col">{m['certify.field.submittedAt']}</th>
                  <th scope="col">{m['certify.ops.actions']}</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={row.id}>
                    <th scope="row" className="font-medium">{row.enterpriseName}</th>
                    <td>{shown(row.creditCode, m)}</td>
                    <td>{shown(row.clearanceAccount, m)}</td>
                    <td>{shown(row.contactName, m)}</td>
                    <td>{shownTime(row.submittedAt, locale, m)}</td>
                    <td>
                      <button type="button" className="btn btn-primary btn-xs" onClick={() => onReview(row.id)} aria-label={format(m['certify.ops.review'], { name: row.enterpriseName })}>
                        {m['certify.ops.reviewShort']}
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {pages > 1 && (
          <nav aria-label={m['certify.ops.pager']} className="join self-end">
            <button type="button" className="btn join-item btn-sm" disabled={table.page <= 1} onClick={() => onPage(table.page - 1)}>{m['certify.ops.prev']}</button>
            <span className="btn join-item btn-sm btn-disabled" aria-current="page">{format(m['certify.ops.pageOf'], { current: table.page, pages })}</span>
            <button type="button" className="btn join-item btn-sm" disabled={table.page >= pages} onClick={() => onPage(table.page + 1)}>{m['certify.ops.next']}</button>
          </nav>
        )}
      </div>
    </section>
  );
}
