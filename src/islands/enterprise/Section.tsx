import { useId, type ReactNode } from 'react';

/** One titled card of the enterprise pages: a landmark named by its heading. */
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
    <section className="card border border-base-300 bg-base-100" aria-labelledby={headingId}>
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
