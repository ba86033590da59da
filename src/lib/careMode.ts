/**
 * 关怀模式 (care mode, as 网上国网's 长辈版 and the MIIT's 《互联网网站适老化通用设计规范》 ask of
 * public-service sites): larger text and targets, stronger contrast, no banner moving by itself,
 * a home reduced to its main services. One switch in the header; the choice is stored like the
 * language (this browser's localStorage) and applied before the first paint by a line in every
 * page's head, so a static page never flashes at its normal size. The styles are in
 * src/styles/theme.css (`[data-care]`), the lines in src/components/inlineScripts.ts.
 */

/** The localStorage entry that holds the choice ('1': on). */
export const careStorageKey = 'care';

/** The attribute on <html> while care mode is on; `data-care-hidden` marks what it leaves out. */
export const careAttribute = 'data-care';

/** The event the switch sends on `document` when the mode changes (the banner stops or may move again). */
export const careChangeEvent = 'hgd:care';
