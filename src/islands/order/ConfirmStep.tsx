import { format } from '../../lib/api/messages.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import { contractEndMonth, type OrderSchemeParamSnapshot } from '../../lib/schemas/order.ts';
import SubmitButton from '../auth/SubmitButton.tsx';
import type { ContractValues } from './ContractStep.tsx';
import { formatNumber } from './orderView.ts';
import type { WizardMessages } from './orderWizard.ts';
import { schemePrice } from './schemeText.ts';
import type { SellingSetInfo } from './wizardData.ts';

interface Props {
  locale: Locale;
  enterpriseName: string;
  selling: SellingSetInfo;
  scheme: OrderSchemeParamSnapshot;
  values: ContractValues;
  busy: boolean;
  /** The server's refusal of the order (not on sale any more, an open order exists…). */
  refusal: string;
  messages: WizardMessages;
  onBack: () => void;
  onSubmit: () => void;
}

function Row({ label, value }: { label: string; value: string }) {
  return (
    <div className="grid gap-1 sm:grid-cols-[10rem_1fr] sm:gap-3">
      <dt className="text-sm text-muted">{label}</dt>
      <dd className="text-sm">{value}</dd>
    </div>
  );
}

/** Step 3: everything the order will say, then createCustomerOrder. */
export default function ConfirmStep({
  locale,
  enterpriseName,
  selling,
  scheme,
  values,
  busy,
  refusal,
  messages,
  onBack,
  onSubmit,
}: Props) {
  const months = Number(values.contractMonths);
  return (
    <form
      className="grid max-w-2xl gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <p className="text-base-content/80">{messages['ordering.summary.title']}</p>
      <dl className="grid gap-2 rounded-box border border-base-300 p-4">
        <Row label={messages['ordering.detail.enterprise']} value={enterpriseName} />
        <Row label={messages['ordering.detail.set']} value={selling.setName} />
        <Row label={messages['ordering.detail.orgCom']} value={selling.orgCom.name} />
        <Row
          label={messages['field.schemeParamId']}
          value={`${scheme.name} · ${schemePrice(scheme, locale, messages)}`}
        />
        <Row
          label={messages['ordering.detail.contractPeriod']}
          value={format(messages['ordering.detail.periodValue'], {
            start: values.contractStart,
            end: contractEndMonth(values.contractStart, months),
            months,
          })}
        />
        <Row
          label={messages['ordering.detail.consumption']}
          value={format(messages['ordering.detail.consumptionValue'], {
            value: formatNumber(Number(values.estimatedConsumption), locale),
          })}
        />
      </dl>
      {refusal && (
        <div role="alert" className="alert alert-error">
          <span>{refusal}</span>
        </div>
      )}
      <div className="flex gap-2">
        <button type="button" className="btn" onClick={onBack} disabled={busy}>
          {messages['ordering.back']}
        </button>
        <SubmitButton
          busy={busy}
          label={messages['ordering.submit']}
          busyLabel={messages['ordering.submitting']}
          className="btn btn-primary"
        />
      </div>
    </form>
  );
}
