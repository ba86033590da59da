/**
 * What the ordering steps load: who orders (gate and profile), the chosen package on sale and
 * its plan parameters that fit the enterprise (content calls, docs/content-api.md).
 */
import { ApiCode } from '../../lib/apiCodes.ts';
import type { BoundEnterprise, UserInfoData } from '../../lib/schemas/account.ts';
import type { EnterpriseData } from '../../lib/schemas/enterprise.ts';
import type { OrderSchemeParamSnapshot } from '../../lib/schemas/order.ts';
import { USER_INFO_URL } from '../person/personData.ts';
import { callQuiet } from '../quietCall.ts';

const SET_API = '/api/front/hgdsel/set';
const ENTERPRISE_URL = '/api/front/hgdarc/enterpriseuser/get';

/** getSellingSetById (docs/content-api.md, SellingSetView). */
export interface SellingSetInfo {
  sellingSetId: string;
  setId: string;
  setName: string;
  productId: string;
  areaCode: string;
  validFrom: string;
  validTo: string;
  orderable: boolean;
  orgCom: { orgComId: string; name: string; shortName: string };
}

export type Orderer =
  | { kind: 'failed'; message: string }
  | { kind: 'noEnterprise' }
  | { kind: 'notCertified'; enterprise: BoundEnterprise }
  | { kind: 'ready'; enterprise: BoundEnterprise; profile: Profile };

/** The enterprise's data the set filter matches against (getSetSchemeParamBySetFilter). */
export interface Profile {
  voltageLevel?: string;
  annualConsumption?: number;
  industry?: string;
}

const CERTIFIED = 2;

/** Who is ordering: only a certified enterprise may (DOMAIN.md); its profile narrows the plans. */
export async function loadOrderer(): Promise<Orderer | undefined> {
  const info = await callQuiet<UserInfoData>('GET', USER_INFO_URL);
  if (!info) return undefined;
  if (!info.ok) return { kind: 'failed', message: info.message };
  const enterprise = info.data.enterprise;
  if (!enterprise) return { kind: 'noEnterprise' };
  if (enterprise.authStatus !== CERTIFIED) return { kind: 'notCertified', enterprise };
  // The full record is only needed for the profile; without it every plan is listed and the
  // server still checks the consumption when the order is placed.
  const record = await callQuiet<EnterpriseData>('GET', ENTERPRISE_URL);
  const data = record?.ok ? record.data : undefined;
  const profile: Profile = {
    ...(data?.voltageLevel ? { voltageLevel: data.voltageLevel } : {}),
    ...(data?.annualConsumption !== null && data?.annualConsumption !== undefined
      ? { annualConsumption: data.annualConsumption }
      : {}),
    ...(data?.industry ? { industry: data.industry } : {}),
  };
  return { kind: 'ready', enterprise, profile };
}

export type Choice =
  { kind: 'failed'; message: string } | { kind: 'ready'; selling: SellingSetInfo; schemes: OrderSchemeParamSnapshot[] };

/** The chosen package on sale and the plan parameters offered to this enterprise. */
export async function loadChoice(sellingSetId: string, profile: Profile): Promise<Choice | undefined> {
  const selling = await callQuiet<SellingSetInfo>('GET', `${SET_API}/getSellingSetById`, { sellingSetId });
  if (!selling) return undefined;
  if (!selling.ok) return { kind: 'failed', message: selling.message };
  if (!selling.data.orderable) return { kind: 'ready', selling: selling.data, schemes: [] };
  const url = `${SET_API}/getSetSchemeParamBySetFilter`;
  let schemes = await callQuiet<OrderSchemeParamSnapshot[]>('GET', url, { setId: selling.data.setId, ...profile });
  // A profile value the catalogue does not know (400) must not stop the order: every plan is
  // listed then, and the server still checks the chosen one when the order is placed.
  if (schemes && !schemes.ok && schemes.code === ApiCode.BAD_REQUEST) {
    schemes = await callQuiet<OrderSchemeParamSnapshot[]>('GET', url, { setId: selling.data.setId });
  }
  if (!schemes) return undefined;
  if (!schemes.ok) return { kind: 'failed', message: schemes.message };
  return { kind: 'ready', selling: selling.data, schemes: schemes.data };
}
