/** The messages of an order's facts (OrderFacts, also on the operator's console) and of its detail page. */
import type { MessageKey } from '../../lib/i18n/index.ts';
import { orderStatusKeys } from './orderView.ts';

export const orderFactsMessageKeys = [
  ...orderStatusKeys,
  'ordering.detail.info',
  'ordering.detail.scheme',
  'ordering.detail.history',
  'ordering.detail.notices',
  'ordering.detail.noNotices',
  'ordering.detail.enterprise',
  'ordering.detail.product',
  'ordering.detail.set',
  'ordering.detail.orgCom',
  'ordering.detail.area',
  'ordering.detail.contractPeriod',
  'ordering.detail.periodValue',
  'ordering.detail.consumption',
  'ordering.detail.consumptionValue',
  'ordering.detail.status',
  'ordering.detail.reason',
  'ordering.detail.createdAt',
  'ordering.detail.updatedAt',
  'ordering.detail.priceEnergy',
  'ordering.detail.priceEnergyValue',
  'ordering.detail.priceShare',
  'ordering.detail.priceShareValue',
  'ordering.detail.schemeName',
  'ordering.detail.remark',
  'ordering.detail.historyCreated',
  'ordering.detail.actor.enterprise',
  'ordering.detail.actor.operator',
  'ordering.detail.actor.system',
  'field.clearanceAccount',
] as const satisfies readonly MessageKey[];

export type OrderFactsMessages = Record<(typeof orderFactsMessageKeys)[number], string>;

export const orderDetailMessageKeys = [
  ...orderFactsMessageKeys,
  'common.loading',
  'ordering.retry',
  'ordering.detail.missing',
  'ordering.detail.loadFailed',
  'ordering.detail.actions',
  'ordering.detail.noActions',
  'ordering.detail.back',
  'ordering.detail.cancel',
  'ordering.detail.cancelTitle',
  'ordering.detail.cancelBody',
  'ordering.detail.cancelConfirm',
  'ordering.detail.cancelled',
  'ordering.detail.delete',
  'ordering.detail.deleteTitle',
  'ordering.detail.deleteBody',
  'ordering.detail.deleteConfirm',
  'ordering.detail.deleted',
  'ordering.detail.keep',
] as const satisfies readonly MessageKey[];

export type OrderDetailMessages = Record<(typeof orderDetailMessageKeys)[number], string>;
