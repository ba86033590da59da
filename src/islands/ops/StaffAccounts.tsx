import { lazy, Suspense, useEffect, useId, useState, type SubmitEvent } from 'react';
import { format } from '../../lib/api/messages.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import type { StaffRowData } from '../../lib/schemas/staff.ts';
import type { TableSort } from '../../lib/tableRequest.ts';
import { formatDateTime } from '../order/orderView.ts';
import DataTable, { type Column } from '../table/DataTable.tsx';
import { useSessionTable } from '../table/useSessionTable.ts';
import { roleKey } from '../../lib/roles.ts';
import {
  roleFilters,
  secondFactorBadge,
  secondFactorKeys,
  STAFF_API,
  statusBadge,
  statusKeys,
  type StaffAccountsMessages,
} from './staffAccounts.ts';

/**
 * One account's panel, with its forms and their rules (zod), is fetched when an account is first
 * opened: the list is what the page shows at first (docs/performance.md).
 */
const StaffPanel = lazy(() => import('./StaffPanel.tsx'));

interface Props {
  locale: Locale;
  messages: StaffAccountsMessages;
}

const query = { sort: [{ key: 'userName', order: 'asc' }] as TableSort[] };
const build = { searchFields: ['userName', 'name', 'mobile'] };

/** The account being managed is in the address too (`user=`), so a reload or a link reopens it. */
function openUserFromLocation(): number | null {
  const value = new URLSearchParams(window.location.search).get('user') ?? '';
  return /^\d{1,9}$/.test(value) ? Number(value) : null;
}

function setOpenUser(userId: number | null): void {
  const params = new URLSearchParams(window.location.search);
  if (userId === null) params.delete('user');
  else params.set('user', String(userId));
  const search = params.toString();
  window.history.pushState(null, '', `${window.location.pathname}${search ? `?${search}` : ''}`);
}

/**
 * The operator's staff accounts (/ops/staff): operators, editors and partner staff with their
 * roles, second factor, status, institutions and last sign-in, paged on the server with the state
 * in the address; a keyword searches every user, to find the person to grant a role to. One
 * account at a time opens below the table to be managed (StaffPanel).
 */
export default function StaffAccounts({ locale, messages }: Props) {
  const table = useSessionTable<StaffRowData>({ url: `${STAFF_API}/getAntTable`, query, build });
  const { state } = table;
  const id = useId();
  const [open, setOpen] = useState<number | null>(null);

  useEffect(() => {
    const read = () => setOpen(openUserFromLocation());
    read();
    window.addEventListener('popstate', read);
    return () => window.removeEventListener('popstate', read);
  }, []);

  const show = (userId: number | null) => {
    setOpenUser(userId);
    setOpen(userId);
  };

  const roleFilter =
    (Object.keys(roleFilters) as (keyof typeof roleFilters)[]).find(
      (role) => state.filters[roleFilters[role]]?.[0] === 'true',
    ) ?? '';

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const text = (name: string) => String(data.get(name) ?? '').trim();
    const role = text('role') as keyof typeof roleFilters | '';
    const status = text('status');
    table.patch({
      keyword: text('q'),
      filters: { ...(role ? { [roleFilters[role]]: ['true'] } : {}), ...(status ? { status: [status] } : {}) },
    });
  };

  const columns: Column<StaffRowData>[] = [
    {
      key: 'userName',
      label: messages['staff.col.user'],
      sortable: true,
      // The person opens their panel: in the first column, which stays in view when a phone scrolls the table sideways.
      render: (row) => (
        <span className="grid justify-items-start">
          <button
            type="button"
            className="link font-medium link-primary text-start"
            aria-label={format(messages['staff.openLabel'], { name: row.name || row.userName, userName: row.userName })}
            aria-pressed={open === row.id}
            onClick={() => show(row.id)}
          >
            {row.name || row.userName}
          </button>
          <span className="font-mono text-xs text-base-content/70">
            {row.userName}
            {row.self && (
              <span className="badge badge-ghost badge-xs ms-1 align-middle font-sans">{messages['staff.you']}</span>
            )}
          </span>
        </span>
      ),
    },
    {
      key: 'roles',
      label: messages['staff.col.roles'],
      render: (row) => (
        <span className="flex flex-wrap gap-1">
          {row.roles.map((role) => (
            <span
              key={role}
              className={`badge badge-sm whitespace-nowrap ${role === 'operator' ? 'badge-primary' : role === 'editor' ? 'badge-secondary' : 'badge-ghost'}`}
            >
              {messages[roleKey(role)]}
            </span>
          ))}
        </span>
      ),
    },
    {
      key: 'secondFactor',
      label: messages['staff.col.secondFactor'],
      sortable: true,
      render: (row) => (
        <span className={`badge badge-sm whitespace-nowrap ${secondFactorBadge(row.secondFactor)}`}>
          {messages[secondFactorKeys[row.secondFactor]]}
        </span>
      ),
    },
    {
      key: 'status',
      label: messages['staff.col.status'],
      kind: 'status',
      sortable: true,
      render: (row) => (
        <span className={`badge badge-sm whitespace-nowrap ${statusBadge(row.status)}`}>
          {messages[statusKeys[row.status]]}
        </span>
      ),
    },
    {
      key: 'institutions',
      label: messages['staff.col.institutions'],
      className: 'text-xs',
      render: (row) =>
        row.institutions.length === 0 ? (
          '-'
        ) : (
          <ul className="grid gap-0.5">
            {row.institutions.map((institution) => (
              <li key={institution.relationId} className="min-w-32">
                {format(messages['staff.institution'], {
                  name: institution.name,
                  code: institution.code,
                  empId: institution.empId,
                })}
              </li>
            ))}
          </ul>
        ),
    },
    {
      key: 'lastLoginAt',
      label: messages['staff.col.lastLogin'],
      sortable: true,
      className: 'whitespace-nowrap text-xs',
      render: (row) => (row.lastLoginAt ? formatDateTime(row.lastLoginAt, locale) : messages['staff.neverLoggedIn']),
    },
  ];

  return (
    <div className="grid gap-4">
      <form
        key={JSON.stringify([state.keyword, state.filters])}
        role="search"
        aria-label={messages['staff.filterLabel']}
        className="grid gap-2"
        onSubmit={submit}
      >
        <div className="flex flex-wrap items-end gap-3">
          <div className="fieldset py-0">
            <label htmlFor={`${id}-q`} className="fieldset-legend pb-1 text-sm">
              {messages['staff.keyword']}
            </label>
            <input
              id={`${id}-q`}
              name="q"
              type="search"
              maxLength={100}
              className="input input-sm w-64 max-w-full"
              placeholder={messages['staff.keywordHint']}
              defaultValue={state.keyword}
              aria-describedby={`${id}-scope`}
            />
          </div>
          <div className="fieldset py-0">
            <label htmlFor={`${id}-role`} className="fieldset-legend pb-1 text-sm">
              {messages['staff.role']}
            </label>
            <select id={`${id}-role`} name="role" className="select select-sm w-40" defaultValue={roleFilter}>
              <option value="">{messages['staff.allRoles']}</option>
              {(Object.keys(roleFilters) as (keyof typeof roleFilters)[]).map((role) => (
                <option key={role} value={role}>
                  {messages[roleKey(role)]}
                </option>
              ))}
            </select>
          </div>
          <div className="fieldset py-0">
            <label htmlFor={`${id}-status`} className="fieldset-legend pb-1 text-sm">
              {messages['staff.status']}
            </label>
            <select
              id={`${id}-status`}
              name="status"
              className="select select-sm w-32"
              defaultValue={state.filters.status?.[0] ?? ''}
            >
              <option value="">{messages['staff.allStatuses']}</option>
              <option value="active">{messages['staff.status.active']}</option>
              <option value="disabled">{messages['staff.status.disabled']}</option>
            </select>
          </div>
          <div className="flex gap-2">
            <button type="submit" className="btn btn-primary btn-sm">
              {messages['ordering.filter.search']}
            </button>
            <button
              type="button"
              className="btn btn-ghost btn-sm"
              onClick={() => table.patch({ keyword: '', filters: {}, likes: {} })}
            >
              {messages['ordering.filter.reset']}
            </button>
          </div>
        </div>
        <p id={`${id}-scope`} className="text-xs text-base-content/70">
          {messages['staff.scopeHint']}
        </p>
      </form>
      <DataTable
        caption={messages['page.opsStaff.title']}
        columns={columns}
        rowKey={(row) => String(row.id)}
        emptyMessage={state.keyword ? messages['staff.emptySearch'] : messages['staff.emptyStaff']}
        messages={messages}
        {...table.view}
      />
      {open !== null && (
        <Suspense fallback={null}>
          <StaffPanel
            key={open}
            userId={open}
            locale={locale}
            messages={messages}
            onClose={() => show(null)}
            onChanged={table.retry}
          />
        </Suspense>
      )}
    </div>
  );
}
