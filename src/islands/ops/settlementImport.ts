/** The operator's settlement import (/ops/settlements): its messages and the file rules checked before sending. */
import type { MessageKey } from '../../lib/i18n/index.ts';
import { countKeys } from '../../lib/i18n/plural.ts';
import { settlementImportMaxBytes } from '../../lib/schemas/partner.ts';

export const settlementImportMessageKeys = [
  'settlement.import.intro',
  'settlement.import.file',
  'settlement.import.fileHint',
  'settlement.import.submit',
  'settlement.import.busy',
  'settlement.import.progress',
  'settlement.import.processing',
  'settlement.import.noFile',
  'settlement.import.badType',
  'settlement.import.tooLarge',
  'settlement.import.success',
  'settlement.import.months',
  ...countKeys('settlement.import.rejected'),
  'settlement.import.rejectedMore',
  'settlement.import.col.row',
  'settlement.import.col.column',
  'settlement.import.col.message',
  'settlement.import.failed',
  'settlement.import.templates',
  'settlement.import.templateCsv',
  'settlement.import.templateXlsx',
] as const satisfies readonly MessageKey[];

export type SettlementImportMessages = Record<(typeof settlementImportMessageKeys)[number], string>;

export const IMPORT_URL = '/api/ops/settlement/import';
export const TEMPLATE_URL = '/api/ops/settlement/template';

/** The server's limit (docs/partner.md); checked here too so a large file is not sent for nothing. */
export const maxImportBytes = settlementImportMaxBytes;

/** Rejections listed on the page; the rest are counted (a 20 000-row file may reject every row). */
export const shownRejections = 500;

export type FileProblem = 'noFile' | 'badType' | 'tooLarge';

/** What is wrong with the chosen file before it is sent, or undefined. */
export function fileProblem(file: File | null | undefined): FileProblem | undefined {
  if (!file || file.size === 0) return 'noFile';
  if (!/\.(csv|xlsx)$/i.test(file.name)) return 'badType';
  if (file.size > maxImportBytes) return 'tooLarge';
  return undefined;
}
