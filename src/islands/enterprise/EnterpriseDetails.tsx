import type { Locale } from '../../lib/i18n/locales.ts';
import { format } from '../../lib/api/messages.ts';
import type { AuthFileData, BankBindingData, EnterpriseData } from '../../lib/schemas/enterprise.ts';
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

/** The record as read-only rows: every field, the status in words, "-" for what is unknown. */
export default function EnterpriseDetails({ enterprise: e, locale, messages: m, voltageLevels }: Props) {
  const voltage = voltageLevels.find((option) => option.value === e.voltageLevel)?.label ?? e.voltageLevel;
  const authType = e.authType ? m[`certify.authType.${e.authType}`] : null;
  return (
    <dl className="grid gap-2 md:grid-cols-2">
      <Row label={m['certify.field.enterpriseName']} value={shown(e.enterpriseName, m)} />
      <Row label={m['certify.field.creditCode']} value={shown(e.creditCode, m)} />
      <Row label={m['certify.field.legalPerson']} value={shown(e.legalPerson, m)} />
      <Row label={m['certify.field.contactName']} value={shown(e.contactName, m)} />
      <Row label={m['certify.field.contactPhone']} value={shown(e.contactPhone, m)} />
      <Row label={m['certify.field.address']} value={shown(e.address, m)} />
      <Row label={m['certify.field.industry']} value={shown(e.industryName || e.industry, m)} />
      <Row label={m['certify.field.areaCode']} value={shown(e.areaName || e.areaCode, m)} />
      <Row label={m['certify.field.clearanceAccount']} value={shown(e.clearanceAccount, m)} />
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
