/**
 * The spec's layout settings (§3): light navigation theme, top layout, fixed content width, header
 * and side bar not fixed, no weak-colour mode, offline mode (`pwa`) off. `pwa` is switched on for
 * a build with the environment variable `PWA=true` (read at build time: the pages either register
 * the service worker or unregister any old one).
 */
export interface LayoutSettings {
  navTheme: 'light';
  layout: 'top';
  contentWidth: 'Fixed';
  fixedHeader: boolean;
  fixSiderbar: boolean;
  colorWeak: boolean;
  pwa: boolean;
  iconfontUrl: string;
}

/** `PWA=true|1|on` turns offline mode on; anything else (or nothing) leaves it off. */
export function pwaEnabled(value: string | undefined): boolean {
  return value !== undefined && ['true', '1', 'on', 'yes'].includes(value.trim().toLowerCase());
}

export const layoutSettings: LayoutSettings = {
  navTheme: 'light',
  layout: 'top',
  contentWidth: 'Fixed',
  fixedHeader: false,
  fixSiderbar: false,
  colorWeak: false,
  pwa: pwaEnabled(process.env['PWA']),
  iconfontUrl: '',
};
