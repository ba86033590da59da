/** The partner calls the partner pages make (spec §7; docs/partner.md), by base path. */
export const PARTNER_API = '/api/front/hgdarc/partner';
export const PARTNER_ACCOUNT_API = '/api/front/hgdarc/partneraccount';
export const SETTLEMENT_API = '/api/front/hgdsel/settlementbuyresult';
