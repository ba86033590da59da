/** Inputs of the system, area and user calls (spec §7, "System, user, area, third party"). */
import { z } from 'zod/mini';
import { areaCodeSchema, phoneSchema } from './fields.ts';

/** GET /api/front/system/checkphonenum */
export const checkPhoneQuery = z.object({ phone: phoneSchema });
export type CheckPhoneQuery = z.infer<typeof checkPhoneQuery>;

/** POST /api/front/hgdsys/hgdClient/setProvince */
export const setProvinceBody = z.object({ areaCode: areaCodeSchema });
export type SetProvinceBody = z.infer<typeof setProvinceBody>;

/** The answer of setProvince: the chosen region, which the browser then stores (spec §1). */
export interface Province {
  areaCode: string;
  areaName: string;
}

/** One region of getProvinceList. */
export interface ProvinceView extends Province {
  shortName: string;
  hotline: string;
}
