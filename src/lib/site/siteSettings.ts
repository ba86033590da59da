/**
 * Settings of the site as a whole, shown in every page's footer: the operator's filing numbers
 * (ICP备案号 from the MIIT, 公安备案号 from the public-security filing system, both required on
 * a site served in mainland China) and the page the footer's QR code leads to. The hotline is the
 * region's (src/content/regions/<areaCode>.yaml), not here.
 *
 * DEMO DATA: the filing numbers below are realistic in form but belong to no real filing; a
 * deployment replaces them with its own before going live (docs/visual.md).
 */
export const siteSettings = {
  icpFiling: { number: '粤ICP备2024058731号-1', href: 'https://beian.miit.gov.cn/' },
  publicSecurityFiling: {
    number: '粤公网安备44010602012345号',
    href: 'https://beian.mps.gov.cn/#/query/webSearch?code=44010602012345',
  },
  /** Where the QR code leads, relative to the site's origin (PUBLIC_ORIGIN). */
  qrPath: '/',
} as const;
