/**
 * The two states every island that loads its data shows before it has it: loading, and a failed
 * load with a retry button. One look and one wording across the signed-in pages.
 */
interface LoadingProps {
  label: string;
  className?: string;
}

export function Loading({ label, className = '' }: LoadingProps) {
  return (
    <p role="status" className={`flex items-center gap-2 text-base-content/70 ${className}`}>
      <span className="loading loading-spinner loading-sm" aria-hidden="true" />
      {label}
    </p>
  );
}

interface LoadFailedProps {
  message: string;
  retryLabel: string;
  onRetry: () => void;
}

export function LoadFailed({ message, retryLabel, onRetry }: LoadFailedProps) {
  return (
    <div role="alert" className="alert alert-error">
      <span>{message}</span>
      <button type="button" className="btn btn-sm" onClick={onRetry}>
        {retryLabel}
      </button>
    </div>
  );
}
