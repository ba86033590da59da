import { useId, type ReactNode } from 'react';

interface Props {
  title: string;
  lead?: string;
  /** The element id, for links to this card (`#second-factor`). */
  id?: string;
  children: ReactNode;
}

/** One titled section of the account settings page (a landmark named by its heading). */
export default function SettingsCard({ title, lead, id, children }: Props) {
  const headingId = useId();
  return (
    <section id={id} className="card scroll-mt-4 border border-base-300 bg-base-100" aria-labelledby={headingId}>
      <div className="card-body gap-2">
        <h2 id={headingId} className="card-title text-base">
          {title}
        </h2>
        {lead && <p className="text-sm text-base-content/70">{lead}</p>}
        {children}
      </div>
    </section>
  );
}
