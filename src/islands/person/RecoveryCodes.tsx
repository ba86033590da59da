import { useEffect, useRef } from 'react';
import { format } from '../../lib/api/messages.ts';
import { message } from '../../lib/api/notify.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import type { AccountMessages } from './accountSettings.ts';
import { formatDateTime } from './personData.ts';
import { recoveryCodesFile, recoveryCodesFileName } from './secondFactor.ts';

interface Props {
  locale: Locale;
  codes: readonly string[];
  messages: AccountMessages;
  /** The user has saved them: they are never shown again. */
  onDone: () => void;
}

/** The recovery codes, shown once after they are made: copy them, download them as a .txt file. */
export default function RecoveryCodes({ locale, codes, messages, onDone }: Props) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  const heading = format(messages['account.secondFactor.fileHeading'], {
    time: formatDateTime(new Date().toISOString(), locale),
  });

  // Shown in place of the form the user just sent: move them to what they must read.
  useEffect(() => headingRef.current?.focus(), []);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(codes.join('\n'));
      message.success(messages['account.secondFactor.copied']);
    } catch {
      message.error(messages['account.secondFactor.copyFailed']);
    }
  };

  const download = () => {
    const link = document.createElement('a');
    link.href = URL.createObjectURL(
      new Blob([recoveryCodesFile(heading, codes)], { type: 'text/plain;charset=utf-8' }),
    );
    link.download = recoveryCodesFileName;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
  };

  return (
    <div className="rounded-box border border-warning bg-warning/10 p-4">
      <h3 ref={headingRef} tabIndex={-1} className="font-semibold outline-none">
        {messages['account.secondFactor.codesTitle']}
      </h3>
      <p className="mt-1 text-sm">{messages['account.secondFactor.codesLead']}</p>
      <ol
        aria-label={messages['account.secondFactor.codesTitle']}
        className="mt-3 grid grid-cols-2 gap-x-6 gap-y-1 font-mono text-base sm:grid-cols-5"
        data-recovery-codes
      >
        {codes.map((code) => (
          <li key={code} className="whitespace-nowrap">
            {code}
          </li>
        ))}
      </ol>
      <div className="mt-4 flex flex-wrap gap-2">
        <button type="button" className="btn btn-sm" onClick={() => void copy()}>
          {messages['account.secondFactor.copyCodes']}
        </button>
        <button type="button" className="btn btn-sm" onClick={download}>
          {messages['account.secondFactor.download']}
        </button>
        <button type="button" className="btn btn-sm btn-primary" onClick={onDone}>
          {messages['account.secondFactor.saved']}
        </button>
      </div>
    </div>
  );
}
