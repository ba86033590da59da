import { useId, type ReactNode } from 'react';

/**
 * One titled card of the enterprise pages: a landmark named by its heading. `min-w-0`: in a grid or
 * flex column a card may be narrower than its longest unbroken value (a credit code), which wraps.
 */
export default function Section({
  title,
  action,
  children,
}: {
  title: string;
  action?: ReactNode;
  children: ReactNode;
}) {
  const headingId = useId();
  return (
    <section className="card min-w-0 border border-base-300 bg-base-100" aria-labelledby={headingId}>
      <div className="card-body gap-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id={headingId} className="card-title text-base">
            {title}
          </h2>
          {action}
        </div>
        {children}
      </div>
    </section>
  );
}
