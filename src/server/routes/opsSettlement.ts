/**
 * /api/ops/settlement: the operator's settlement import and its template (docs/partner.md, Import
 * format). Operator role only (901 / 403). The import answers code 200 with what was written, or
 * code 400 with every rejected row in `data` (nothing written); a file that cannot be read at all
 * is a 400 at the `file` field.
 */
import { Hono } from 'hono';
import { settlementImportBody, settlementTemplateQuery } from '../../lib/schemas/partner.ts';
import { localeOf, message, ok } from '../envelope.ts';
import { requireRole } from '../middleware/session.ts';
import { clientIp } from '../request.ts';
import { readImportFile, csvTemplate, xlsxTemplate } from '../services/settlementFile.ts';
import { importSettlements } from '../services/settlementImport.ts';
import { describeCall } from '../openapi/describe.ts';
import type { AppEnv, RouteDeps } from '../types.ts';
import { validate } from '../validate.ts';
import { xlsxResponse } from '../xlsx/writer.ts';

export function createOpsSettlementRoutes(deps: RouteDeps): Hono<AppEnv> {
  const { db, config } = deps;
  const routes = new Hono<AppEnv>();
  const operator = requireRole('operator');

  routes.post(
    '/import',
    describeCall({ summary: 'Import settlement rows from a spreadsheet (all or nothing)', body: settlementImportBody }),
    operator,
    async (c) => {
      const { file } = await validate(c, settlementImportBody, 'body');
      const locale = localeOf(c);
      const bytes = new Uint8Array(await file.arrayBuffer());
      const { kind, rows: grid } = await readImportFile(bytes);
      const result = await importSettlements(db, { userId: c.var.user.id, ip: clientIp(c, config), locale }, grid, {
        name: file.name,
        kind,
        bytes: bytes.byteLength,
      });
      return ok(c, result, 'partner.import.done', { rows: result.imported, months: result.months.length });
    },
  );

  /** The template: the header row in the chosen format (xlsx by default). */
  routes.get(
    '/template',
    describeCall({
      summary: 'The settlement import template (xlsx or csv)',
      query: settlementTemplateQuery,
      download: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    }),
    operator,
    async (c) => {
      const { format } = await validate(c, settlementTemplateQuery, 'query');
      const fileName = message(c, 'partner.import.templateFile', { format });
      if (format === 'xlsx') return xlsxResponse(xlsxTemplate(message(c, 'partner.settlement.sheet')), fileName);
      return new Response(csvTemplate(), {
        headers: {
          'Content-Type': 'text/csv; charset=utf-8',
          'Content-Disposition': `attachment; filename="settlement-template.csv"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
          'Cache-Control': 'no-store',
        },
      });
    },
  );

  return routes;
}
