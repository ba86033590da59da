import type { ReactNode } from 'react';
import { redirectQuery } from './signIn.ts';

interface Props {
  href: string;
  className?: string;
  children: ReactNode;
}

/**
 * A link between login, registration and reset that carries the current page's `redirect` on:
 * a visitor sent to log in on the way to an order, who registers first, still ends on the order.
 * The parameter is added when the link is followed — the server-rendered href has none, so
 * hydration never mismatches, and a click held during hydration and replayed still gets it.
 */
export default function KeepRedirectLink({ href, className = 'link link-primary', children }: Props) {
  return (
    <a
      href={href}
      className={className}
      onClick={(event) => {
        event.currentTarget.href = `${href}${redirectQuery(window.location.href)}`;
      }}
    >
      {children}
    </a>
  );
}
