import { useId, useRef, useState, type SubmitEvent } from 'react';
import { OK, SESSION_EXPIRED } from '../../../lib/apiCodes.ts';
import { post } from '../../../lib/api/client.ts';
import { format } from '../../../lib/api/messages.ts';
import type { Locale } from '../../../lib/i18n/locales.ts';
import { userNameSchema } from '../../../lib/schemas/fields.ts';
import { empIdSchema, type PartnerAccountData, type PartnerDetailData } from '../../../lib/schemas/partner.ts';
import { serverFieldErrors, type FieldErrors } from '../../auth/formValidation.ts';
import CompactField from '../../CompactField.tsx';
import ConfirmDialog from '../../ConfirmDialog.tsx';
import { formatDateTime } from '../../order/orderView.ts';
import { callQuiet } from '../../quietCall.ts';
import { PARTNER_ACCOUNT_API } from '../partnerApi.ts';
import type { OrganizationMessages } from './organization.ts';

interface Props {
  partner: PartnerDetailData;
  accounts: readonly PartnerAccountData[];
  locale: Locale;
  messages: OrganizationMessages;
  /** A relation was added or removed: the panel reloads the institution. */
  onChanged: () => void;
}

/**
 * The staff related to one institution: who they are (name, user name, masked mobile, 工号,
 * since), removal after a confirmation naming the person (not of one's own relation: someone
 * else must remove it, the server refuses it too), and a form relating a user by login name and
 * 工号, checked here with the server's own rules and with the server's field errors shown beside
 * the fields (unknown user, 工号 taken); any other refusal is shown above the form.
 */
export default function StaffRelations({ partner, accounts, locale, messages, onChanged }: Props) {
  const headingId = useId();
  const formId = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formFailure, setFormFailure] = useState('');
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<PartnerAccountData | null>(null);
  const [removeBusy, setRemoveBusy] = useState(false);
  const [listFailure, setListFailure] = useState('');
  const [done, setDone] = useState('');

  const fail = (next: FieldErrors) => {
    setErrors(next);
    const first = Object.keys(next)[0];
    const element = first ? formRef.current?.elements.namedItem(first) : null;
    if (element instanceof HTMLElement) element.focus();
  };

  const add = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const userName = String(data.get('userName') ?? '').trim();
    const empId = String(data.get('empId') ?? '').trim();
    const local: Record<string, string> = {};
    if (!userName)
      local['userName'] = format(messages['settlement.staff.required'], {
        label: messages['settlement.staff.userName'],
      });
    else if (!userNameSchema.safeParse(userName).success)
      local['userName'] = messages['settlement.staff.userNameInvalid'];
    if (!empId)
      local['empId'] = format(messages['settlement.staff.required'], { label: messages['settlement.staff.empId'] });
    else if (!empIdSchema.safeParse(empId).success) local['empId'] = messages['settlement.staff.empIdInvalid'];
    setFormFailure('');
    setDone('');
    if (Object.keys(local).length > 0) return fail(local);
    setErrors({});
    setAdding(true);
    const answer = await post<PartnerAccountData>(
      `${PARTNER_ACCOUNT_API}/addRelationPartnerAccount`,
      { partnerId: partner.id, userName, empId },
      { quiet: true },
    );
    setAdding(false);
    if (!answer || answer.code === SESSION_EXPIRED) return;
    if (answer.code === OK) {
      formRef.current?.reset();
      setDone(format(messages['settlement.staff.added'], { name: answer.data.name || answer.data.userName }));
      onChanged();
      return;
    }
    // Errors of the two fields go beside them; anything else (the institution gone, already related) above the form.
    const fieldErrors = Object.fromEntries(
      Object.entries(serverFieldErrors(answer)).filter(([name]) => name === 'userName' || name === 'empId'),
    );
    if (Object.keys(fieldErrors).length > 0) fail(fieldErrors);
    else setFormFailure(answer.message);
  };

  const remove = async () => {
    if (!removing) return;
    setRemoveBusy(true);
    const answer = await callQuiet<Record<string, never>>('POST', `${PARTNER_ACCOUNT_API}/delRelationPartnerAccount`, {
      id: removing.id,
    });
    setRemoveBusy(false);
    const name = removing.name || removing.userName;
    setRemoving(null);
    if (answer?.ok) {
      setListFailure('');
      setDone(format(messages['settlement.staff.removed'], { name }));
      onChanged();
    } else if (answer) {
      setListFailure(answer.message);
      onChanged();
    }
  };

  const field = (name: 'userName' | 'empId', label: string, hint: string) => (
    <CompactField
      id={`${formId}-${name}`}
      name={name}
      label={label}
      hint={hint}
      error={errors[name]}
      widthClass="w-52"
    />
  );

  return (
    <section aria-labelledby={headingId} className="grid gap-3">
      <h2 id={headingId} className="text-lg font-semibold">
        {messages['settlement.staff.title']}
      </h2>
      <p role="status" className="min-h-5 text-sm text-success">
        {done}
      </p>
      {listFailure && (
        <p role="alert" className="alert alert-error text-sm">
          {listFailure}
        </p>
      )}
      {/* Scrolls sideways on narrow screens: focusable, so the keyboard can scroll it too. */}
      <div
        className="overflow-x-auto rounded-box border border-base-300"
        tabIndex={0}
        role="region"
        aria-labelledby={headingId}
      >
        <table className="table table-sm">
          <caption className="sr-only">{`${partner.name} · ${messages['settlement.staff.title']}`}</caption>
          <thead>
            <tr>
              <th scope="col">{messages['settlement.staff.col.name']}</th>
              <th scope="col">{messages['settlement.staff.col.userName']}</th>
              <th scope="col">{messages['settlement.staff.col.mobile']}</th>
              <th scope="col">{messages['settlement.staff.col.empId']}</th>
              <th scope="col">{messages['settlement.staff.col.since']}</th>
              <th scope="col">{messages['settlement.staff.col.actions']}</th>
            </tr>
          </thead>
          <tbody>
            {accounts.map((account) => (
              <tr key={account.id}>
                <td>{account.name || '-'}</td>
                <td className="font-mono text-xs">{account.userName}</td>
                <td className="font-mono text-xs whitespace-nowrap">{account.mobile || '-'}</td>
                <td className="font-mono text-xs">{account.empId}</td>
                <td className="whitespace-nowrap">{formatDateTime(account.createdAt, locale)}</td>
                <td>
                  {account.self ? (
                    <span className="badge badge-ghost badge-sm" title={messages['settlement.staff.selfHint']}>
                      {messages['settlement.staff.self']}
                    </span>
                  ) : (
                    <button
                      type="button"
                      className="btn btn-ghost btn-xs text-error"
                      aria-label={`${messages['settlement.staff.remove']}: ${account.name || account.userName} (${account.empId})`}
                      onClick={() => {
                        setDone('');
                        setRemoving(account);
                      }}
                    >
                      {messages['settlement.staff.remove']}
                    </button>
                  )}
                </td>
              </tr>
            ))}
            {accounts.length === 0 && (
              <tr>
                <td colSpan={6} className="py-6 text-center text-base-content/70">
                  {messages['settlement.staff.empty']}
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      <form
        ref={formRef}
        aria-labelledby={`${formId}-title`}
        className="grid gap-2 rounded-box bg-base-200/50 p-3"
        onSubmit={(event) => void add(event)}
        noValidate
      >
        <h3 id={`${formId}-title`} className="font-semibold">
          {messages['settlement.staff.add']}
        </h3>
        {formFailure && (
          <p role="alert" className="text-sm text-error">
            {formFailure}
          </p>
        )}
        <div className="flex flex-wrap items-start gap-3">
          {field('userName', messages['settlement.staff.userName'], messages['settlement.staff.userNameHint'])}
          {field('empId', messages['settlement.staff.empId'], messages['settlement.staff.empIdHint'])}
          <button type="submit" className="btn btn-primary btn-sm mt-7" disabled={adding} aria-busy={adding}>
            {adding && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
            {messages['settlement.staff.submit']}
          </button>
        </div>
      </form>
      <ConfirmDialog
        open={removing !== null}
        title={messages['settlement.staff.removeTitle']}
        body={
          removing
            ? format(messages['settlement.staff.removeBody'], {
                name: removing.name || removing.userName,
                userName: removing.userName,
                empId: removing.empId,
                partner: partner.name,
              })
            : ''
        }
        confirmLabel={messages['settlement.staff.removeConfirm']}
        cancelLabel={messages['settlement.staff.cancel']}
        busy={removeBusy}
        onConfirm={() => void remove()}
        onCancel={() => setRemoving(null)}
      />
    </section>
  );
}
