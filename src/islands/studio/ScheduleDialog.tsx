import { useEffect, useId, useRef, useState, type SubmitEvent } from 'react';
import { createPortal } from 'react-dom';
import { BAD_REQUEST, OK } from '../../lib/apiCodes.ts';
import { chinaDateTimeLocal, formatChinaDateTime } from '../../lib/chinaTime.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import { maxScheduleAheadDays, studioScheduleBody } from '../../lib/schemas/studio.ts';
import { serverFieldErrors, validateForm, type FieldErrors, type ValidationMessages } from '../auth/formValidation.ts';
import { scheduleItems, type ScheduleAction, type ScheduleView } from '../../lib/api/studioSchedules.ts';
import { contentInvalidOf, type ContentProblem } from '../../lib/api/studio.ts';
import { editUrl } from './studioLinks.ts';
import { say, type StudioMessages } from '../../lib/studio/messages.ts';

export interface ScheduleDialogProps {
  action: ScheduleAction;
  /** The items it publishes or removes. */
  paths: readonly string[];
  /** The dialog's title and what will happen then. */
  title: string;
  body: string;
  locale: Locale;
  messages: StudioMessages;
  validation: ValidationMessages;
  /** Called with the new schedule and the sentence that says when it runs. */
  onScheduled: (view: ScheduleView, text: string) => void;
  /** The dialog is done (scheduled or cancelled): the control takes it away and the focus back. */
  onClose: () => void;
}

const RUN_AT = 'runAt';
const hourMs = 3_600_000;

/** The form's first offer: the next full hour at least a quarter of an hour away (China's offset is whole hours). */
function defaultRunAt(now = Date.now()): string {
  return chinaDateTimeLocal(Math.ceil((now + 15 * 60_000) / hourMs) * hourMs);
}

/**
 * The scheduling dialog of ScheduleControl: the time is chosen as China time (UTC+8) whatever the
 * browser's zone — the datetime-local input's wall clock is sent as it is and read as China time
 * by the server — checked with the server's own schema, then confirmed. Errors land at the time
 * field (the form's and the server's alike); a refusal about the items or the content shows above
 * the buttons. Native `<dialog>`, modal from the moment it mounts: Escape closes it. It is put at
 * the end of the page (a portal), so the control may sit inside another form.
 */
export default function ScheduleDialog({
  action,
  paths,
  title,
  body,
  locale,
  messages,
  validation,
  onScheduled,
  onClose,
}: ScheduleDialogProps) {
  const [now] = useState(() => Date.now());
  const [runAt, setRunAt] = useState(() => defaultRunAt(now));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [refusal, setRefusal] = useState<{ text: string; invalid?: ContentProblem | undefined } | null>(null);
  const [busy, setBusy] = useState(false);
  const dialogRef = useRef<HTMLDialogElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const id = useId();

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog || dialog.open) return;
    dialog.showModal();
    inputRef.current?.focus();
  }, []);

  /** Closes the dialog (first the element: while it is modal the page behind it cannot take the focus). */
  const dismiss = () => {
    dialogRef.current?.close();
    onClose();
  };

  const close = () => {
    if (!busy) dismiss();
  };

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    // React events follow the component tree: not the submit of a form this control sits in.
    event.stopPropagation();
    if (busy) return;
    setRefusal(null);
    const checked = validateForm(
      studioScheduleBody,
      { action, paths: [...paths], runAt },
      { ...validation, ...messages },
    );
    if (!checked.ok) {
      setErrors(checked.errors);
      const other = Object.entries(checked.errors).find(([field]) => field !== RUN_AT);
      if (other) setRefusal({ text: other[1] });
      inputRef.current?.focus();
      return;
    }
    setErrors({});
    setBusy(true);
    const answer = await scheduleItems(action, paths, runAt);
    setBusy(false);
    if (!answer) return;
    if (answer.code === OK) {
      dismiss();
      onScheduled(
        answer.data,
        say(messages, 'studio.schedule.created', { at: formatChinaDateTime(answer.data.runAt, locale) }),
      );
      return;
    }
    const invalid = answer.code === BAD_REQUEST ? contentInvalidOf(answer) : undefined;
    const fieldErrors = answer.code === BAD_REQUEST ? serverFieldErrors(answer) : {};
    setErrors(fieldErrors);
    const other = Object.entries(fieldErrors).find(([field]) => field !== RUN_AT);
    if (invalid) setRefusal({ text: answer.message, invalid });
    else if (other) setRefusal({ text: other[1] });
    else if (!fieldErrors[RUN_AT]) setRefusal({ text: answer.message });
    if (fieldErrors[RUN_AT]) inputRef.current?.focus();
  };

  const error = errors[RUN_AT];
  const describedBy = `${id}-hint${error ? ` ${id}-error` : ''}`;

  return createPortal(
    <dialog
      ref={dialogRef}
      className="modal"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-body`}
      onCancel={(event) => {
        event.preventDefault();
        close();
      }}
    >
      <form className="modal-box grid gap-3" noValidate onSubmit={(event) => void submit(event)}>
        <h2 id={`${id}-title`} className="text-lg font-semibold">
          {title}
        </h2>
        <p id={`${id}-body`}>{body}</p>
        <div className="fieldset py-1">
          <label htmlFor={`${id}-input`} className="fieldset-legend pb-1 text-sm">
            {messages['studio.schedule.runAtLabel']}
          </label>
          <input
            ref={inputRef}
            id={`${id}-input`}
            name={RUN_AT}
            type="datetime-local"
            step={60}
            className={`input w-full ${error ? 'input-error' : ''}`}
            value={runAt}
            min={chinaDateTimeLocal(now)}
            max={chinaDateTimeLocal(now + maxScheduleAheadDays * 86_400_000)}
            required
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy}
            onChange={(event) => {
              setRunAt(event.target.value);
              setErrors({});
            }}
          />
          <p id={`${id}-hint`} className="label text-xs whitespace-normal">
            {say(messages, 'studio.schedule.runAtHint', { now: formatChinaDateTime(now, locale) })}
          </p>
          {error && (
            <p id={`${id}-error`} className="label text-xs whitespace-normal text-error">
              {error}
            </p>
          )}
        </div>
        {refusal && (
          <div role="alert" className="alert alert-error flex-col items-start">
            <p>{refusal.invalid ? messages['studio.changes.invalid'] : refusal.text}</p>
            {refusal.invalid && (
              <>
                <pre className="text-sm whitespace-pre-wrap">{refusal.text}</pre>
                <a className="link font-medium" href={editUrl(locale, refusal.invalid.path)}>
                  {messages['studio.changes.fix']}: {refusal.invalid.path}
                </a>
              </>
            )}
          </div>
        )}
        <div className="modal-action">
          <button type="button" className="btn" onClick={close} disabled={busy}>
            {messages['studio.cancel']}
          </button>
          <button type="submit" className="btn btn-primary" disabled={busy} aria-busy={busy}>
            {busy && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
            {messages['studio.schedule.confirm']}
          </button>
        </div>
      </form>
    </dialog>,
    document.body,
  );
}
