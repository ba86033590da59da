/**
 * Every API module and the base it is mounted under, mirroring the spec's path groups (§7).
 * A new module: write routes/<module>.ts exporting `create…Routes(deps)`, add one line here.
 */
import type { Hono } from 'hono';
import type { AppEnv, RouteDeps } from '../types.ts';
import { createAreaRoutes } from './area.ts';
import { createAreaSettingsRoutes } from './areaSettings.ts';
import { createBannerRoutes } from './banner.ts';
import { createBusinessRoutes } from './business.ts';
import { createHelpRoutes } from './help.ts';
import { createHnyDataRoutes } from './hnyData.ts';
import { createIndustryRoutes } from './industry.ts';
import { createRequirementRoutes } from './requirement.ts';
import { createSetRoutes } from './set.ts';
import { createHealthRoutes } from './health.ts';
import { createNoticeRoutes } from './notices.ts';
import { createOpsRoutes } from './ops.ts';
import { createOrderRoutes } from './order.ts';
import { createSiteAdminRoutes } from './siteAdmin.ts';
import { createStudioRoutes } from './studio.ts';
import { createStudioLibraryRoutes } from './studioLibrary.ts';
import { createStudioScheduleRoutes } from './studioSchedules.ts';
import { createSystemRoutes } from './system.ts';
import { createUserRoutes } from './user.ts';
import { createBankSandboxRoutes } from './bankSandbox.ts';
import { createEnterpriseAuthFileRoutes } from './enterpriseAuthFile.ts';
import { createEnterpriseByOrgRoutes } from './enterpriseByOrg.ts';
import { createEnterpriseUserRoutes } from './enterpriseUser.ts';
import { createIcbcAuthRoutes } from './icbcAuth.ts';
import { createOpsCertificationRoutes } from './opsCertification.ts';
import { createOpsSettlementRoutes } from './opsSettlement.ts';
import { createOpsStaffRoutes } from './opsStaff.ts';
import { createPartnerAnalysisRoutes } from './partnerAnalysis.ts';
import { createPartnerAccountRoutes } from './partnerAccount.ts';
import { createPartnerTreeRoutes } from './partnerTree.ts';
import { createSettlementRoutes } from './settlement.ts';
import { createThirdpartyRoutes } from './thirdparty.ts';

export interface ApiModule {
  base: string;
  create: (deps: RouteDeps) => Hono<AppEnv>;
}

export const apiModules: readonly ApiModule[] = [
  { base: '/api/health', create: createHealthRoutes },
  { base: '/api/front/system', create: createSystemRoutes },
  { base: '/api/front/hgdsys/hgdClient', create: createAreaRoutes },
  { base: '/api/front/user', create: createUserRoutes },
  { base: '/api/notices', create: createNoticeRoutes },
  { base: '/api/admin/site', create: createSiteAdminRoutes },
  // The editors' studio (docs/editing-content.md): content in the database, previews, publications.
  { base: '/api/studio', create: createStudioRoutes },
  // The item editor's choices and the media library.
  { base: '/api/studio', create: createStudioLibraryRoutes },
  { base: '/api/studio', create: createStudioScheduleRoutes },
  // Content calls (docs/content-api.md): answered from the content store.
  { base: '/api/front/hgdsys/hgdClient', create: createAreaSettingsRoutes },
  { base: '/api/front/system', create: createIndustryRoutes },
  { base: '/api/front/hgdbiz/banner/client', create: createBannerRoutes },
  { base: '/api/front/business', create: createBusinessRoutes },
  { base: '/api/front/hgdsel/set', create: createSetRoutes },
  { base: '/api/front/external/hnyData', create: createHnyDataRoutes },
  { base: '/api/front/help/document/client', create: createHelpRoutes },
  { base: '/api/front/requirement', create: createRequirementRoutes },
  // Orders (docs/orders.md): the enterprise's, and the operator's queue and audit trail.
  { base: '/api/front/hgdsel/order', create: createOrderRoutes },
  { base: '/api/ops', create: createOpsRoutes },
  // Enterprises and their certification (docs/enterprises.md).
  { base: '/api/front/hgdarc/enterpriseuser', create: createEnterpriseUserRoutes },
  { base: '/api/front/hgdarc/enterpriseauthfile', create: createEnterpriseAuthFileRoutes },
  { base: '/api/front/hgdsel/set', create: createEnterpriseByOrgRoutes },
  { base: '/api/front/thirdparty', create: createThirdpartyRoutes },
  { base: '/api/front/user', create: createIcbcAuthRoutes },
  { base: '/api/sandbox/icbc', create: createBankSandboxRoutes },
  { base: '/api/ops/certification', create: createOpsCertificationRoutes },
  // The partner area (docs/partner.md): institutions, staff relations, settlements.
  { base: '/api/front/hgdarc/partner', create: createPartnerTreeRoutes },
  { base: '/api/front/hgdarc/partneraccount', create: createPartnerAccountRoutes },
  // Partner analysis (docs/partner.md, Analysis): statistics, comparison, trend and their downloads.
  { base: '/api/front/hgdarc/partner', create: createPartnerAnalysisRoutes },
  { base: '/api/front/hgdsel/settlementbuyresult', create: createSettlementRoutes },
  { base: '/api/ops/settlement', create: createOpsSettlementRoutes },
  // Staff accounts (docs/accounts.md): roles, status, second factors; shared with `npm run user`.
  { base: '/api/ops/staff', create: createOpsStaffRoutes },
];
