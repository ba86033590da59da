import { lazy, Suspense, useState } from 'react';
import { format } from '../../lib/api/messages.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import type { ValidationMessages } from '../auth/formValidation.ts';
import SettingsCard from './SettingsCard.tsx';
import type { AccountMessages } from './accountSettings.ts';

// The dialog's code comes when the button is pressed: nobody pays for it on every visit.
const CancelAccountDialog = lazy(() => import('./CancelAccountDialog.tsx'));

interface Props {
  locale: Locale;
  messages: AccountMessages;
  validation: ValidationMessages;
}

/** Days of the cooling-off, as the server counts them (services/cancellation.ts). */
const coolingOffDays = 15;

/** 注销账号: what closing the account erases and keeps, the cooling-off, and the button that asks. */
export default function CancelAccountCard({ locale, messages, validation }: Props) {
  const [open, setOpen] = useState(false);
  return (
    <SettingsCard id="cancel-account" title={messages['account.cancel.title']} lead={messages['account.cancel.lead']}>
      <p className="text-sm">{format(messages['account.cancel.steps'], { days: coolingOffDays })}</p>
      <div>
        <button type="button" className="btn btn-outline btn-error btn-sm" onClick={() => setOpen(true)}>
          {messages['account.cancel.start']}
        </button>
      </div>
      {open && (
        <Suspense fallback={null}>
          <CancelAccountDialog
            locale={locale}
            messages={messages}
            validation={validation}
            onClose={() => setOpen(false)}
          />
        </Suspense>
      )}
    </SettingsCard>
  );
}
