/**
 * The footer's QR code: the site's address (PUBLIC_ORIGIN + siteSettings.qrPath) drawn at build
 * time as a small SVG file (src/lib/qrSvg.ts), so a visitor on a computer can open the site on a phone.
 */
import type { APIRoute } from 'astro';
import { qrSvg } from '../lib/qrSvg.ts';
import { siteSettings } from '../lib/site/siteSettings.ts';

export const GET: APIRoute = ({ site }) => {
  const origin = site ?? new URL('http://localhost:4321');
  const svg = qrSvg(new URL(siteSettings.qrPath, origin).href, { margin: 1, dark: '#1e2a3b', light: '#ffffff' });
  return new Response(svg, { headers: { 'Content-Type': 'image/svg+xml' } });
};
