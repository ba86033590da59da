/**
 * The area selector's logic, apart from its React shell: which messages it needs, and the
 * spec's flow for a choice — check it with the server (setProvince rejects an unknown or
 * disabled code), store `areaCode`/`areaName`, then go to the same page of that region.
 */
import type { MessageKey } from '../../lib/i18n/index.ts';
import { post } from '../../lib/api/index.ts';
import type { Province } from '../../lib/schemas/system.ts';
import { setArea } from '../../stores/area.ts';

export const areaSelectMessageKeys = [
  'site.area.button',
  'site.area.listLabel',
  'site.area.switching',
  'site.area.failed',
] as const satisfies readonly MessageKey[];

export type AreaSelectMessages = Record<(typeof areaSelectMessageKeys)[number], string>;

export type { Province } from '../../lib/schemas/system.ts';

/** A province as the selector lists it: its short name (广西) fits a phone's header. */
export interface ProvinceOption extends Province {
  shortName: string;
}

export const setProvinceUrl = '/api/front/hgdsys/hgdClient/setProvince';

/**
 * Checks the choice with the server and stores it. Resolves the confirmed area, or undefined
 * when the server refused it (the request client has already shown why).
 */
export async function chooseArea(areaCode: string): Promise<Province | undefined> {
  const confirmed = await post<Province>(setProvinceUrl, { areaCode });
  if (!confirmed?.areaCode) return undefined;
  setArea(confirmed.areaCode, confirmed.areaName);
  return { areaCode: String(confirmed.areaCode), areaName: confirmed.areaName };
}

/** Where a confirmed choice leads: the page's counterpart in that region, else the page itself. */
export function destinationFor(
  areaCode: string,
  regionLinks: Readonly<Record<string, string>> | undefined,
  here: Location,
): string {
  const target = regionLinks?.[areaCode];
  return target ? target + here.search + here.hash : here.pathname + here.search + here.hash;
}
