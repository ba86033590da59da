import { lazy, Suspense, useRef, useState } from 'react';
import type { Locale } from '../../lib/i18n/locales.ts';
import type { ValidationMessages } from '../auth/formValidation.ts';
import type { ScheduleAction, ScheduleView } from '../../lib/api/studioSchedules.ts';
import type { StudioMessages } from '../../lib/studio/messages.ts';

/**
 * The dialog, and with it the schedule's rules (zod), is fetched when the button is first used:
 * most visits to the studio's pages schedule nothing (docs/performance.md).
 */
const ScheduleDialog = lazy(() => import('./ScheduleDialog.tsx'));

interface Props {
  action: ScheduleAction;
  /** The items it publishes or removes. */
  paths: readonly string[];
  /** The button's words (定时发布, 定时移除). */
  label: string;
  /** The dialog's title and what will happen then. */
  title: string;
  body: string;
  disabled?: boolean;
  locale: Locale;
  messages: StudioMessages;
  validation: ValidationMessages;
  /** Called with the new schedule and the sentence that says when it runs. */
  onScheduled: (view: ScheduleView, text: string) => void;
}

/**
 * A scheduling button and its dialog (ScheduleDialog.tsx: a time in China time, checked with the
 * server's schema, then confirmed). Closing the dialog gives the focus back to the button.
 */
export default function ScheduleControl({ label, disabled = false, ...dialog }: Props) {
  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const close = () => {
    setOpen(false);
    buttonRef.current?.focus();
  };
  return (
    <>
      <button
        ref={buttonRef}
        type="button"
        className="btn"
        disabled={disabled}
        onClick={() => setOpen(true)}
        aria-haspopup="dialog"
      >
        {label}
      </button>
      {open && (
        <Suspense fallback={null}>
          <ScheduleDialog {...dialog} onClose={close} />
        </Suspense>
      )}
    </>
  );
}
