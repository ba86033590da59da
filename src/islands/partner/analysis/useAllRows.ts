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
const noRows: readonly never[] = [];

export function useAllRows<Row>(
  url: string,
  fields: RequestData | undefined,
  select: readonly string[],
  ready: boolean,
) {
  const key = fields === undefined ? '' : JSON.stringify({ fields, select });
  // The last answer and the request it answers: loading is derived (an answer for an older key
  // keeps its rows on screen, greyed, until the new one arrives), never set before a call.
  const [answered, setAnswered] = useState<{ key: string; load: ChartLoad; rows: Row[] }>({
    key: '',
    load: 'loading',
    rows: [],
  });

  useEffect(() => {
    if (!ready || key === '') return;
    const { fields: body, select: columns } = JSON.parse(key) as { fields: RequestData; select: string[] };
    let current = true;
    void (async () => {
      const all: Row[] = [];
      for (let page = 1; page <= MAX_PAGES; page += 1) {
        const antTable = JSON.stringify({ select: columns, pager: { current: page, pageSize: PAGE_SIZE } });
        const outcome = await callQuiet<Answer<Row>>('POST', url, { ...body, antTable });
        if (!current) return;
        if (!outcome?.ok) {
          setAnswered((last) => ({ key, load: 'failed', rows: last.rows }));
          return;
        }
        all.push(...outcome.data.result);
        if (all.length >= outcome.data.totalCount || outcome.data.result.length < PAGE_SIZE) break;
      }
      setAnswered({ key, load: 'ready', rows: all });
    })();
    return () => {
      current = false;
    };
  }, [url, key, ready]);

  // Nothing to ask: no rows (one array, so that what is drawn from it is not made anew each render).
  if (key === '') return { load: answered.load, rows: noRows as readonly Row[] as Row[] };
  return { load: answered.key === key ? answered.load : ('loading' as ChartLoad), rows: answered.rows };
}
