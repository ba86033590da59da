/** A scheme parameter described in words: price, lengths offered, consumption range. */
import { format } from '../../lib/api/messages.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import type { OrderSchemeParamSnapshot } from '../../lib/schemas/order.ts';
import { formatNumber } from './orderView.ts';
import type { WizardMessages } from './orderWizard.ts';

export function schemePrice(scheme: OrderSchemeParamSnapshot, locale: Locale, messages: WizardMessages): string {
  if (scheme.priceType === 'energyPrice' && scheme.energyPrice !== undefined) {
    return `${messages['ordering.detail.priceEnergy']} ${format(messages['ordering.detail.priceEnergyValue'], { value: formatNumber(scheme.energyPrice, locale, 4) })}`;
  }
  if (scheme.shareRatio !== undefined) {
    return `${messages['ordering.detail.priceShare']} ${format(messages['ordering.detail.priceShareValue'], { value: formatNumber(scheme.shareRatio, locale, 2) })}`;
  }
  return '';
}

export function schemeConsumption(scheme: OrderSchemeParamSnapshot, locale: Locale, messages: WizardMessages): string {
  const min = formatNumber(scheme.consumptionMin, locale);
  return scheme.consumptionMax === undefined
    ? format(messages['ordering.scheme.consumptionFrom'], { min })
    : format(messages['ordering.scheme.consumptionRange'], { min, max: formatNumber(scheme.consumptionMax, locale) });
}

export function schemeMonths(scheme: OrderSchemeParamSnapshot, messages: WizardMessages): string {
  return format(messages['ordering.scheme.months'], { months: scheme.contractMonths.join(' / ') });
}
