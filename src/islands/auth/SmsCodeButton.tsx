import { useState } from 'react';
import { format } from '../../lib/api/messages.ts';
import { useCountdown } from './countdown.ts';

export interface SmsButtonMessages {
  'account.sms.send': string;
  'account.sms.sending': string;
  'account.sms.countdown': string;
}

interface Props {
  messages: SmsButtonMessages;
  /**
   * Checks the phone and asks for a code; resolves the seconds to wait before the next code
   * (60 after a send), or undefined when nothing was sent (the reason is already shown).
   */
  onSend: () => Promise<number | undefined>;
}

/** "获取验证码", then a 60 s countdown during which it cannot be pressed again. */
export default function SmsCodeButton({ messages, onSend }: Props) {
  const [sending, setSending] = useState(false);
  const { remaining, start } = useCountdown();
  const waiting = remaining > 0;

  const send = async () => {
    if (sending || waiting) return;
    setSending(true);
    try {
      const seconds = await onSend();
      if (seconds) start(seconds);
    } finally {
      setSending(false);
    }
  };

  return (
    <button
      type="button"
      className="btn btn-outline btn-primary shrink-0 min-w-32"
      onClick={() => void send()}
      disabled={sending || waiting}
    >
      {sending && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
      {waiting
        ? format(messages['account.sms.countdown'], { seconds: remaining })
        : sending
          ? messages['account.sms.sending']
          : messages['account.sms.send']}
    </button>
  );
}
