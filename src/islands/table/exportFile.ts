/** The export button's messages and how it says how much has arrived (ExportButton.tsx). */
import type { MessageKey } from '../../lib/i18n/index.ts';
import type { Locale } from '../../lib/i18n/locales.ts';

export const exportMessageKeys = [
  'partner.export',
  'partner.export.busy',
  'partner.export.progress',
  'partner.export.cancel',
  'partner.export.done',
  'partner.export.failed',
  'partner.export.failedPlain',
] as const satisfies readonly MessageKey[];

export type ExportMessages = Record<(typeof exportMessageKeys)[number], string>;

/** A download's size so far: "1.2 MB", "350 kB", in the locale's digits (decimal units, as Intl names them). */
export function formatBytes(bytes: number, locale: Locale): string {
  const [value, unit] = bytes >= 1_000_000 ? [bytes / 1_000_000, 'megabyte'] : [bytes / 1000, 'kilobyte'];
  return new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'short', maximumFractionDigits: 1 }).format(
    value,
  );
}
