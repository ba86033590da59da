/**
 * A status as a badge in an island: its words in the tone src/lib/statusBadges.ts gives that
 * status, so an order, a certification or a settlement reads the same wherever it is shown.
 */
import { statusBadgeClass, type StatusKind, statusTones } from '../lib/statusBadges.ts';

interface Props<K extends StatusKind> {
  kind: K;
  status: keyof (typeof statusTones)[K] | number;
  label: string;
  size?: 'sm' | 'xs';
}

export default function StatusBadge<K extends StatusKind>({ kind, status, label, size }: Props<K>) {
  return <span className={statusBadgeClass(kind, status, size)}>{label}</span>;
}
