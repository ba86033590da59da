/**
 * The footer's QR code: the site's address (PUBLIC_ORIGIN + siteSettings.qrPath) drawn at build
 * time by `qrcode` as a small SVG file, so a visitor on a computer can open the site on a phone.
 */
import type { APIRoute } from 'astro';
import QRCode from 'qrcode';
import { siteSettings } from '../lib/site/siteSettings.ts';

export const GET: APIRoute = async ({ site }) => {
  const origin = site ?? new URL('http://localhost:4321');
  const svg = await QRCode.toString(new URL(siteSettings.qrPath, origin).href, {
    type: 'svg',
    margin: 1,
    errorCorrectionLevel: 'M',
    color: { dark: '#1e2a3bff', light: '#ffffffff' },
  });
  return new Response(svg, { headers: { 'Content-Type': 'image/svg+xml' } });
};
