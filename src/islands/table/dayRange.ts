import { chinaDayEnd, chinaDayStart } from '../../lib/chinaTime.ts';
import type { TableQueryState } from '../../lib/tableRequest.ts';

/**
 * Date filters hold whole days (the date inputs, and so the address); the server compares
 * instants. A day becomes its first and last instant in China time, so "until 22 Nov" includes
 * everything of 22 Nov wherever the reader's browser is.
 */
export function daysAsInstants(field: string): (state: TableQueryState) => TableQueryState {
  return (state) => {
    const range = state.ranges[field];
    if (!range) return state;
    return {
      ...state,
      ranges: {
        ...state.ranges,
        [field]: {
          ...(range.start ? { start: chinaDayStart(range.start) } : {}),
          ...(range.end ? { end: chinaDayEnd(range.end) } : {}),
        },
      },
    };
  };
}
