/**
 * How the ordering islands show an order: status words, numbers, links and the calls' URLs.
 */
import type { MessageKey } from '../../lib/i18n/index.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import { orderStatuses, type OrderActor } from '../../lib/orderStatus.ts';
import { localePath } from '../../lib/paths.ts';

export const ORDER_API = '/api/front/hgdsel/order';
export const OPS_API = '/api/ops';

export const orderStatusKeys = [
  'orderStatus.10',
  'orderStatus.20',
  'orderStatus.30',
  'orderStatus.40',
  'orderStatus.90',
  'orderStatus.91',
] as const satisfies readonly MessageKey[];

type StatusMessages = Record<(typeof orderStatusKeys)[number], string>;

/** The status in words (core dictionary); an unknown code shows itself rather than nothing. */
export function orderStatusLabel(status: number | null | undefined, messages: StatusMessages): string {
  if (status === null || status === undefined) return '-';
  const key = `orderStatus.${status}`;
  return (messages as Record<string, string>)[key] ?? String(status);
}

export const statusOptions = orderStatuses;

export const actorKeys = {
  enterprise: 'ordering.detail.actor.enterprise',
  operator: 'ordering.detail.actor.operator',
  system: 'ordering.detail.actor.system',
} as const satisfies Record<OrderActor, MessageKey>;

export function formatNumber(value: number, locale: Locale, maximumFractionDigits = 3): string {
  return new Intl.NumberFormat(locale, { maximumFractionDigits }).format(value);
}

/** A date and time in China time, in the page's language (src/lib/chinaTime.ts). */
export { formatChinaDateTime as formatDateTime } from '../../lib/chinaTime.ts';

export function orderDetailHref(locale: Locale, orderNo: string): string {
  return `${localePath(locale, '/certify/order/detail')}?orderNo=${encodeURIComponent(orderNo)}`;
}

/** The `orderNo` query parameter of this page (static pages read it in the browser). */
export function orderNoFromLocation(): string {
  return new URLSearchParams(window.location.search).get('orderNo')?.trim() ?? '';
}
