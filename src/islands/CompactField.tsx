/**
 * A small labelled text input for a form inside a table panel (relating a staff member to an
 * institution): its hint below it, replaced by the field's error when there is one.
 */
export default function CompactField({
  id,
  name,
  label,
  hint,
  error,
  widthClass,
}: {
  /** The input's id; the hint and the error are `<id>-hint` and `<id>-error`. */
  id: string;
  name: string;
  label: string;
  hint: string;
  error: string | undefined;
  /** The input's width, a Tailwind class (`w-44`). */
  widthClass: string;
}) {
  return (
    <div className="fieldset py-0">
      <label htmlFor={id} className="fieldset-legend pb-1 text-sm">
        {label}
      </label>
      <input
        id={id}
        name={name}
        maxLength={32}
        autoComplete="off"
        className={`input input-sm ${widthClass} ${error ? 'input-error' : ''}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-${error ? 'error' : 'hint'}`}
      />
      {error ? (
        <p id={`${id}-error`} className="label text-xs whitespace-normal text-error">
          {error}
        </p>
      ) : (
        <p id={`${id}-hint`} className="label text-xs whitespace-normal">
          {hint}
        </p>
      )}
    </div>
  );
}
