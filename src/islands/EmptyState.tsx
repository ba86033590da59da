/**
 * What an island shows where a list or a record is empty: the shared drawing (src/lib/emptyState.ts),
 * an optional title, a sentence saying what to do, and that one action as a link button. Inside a
 * table row it drops its frame (`framed={false}`): the table is the frame.
 */
import type { ReactNode } from 'react';
import { emptyArt, emptyFrameClass } from '../lib/emptyState.ts';

export interface EmptyAction {
  href: string;
  label: string;
}

interface Props {
  title?: string;
  message: ReactNode;
  action?: EmptyAction | undefined;
  framed?: boolean;
  /** `status` where the empty state replaces content that was loading (announced once). */
  role?: 'status';
}

export default function EmptyState({ title, message, action, framed = true, role }: Props) {
  return (
    <div role={role} className={framed ? emptyFrameClass : 'text-center'}>
      <svg aria-hidden="true" viewBox={emptyArt.viewBox} className="mx-auto mb-3 h-12 w-16">
        <path d={emptyArt.sheet} className="fill-base-100 stroke-muted" strokeWidth="1.5" strokeLinejoin="round" />
        <path d={emptyArt.bolt} className="fill-accent" />
        <path d={emptyArt.tray} className="fill-base-300 stroke-muted" strokeWidth="1.5" strokeLinejoin="round" />
      </svg>
      {title && <p className="font-semibold">{title}</p>}
      <p className="text-sm">{message}</p>
      {action && (
        <a className="btn btn-primary btn-sm mt-4" href={action.href}>
          {action.label}
        </a>
      )}
    </div>
  );
}
