import { useCallback, useEffect, useId, useRef, useState, type ReactNode, type SubmitEvent } from 'react';
import { format } from '../../lib/api/messages.ts';
import { message } from '../../lib/api/notify.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import { empIdSchema, partnerCodeSchema } from '../../lib/schemas/partner.ts';
import { roleKey } from '../../lib/roles.ts';
import { conflictingRole } from '../../lib/staffRoles.ts';
import {
  grantableRoles,
  type GrantableRole,
  type StaffInstitutionData,
  type StaffRowData,
} from '../../lib/schemas/staff.ts';
import type { FieldErrors } from '../auth/formValidation.ts';
import CompactField from '../CompactField.tsx';
import ConfirmDialog from '../ConfirmDialog.tsx';
import { LoadFailed, Loading } from '../LoadStatus.tsx';
import { formatDateTime } from '../order/orderView.ts';
import { PARTNER_ACCOUNT_API } from '../partner/partnerApi.ts';
import { callQuiet } from '../quietCall.ts';
import {
  grantKeys,
  revokeKeys,
  secondFactorBadge,
  secondFactorKeys,
  STAFF_API,
  statusBadge,
  statusKeys,
  type StaffAccountsMessages,
} from './staffAccounts.ts';

interface Props {
  userId: number;
  locale: Locale;
  messages: StaffAccountsMessages;
  onClose: () => void;
  /** An account changed: the table reloads its page. */
  onChanged: () => void;
}

type Loaded = { state: 'loading' } | { state: 'failed'; message: string } | { state: 'ready'; user: StaffRowData };

/** A change that needs a confirmation first: it takes something away. */
type Pending =
  | { kind: 'revoke'; role: GrantableRole }
  | { kind: 'disable' }
  | { kind: 'reset' }
  | { kind: 'unrelate'; institution: StaffInstitutionData };

/**
 * One account on /ops/staff: its facts and what the operator may change — grant or revoke the
 * operator and editor roles, disable or enable it, reset its second factor, relate it to a
 * partner institution or end a relation. What takes something away asks first (ConfirmDialog);
 * the server's refusal (the last operator, one's own account) is shown here, in words.
 */
export default function StaffPanel({ userId, locale, messages, onClose, onChanged }: Props) {
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const [pending, setPending] = useState<Pending | null>(null);
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState('');
  const [relateErrors, setRelateErrors] = useState<FieldErrors>({});
  const headingRef = useRef<HTMLHeadingElement>(null);
  const relateRef = useRef<HTMLFormElement>(null);
  const id = useId();

  // One instance per account (the list keys it by id): starts as loading; a retry shows loading first.
  const fetchUser = useCallback(async (): Promise<Loaded> => {
    const answer = await callQuiet<StaffRowData>('GET', `${STAFF_API}/getStaff`, { userId });
    return answer?.ok
      ? { state: 'ready', user: answer.data }
      : { state: 'failed', message: answer?.message || messages['staff.panel.loadFailed'] };
  }, [userId, messages]);
  const load = useCallback(async () => {
    setLoaded({ state: 'loading' });
    setLoaded(await fetchUser());
  }, [fetchUser]);

  useEffect(() => {
    void fetchUser().then(setLoaded);
    headingRef.current?.focus();
  }, [fetchUser]);

  const user = loaded.state === 'ready' ? loaded.user : undefined;
  const who = user ? { name: user.name || user.userName, userName: user.userName } : { name: '', userName: '' };

  /** Runs one change; its answer is the account as it is now. */
  const change = async (path: string, body: Record<string, string | number>): Promise<boolean> => {
    setBusy(true);
    setRefusal('');
    const answer = await callQuiet<StaffRowData>('POST', `${STAFF_API}/${path}`, body);
    setBusy(false);
    if (!answer) return false;
    if (!answer.ok) {
      setRefusal(answer.message);
      return false;
    }
    setLoaded({ state: 'ready', user: answer.data });
    message.success(format(messages['staff.action.done'], { name: answer.data.name || answer.data.userName }));
    onChanged();
    return true;
  };

  const confirm = async () => {
    if (!pending || !user) return;
    if (pending.kind === 'unrelate') {
      setBusy(true);
      setRefusal('');
      const answer = await callQuiet<Record<string, never>>(
        'POST',
        `${PARTNER_ACCOUNT_API}/delRelationPartnerAccount`,
        { id: pending.institution.relationId },
      );
      setBusy(false);
      setPending(null);
      if (answer && !answer.ok) setRefusal(answer.message);
      if (answer?.ok) message.success(format(messages['staff.action.done'], who));
      await load();
      onChanged();
      return;
    }
    const path = pending.kind === 'revoke' ? 'revoke' : pending.kind === 'disable' ? 'disable' : 'resetSecondFactor';
    await change(path, pending.kind === 'revoke' ? { userId, role: pending.role } : { userId });
    setPending(null);
  };

  const relate = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const institutionCode = String(data.get('institutionCode') ?? '').trim();
    const empId = String(data.get('empId') ?? '').trim();
    const local: Record<string, string> = {};
    if (!institutionCode)
      local['institutionCode'] = format(messages['staff.relate.required'], { label: messages['staff.relate.code'] });
    else if (!partnerCodeSchema.safeParse(institutionCode).success)
      local['institutionCode'] = messages['staff.relate.codeInvalid'];
    if (!empId) local['empId'] = format(messages['staff.relate.required'], { label: messages['staff.relate.empId'] });
    else if (!empIdSchema.safeParse(empId).success) local['empId'] = messages['staff.relate.empIdInvalid'];
    setRelateErrors(local);
    const first = Object.keys(local)[0];
    if (first) {
      const element = relateRef.current?.elements.namedItem(first);
      if (element instanceof HTMLElement) element.focus();
      return;
    }
    setBusy(true);
    setRefusal('');
    const answer = await callQuiet<StaffRowData>('POST', `${STAFF_API}/relateInstitution`, {
      userId,
      institutionCode,
      empId,
    });
    setBusy(false);
    if (!answer) return;
    if (answer.ok) {
      relateRef.current?.reset();
      setLoaded({ state: 'ready', user: answer.data });
      message.success(format(messages['staff.action.done'], { name: answer.data.name || answer.data.userName }));
      onChanged();
      return;
    }
    setRefusal(answer.message);
  };

  const dialog = (() => {
    if (!pending) return { title: '', body: '', confirm: '' };
    if (pending.kind === 'revoke') {
      const role = messages[roleKey(pending.role)];
      return {
        title: format(messages['staff.confirm.revokeTitle'], { role }),
        body: format(messages['staff.confirm.revokeBody'], { ...who, role }),
        confirm: messages['staff.confirm.revoke'],
      };
    }
    if (pending.kind === 'disable')
      return {
        title: messages['staff.confirm.disableTitle'],
        body: format(messages['staff.confirm.disableBody'], who),
        confirm: messages['staff.confirm.disable'],
      };
    if (pending.kind === 'reset')
      return {
        title: messages['staff.confirm.resetTitle'],
        body: format(messages['staff.confirm.resetBody'], who),
        confirm: messages['staff.confirm.reset'],
      };
    const { institution } = pending;
    return {
      title: messages['staff.confirm.unrelateTitle'],
      body: format(messages['staff.confirm.unrelateBody'], {
        ...who,
        institution: institution.name,
        empId: institution.empId,
      }),
      confirm: messages['staff.confirm.unrelate'],
    };
  })();

  const ask = (next: Pending) => {
    setRefusal('');
    setPending(next);
  };

  const relateField = (name: 'institutionCode' | 'empId', label: string, hint: string) => (
    <CompactField
      id={`${id}-${name}`}
      name={name}
      label={label}
      hint={hint}
      error={relateErrors[name]}
      widthClass="w-44"
    />
  );

  const section = (title: string, children: ReactNode) => (
    <div className="grid gap-2">
      <h3 className="text-sm font-semibold text-base-content/80">{title}</h3>
      {children}
    </div>
  );

  return (
    <section aria-labelledby={`${id}-title`} className="grid gap-4 rounded-box border border-primary/40 p-4">
      <div className="flex flex-wrap items-center gap-2">
        <h2 id={`${id}-title`} ref={headingRef} tabIndex={-1} className="text-lg font-semibold outline-none">
          {user ? format(messages['staff.panel.title'], who) : messages['common.loading']}
        </h2>
        {user && <span className={`badge ${statusBadge(user.status)}`}>{messages[statusKeys[user.status]]}</span>}
        <button type="button" className="btn btn-ghost btn-sm ms-auto" onClick={onClose}>
          {messages['staff.panel.close']}
        </button>
      </div>
      {loaded.state === 'loading' && <Loading label={messages['common.loading']} />}
      {loaded.state === 'failed' && (
        <LoadFailed message={loaded.message} retryLabel={messages['ordering.retry']} onRetry={() => void load()} />
      )}
      {user && (
        <>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="text-base-content/70">{messages['staff.panel.mobile']}</dt>
            <dd className="font-mono">{user.mobile}</dd>
            <dt className="text-base-content/70">{messages['staff.col.lastLogin']}</dt>
            <dd>{user.lastLoginAt ? formatDateTime(user.lastLoginAt, locale) : messages['staff.neverLoggedIn']}</dd>
            <dt className="text-base-content/70">{messages['staff.panel.created']}</dt>
            <dd>{formatDateTime(user.createdAt, locale)}</dd>
          </dl>
          {user.self && <p className="alert alert-info text-sm">{messages['staff.panel.selfHint']}</p>}
          {refusal && (
            <p role="alert" className="alert alert-error text-sm">
              {refusal}
            </p>
          )}
          {section(
            messages['staff.panel.roles'],
            <>
              <p className="flex flex-wrap gap-1">
                {user.roles.map((role) => (
                  <span key={role} className="badge badge-sm">
                    {messages[roleKey(role)]}
                  </span>
                ))}
              </p>
              <div className="flex flex-wrap gap-2" role="group" aria-label={messages['staff.panel.roles']}>
                {/* A role of another duty than the ones held is not offered (the server refuses it too). */}
                {grantableRoles.map((role) =>
                  !user.roles.includes(role) && conflictingRole(user.roles, role) ? null : user.roles.includes(role) ? (
                    <button
                      key={role}
                      type="button"
                      className="btn btn-outline btn-error btn-sm"
                      disabled={busy || (role === 'admin' && user.self)}
                      onClick={() => ask({ kind: 'revoke', role })}
                    >
                      {messages[revokeKeys[role]]}
                    </button>
                  ) : (
                    <button
                      key={role}
                      type="button"
                      className="btn btn-primary btn-sm"
                      disabled={busy}
                      onClick={() => void change('grant', { userId, role })}
                    >
                      {messages[grantKeys[role]]}
                    </button>
                  ),
                )}
              </div>
              <p className="text-xs text-base-content/70">{messages['staff.panel.dutyHint']}</p>
            </>,
          )}
          {section(
            messages['staff.panel.account'],
            <div className="flex flex-wrap items-center gap-2">
              {user.status === 'active' ? (
                <button
                  type="button"
                  className="btn btn-outline btn-error btn-sm"
                  disabled={busy || user.self}
                  onClick={() => ask({ kind: 'disable' })}
                >
                  {messages['staff.action.disable']}
                </button>
              ) : (
                <button
                  type="button"
                  className="btn btn-primary btn-sm"
                  disabled={busy}
                  onClick={() => void change('enable', { userId })}
                >
                  {messages['staff.action.enable']}
                </button>
              )}
            </div>,
          )}
          {section(
            messages['staff.panel.secondFactor'],
            <div className="flex flex-wrap items-center gap-2">
              <span className={`badge ${secondFactorBadge(user.secondFactor)}`}>
                {messages[secondFactorKeys[user.secondFactor]]}
              </span>
              {user.secondFactor === 'none' ? (
                <span className="text-sm text-base-content/70">{messages['staff.panel.secondFactorNone']}</span>
              ) : (
                <button
                  type="button"
                  className="btn btn-outline btn-error btn-sm"
                  disabled={busy || user.self}
                  onClick={() => ask({ kind: 'reset' })}
                >
                  {messages['staff.action.resetSecondFactor']}
                </button>
              )}
            </div>,
          )}
          {section(
            messages['staff.panel.institutions'],
            <>
              {user.institutions.length === 0 ? (
                <p className="text-sm text-base-content/70">{messages['staff.panel.noInstitutions']}</p>
              ) : (
                <ul className="grid gap-1 text-sm">
                  {user.institutions.map((institution) => (
                    <li key={institution.relationId} className="flex flex-wrap items-center gap-2">
                      <span>
                        {format(messages['staff.institution'], {
                          name: institution.name,
                          code: institution.code,
                          empId: institution.empId,
                        })}
                      </span>
                      <button
                        type="button"
                        className="btn btn-ghost btn-xs text-error"
                        disabled={busy}
                        aria-label={format(messages['staff.action.unrelateLabel'], { institution: institution.name })}
                        onClick={() => ask({ kind: 'unrelate', institution })}
                      >
                        {messages['staff.action.unrelate']}
                      </button>
                    </li>
                  ))}
                </ul>
              )}
              <form
                ref={relateRef}
                aria-labelledby={`${id}-relate`}
                className="grid gap-2 rounded-box bg-base-200/50 p-3"
                noValidate
                onSubmit={(event) => void relate(event)}
              >
                <h4 id={`${id}-relate`} className="text-sm font-semibold">
                  {messages['staff.relate.title']}
                </h4>
                <p className="text-xs text-base-content/70">{messages['staff.panel.partnerHint']}</p>
                <div className="flex flex-wrap items-start gap-3">
                  {relateField('institutionCode', messages['staff.relate.code'], messages['staff.relate.codeHint'])}
                  {relateField('empId', messages['staff.relate.empId'], messages['staff.relate.empIdHint'])}
                  <button type="submit" className="btn btn-primary btn-sm mt-7" disabled={busy} aria-busy={busy}>
                    {messages['staff.relate.submit']}
                  </button>
                </div>
              </form>
            </>,
          )}
          <ConfirmDialog
            open={pending !== null}
            title={dialog.title}
            body={dialog.body}
            confirmLabel={dialog.confirm}
            cancelLabel={messages['staff.confirm.cancel']}
            busy={busy}
            onConfirm={() => void confirm()}
            onCancel={() => setPending(null)}
          />
        </>
      )}
    </section>
  );
}
