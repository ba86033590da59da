import { useEffect, useId, useRef, useState, type SubmitEvent } from 'react';
import { reasonMaxLength } from '../../lib/orderStatus.ts';

interface Props {
  open: boolean;
  title: string;
  body: string;
  /** Whether the action must say why (operator cancel and reject). */
  reasonRequired: boolean;
  labels: {
    reason: string;
    hint: string;
    required: string;
    tooLong: string;
    submit: string;
    busy: string;
    back: string;
  };
  busy: boolean;
  /** The server's refusal, shown in the dialog so the operator sees why nothing changed. */
  refusal: string;
  onSubmit: (reason: string) => void;
  onCancel: () => void;
}

/**
 * The operator's confirmation of an order transition, with its reason (required for cancel and
 * reject, optional otherwise). Native `<dialog>`: modal, Escape closes, focus starts in the reason and returns to the opener on close.
 */
export default function ReasonDialog({
  open,
  title,
  body,
  reasonRequired,
  labels,
  busy,
  refusal,
  onSubmit,
  onCancel,
}: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  const [error, setError] = useState('');

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      setError('');
      dialog.showModal();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const field = event.currentTarget.elements.namedItem('reason') as HTMLTextAreaElement;
    const reason = field.value.trim();
    const problem =
      reasonRequired && reason === '' ? labels.required : reason.length > reasonMaxLength ? labels.tooLong : '';
    setError(problem);
    if (problem) {
      field.focus();
      return;
    }
    onSubmit(reason);
  };

  return (
    <dialog
      ref={ref}
      className="modal"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-body`}
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onCancel();
      }}
    >
      <form className="modal-box grid gap-3" noValidate onSubmit={submit}>
        <h2 id={`${id}-title`} className="text-lg font-semibold">
          {title}
        </h2>
        <p id={`${id}-body`}>{body}</p>
        <div className="fieldset py-0">
          <label htmlFor={`${id}-reason`} className="fieldset-legend pb-1 text-sm">
            {labels.reason}
            {reasonRequired && (
              <span aria-hidden="true" className="text-error">
                {' '}
                *
              </span>
            )}
          </label>
          <textarea
            id={`${id}-reason`}
            name="reason"
            rows={3}
            autoFocus
            maxLength={reasonMaxLength}
            required={reasonRequired}
            className={`textarea w-full ${error ? 'textarea-error' : ''}`}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : `${id}-hint`}
          />
          {error ? (
            <p id={`${id}-error`} className="label text-xs whitespace-normal text-error">
              {error}
            </p>
          ) : (
            <p id={`${id}-hint`} className="label text-xs whitespace-normal">
              {labels.hint}
            </p>
          )}
        </div>
        {refusal && (
          <div role="alert" className="alert alert-error">
            <span>{refusal}</span>
          </div>
        )}
        <div className="modal-action">
          <button type="button" className="btn" onClick={onCancel} disabled={busy}>
            {labels.back}
          </button>
          <button type="submit" className="btn btn-primary" disabled={busy} aria-busy={busy}>
            {busy && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
            {busy ? labels.busy : labels.submit}
          </button>
        </div>
      </form>
    </dialog>
  );
}
