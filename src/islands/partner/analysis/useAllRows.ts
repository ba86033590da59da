import { useEffect, useState } from 'react';
import type { RequestData } from '../../../lib/api/encode.ts';
import { callQuiet } from '../../quietCall.ts';
import type { ChartLoad } from './AnalysisChart.tsx';

/** Pages of the largest size the tables allow; a chart reads at most this many of them. */
const PAGE_SIZE = 100;
const MAX_PAGES = 10;

interface Answer<Row> {
  result: Row[];
  totalCount: number;
}

/**
 * Every row a chart needs, independent of the table's page: the comparison draws all classes of
 * all chosen institutions and the trend every period of its span, whichever page and order the
 * table beside it shows. Reads pages of 100 (only the columns drawn) until the count is reached,
 * at most 1 000 rows. `fields` undefined: nothing to ask (e.g. fewer than two institutions).
 */
export function useAllRows<Row>(url: string, fields: RequestData | undefined, select: readonly string[], ready: boolean) {
  const [load, setLoad] = useState<ChartLoad>('loading');
  const [rows, setRows] = useState<Row[]>([]);
  const key = fields === undefined ? '' : JSON.stringify({ fields, select });

  useEffect(() => {
    if (!ready || key === '') {
      setRows([]);
      return;
    }
    const { fields: body, select: columns } = JSON.parse(key) as { fields: RequestData; select: string[] };
    let current = true;
    setLoad('loading');
    void (async () => {
      const all: Row[] = [];
      for (let page = 1; page <= MAX_PAGES; page += 1) {
        const antTable = JSON.stringify({ select: columns, pager: { current: page, pageSize: PAGE_SIZE } });
        const outcome = await callQuiet<Answer<Row>>('POST', url, { ...body, antTable });
        if (!current) return;
        if (!outcome?.ok) {
          setLoad('failed');
          return;
        }
        all.push(...outcome.data.result);
        if (all.length >= outcome.data.totalCount || outcome.data.result.length < PAGE_SIZE) break;
      }
      setRows(all);
      setLoad('ready');
    })();
    return () => {
      current = false;
    };
  }, [url, key, ready]);

  return { load, rows };
}
