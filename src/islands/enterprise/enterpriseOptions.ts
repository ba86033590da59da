/**
 * Build-time only (imported by .astro pages): the lists the enterprise form chooses from, taken
 * from the content the server checks against (regions, GB/T 4754 industries, the voltageLevel
 * dictionary), so the page needs no call to fill its lists.
 */
import { loadContentOnce } from '../../content/load.ts';
import { getDictionary, listIndustries, listRegions } from '../../content/query.ts';
import type { EnterpriseOptions } from './EnterpriseForm.tsx';

export function enterpriseOptions(): EnterpriseOptions {
  const content = loadContentOnce();
  return {
    areas: listRegions(content).map((region) => ({ value: region.areaCode, label: region.name })),
    industries: listIndustries(content).map((industry) => ({ value: industry.code, label: industry.name })),
    voltageLevels: (getDictionary(content, 'voltageLevel') ?? []).map((entry) => ({
      value: entry.code,
      label: entry.name,
    })),
  };
}
