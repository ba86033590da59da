/**
 * The visitor's region (spec section 1): `areaCode` and `areaName` in localStorage under exactly
 * those keys, Guangdong (440000) by default. Islands in other tabs follow a change through the
 * storage event (@nanostores/persistent listens while a store has subscribers).
 *
 * `setArea` only records the choice; checking it with the server (setProvince) and loading the
 * area's settings, business data and banners is the area island's flow.
 */
import { persistentAtom } from '@nanostores/persistent';

export const DEFAULT_AREA_CODE = '440000';
export const DEFAULT_AREA_NAME = '广东省';

/** Six-digit GB/T 2260 province code, as a string (as stored). */
export const areaCode = persistentAtom<string>('areaCode', DEFAULT_AREA_CODE);
export const areaName = persistentAtom<string>('areaName', DEFAULT_AREA_NAME);

export function setArea(code: string | number, name: string): void {
  areaCode.set(String(code));
  areaName.set(name);
}
