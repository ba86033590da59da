interface Props {
  busy: boolean;
  label: string;
  busyLabel: string;
  className?: string;
}

/** A form's submit button: disabled with a spinner and "正在…" while the call runs. */
export default function SubmitButton({ busy, label, busyLabel, className = 'btn btn-primary mt-4 w-full' }: Props) {
  return (
    <button type="submit" className={className} disabled={busy} aria-busy={busy}>
      {busy && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
      {busy ? busyLabel : label}
    </button>
  );
}
