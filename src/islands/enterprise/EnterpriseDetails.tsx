import type { Locale } from '../../lib/i18n/locales.ts';
import { format } from '../../lib/api/messages.ts';
import { useId, useState } from 'react';
import type {
  AuthFileData,
  BankBindingData,
  EnterpriseData,
  RevealableEnterpriseField,
} from '../../lib/schemas/enterprise.ts';
import { labelCase } from '../auth/formValidation.ts';
import type { Option } from './SelectField.tsx';
import type { CertifyMessages } from './certifyMessages.ts';
import { bankName } from '../../lib/banks.ts';
import { authStatusWord, fileSize, shown, shownTime } from './enterpriseCalls.ts';

interface Props {
  enterprise: EnterpriseData;
  locale: Locale;
  messages: CertifyMessages;
  voltageLevels: readonly Option[];
  /** For staff reading a masked record: asks for one whole number (an audited call); null when refused. */
  reveal?: (field: RevealableEnterpriseField) => Promise<string | null>;
}

/** One label and its value in a record's `<dl>`. */
export function Row({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex gap-3 text-sm">
      <dt className="w-36 shrink-0 text-muted">{labelCase(label)}</dt>
      <dd className="min-w-0 break-words">{value}</dd>
    </div>
  );
}

/** A masked number with the button that shows it whole (once asked, the answer replaces it). */
function RevealRow({
  label,
  value,
  reveal,
  messages: m,
}: {
  label: string;
  value: string;
  reveal: () => Promise<string | null>;
  messages: CertifyMessages;
}) {
  const [whole, setWhole] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const noteId = useId();
  return (
    <div className="flex gap-3 text-sm">
      <dt className="w-36 shrink-0 text-muted">{labelCase(label)}</dt>
      <dd className="flex min-w-0 flex-wrap items-center gap-x-2 break-words">
        <span>{whole ?? value}</span>
        {whole === null && (
          <>
            <button
              type="button"
              className="btn btn-ghost btn-xs min-h-6"
              aria-describedby={noteId}
              disabled={busy}
              onClick={() => {
                setBusy(true);
                void reveal().then((answer) => {
                  setBusy(false);
                  setWhole(answer);
                });
              }}
            >
              {m['certify.ops.reveal']}
            </button>
            <span id={noteId} className="sr-only">
              {m['certify.ops.revealNote']}
            </span>
          </>
        )}
      </dd>
    </div>
  );
}

/** The record as read-only rows: every field, the status in words, "-" for what is unknown. */
export default function EnterpriseDetails({ enterprise: e, locale, messages: m, voltageLevels, reveal }: Props) {
  const number = (field: RevealableEnterpriseField, label: string) =>
    e.masked && reveal && e[field] ? (
      <RevealRow label={label} value={e[field]} reveal={() => reveal(field)} messages={m} />
    ) : (
      <Row label={label} value={shown(e[field], m)} />
    );
  const voltage = voltageLevels.find((option) => option.value === e.voltageLevel)?.label ?? e.voltageLevel;
  const authType = e.authType ? m[`certify.authType.${e.authType}`] : null;
  return (
    <dl className="grid gap-2 md:grid-cols-2">
      <Row label={m['certify.field.enterpriseName']} value={shown(e.enterpriseName, m)} />
      <Row label={m['certify.field.creditCode']} value={shown(e.creditCode, m)} />
      <Row label={m['certify.field.legalPerson']} value={shown(e.legalPerson, m)} />
      <Row label={m['certify.field.contactName']} value={shown(e.contactName, m)} />
      {number('contactPhone', m['certify.field.contactPhone'])}
      <Row label={m['certify.field.address']} value={shown(e.address, m)} />
      <Row label={m['certify.field.industry']} value={shown(e.industryName || e.industry, m)} />
      <Row label={m['certify.field.areaCode']} value={shown(e.areaName || e.areaCode, m)} />
      {number('clearanceAccount', m['certify.field.clearanceAccount'])}
      <Row label={m['certify.field.electricityAccounts']} value={shown(e.electricityAccounts.join(', '), m)} />
      <Row label={m['certify.field.voltageLevel']} value={shown(voltage, m)} />
      <Row
        label={m['certify.field.annualConsumption']}
        value={
          e.annualConsumption === null
            ? m['certify.common.dash']
            : new Intl.NumberFormat(locale).format(e.annualConsumption)
        }
      />
      <Row
        label={m['certify.field.partnerName']}
        value={e.partnerName === null ? m['certify.common.dash'] : `${e.partnerName} (${e.partnerCode ?? ''})`}
      />
      <Row label={m['certify.field.authStatus']} value={authStatusWord(e.authStatus, m)} />
      <Row label={m['certify.field.authType']} value={shown(authType, m)} />
      <Row label={m['certify.field.submittedAt']} value={shownTime(e.submittedAt, locale, m)} />
      <Row label={m['certify.field.reviewedAt']} value={shownTime(e.reviewedAt, locale, m)} />
      <Row label={m['certify.field.createdAt']} value={shownTime(e.createdAt, locale, m)} />
      <Row label={m['certify.field.updatedAt']} value={shownTime(e.updatedAt, locale, m)} />
    </dl>
  );
}

interface FilesProps {
  files: readonly AuthFileData[];
  locale: Locale;
  messages: CertifyMessages;
  /** Show images inline (the operator's review) as well as the link. */
  previews?: boolean;
}

/** The certification files with a link that opens each in a new tab (and an inline image preview when asked). */
export function AuthFileList({ files, locale, messages: m, previews = false }: FilesProps) {
  if (files.length === 0) return <p className="text-sm text-base-content/70">{m['certify.ops.noFiles']}</p>;
  return (
    <ul className="grid gap-3 md:grid-cols-2">
      {files.map((file) => {
        const kind = m[`certify.files.kind.${file.kind}`];
        return (
          <li key={file.id} className="rounded-box border border-base-300 p-3 text-sm">
            <p className="font-medium">{kind}</p>
            <p className="break-all text-base-content/70">
              {file.originalName} · {fileSize(file.size, locale)}
            </p>
            <a className="link link-primary" href={file.url} target="_blank" rel="noopener">
              {format(m['certify.ops.openFile'], { kind })}
            </a>
            {previews && file.contentType !== 'application/pdf' && (
              <img
                src={file.url}
                alt={`${kind}: ${file.originalName}`}
                className="mt-2 max-h-96 w-full rounded object-contain"
                loading="lazy"
              />
            )}
          </li>
        );
      })}
    </ul>
  );
}

/** The bank account an enterprise certified with by USB key (the number masked by the server). */
export function BankBindingDetails({
  binding,
  locale,
  messages: m,
}: {
  binding: BankBindingData;
  locale: Locale;
  messages: CertifyMessages;
}) {
  return (
    <dl className="grid gap-2 md:grid-cols-2">
      <Row label={m['certify.record.bank']} value={bankName(binding.bank, m)} />
      <Row label={m['certify.record.accountNo']} value={binding.accountNoMasked} />
      <Row label={m['certify.record.accountName']} value={binding.accountName} />
      <Row label={m['certify.record.empName']} value={binding.empName} />
      <Row label={m['certify.record.boundAt']} value={shownTime(binding.boundAt, locale, m)} />
    </dl>
  );
}
