/** The export button's messages and how it says how much has arrived (ExportButton.tsx). */
import type { MessageKey } from '../../lib/i18n/index.ts';
import type { Locale } from '../../lib/i18n/locales.ts';

export const exportMessageKeys = [
  'settlement.export',
  'settlement.export.busy',
  'settlement.export.progress',
  'settlement.export.cancel',
  'settlement.export.done',
  'settlement.export.failed',
] as const satisfies readonly MessageKey[];

export type ExportMessages = Record<(typeof exportMessageKeys)[number], string>;

/** Bytes received as the page's language writes a size: 512 KB, 1.2 MB. */
export function formatBytes(bytes: number, locale: Locale): string {
  const megabytes = bytes >= 1024 * 1024;
  return new Intl.NumberFormat(locale, {
    style: 'unit',
    unit: megabytes ? 'megabyte' : 'kilobyte',
    unitDisplay: 'short',
    maximumFractionDigits: 1,
  }).format(megabytes ? bytes / (1024 * 1024) : Math.max(bytes / 1024, 0));
}
