/**
 * Status badges: every status the portal shows has a tone, and every tone's text reads on its
 * background — the WCAG AA 4.5:1 — computed from the theme's own oklch colours (theme.css), so a
 * change of a theme colour that makes a badge unreadable fails here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { orderStatuses } from '../../src/lib/orderStatus.ts';
import { badgeToneClass, badgeTones, statusBadgeClass, statusTone } from '../../src/lib/statusBadges.ts';

const theme = readFileSync(new URL('../../src/styles/theme.css', import.meta.url), 'utf8');

function themeColour(name: string): [number, number, number] {
  const match = new RegExp(`--color-${name}:\\s*oklch\\(([\\d.]+)%\\s+([\\d.]+)\\s+([\\d.]+)\\)`).exec(theme);
  if (!match) throw new Error(`theme.css has no --color-${name}`);
  return [Number(match[1]) / 100, Number(match[2]), Number(match[3])];
}

/** Relative luminance (WCAG) of an oklch colour, through OKLab and linear sRGB. */
function luminance([l, c, h]: [number, number, number]): number {
  const a = c * Math.cos((h * Math.PI) / 180);
  const b = c * Math.sin((h * Math.PI) / 180);
  const lms = [
    l + 0.3963377774 * a + 0.2158037573 * b,
    l - 0.1055613458 * a - 0.0638541728 * b,
    l - 0.0894841775 * a - 1.291485548 * b,
  ].map((v) => v ** 3) as [number, number, number];
  const [x, y, z] = lms;
  const clamp = (v: number) => Math.min(1, Math.max(0, v));
  const red = clamp(4.0767416621 * x - 3.3077115913 * y + 0.2309699292 * z);
  const green = clamp(-1.2684380046 * x + 2.6097574011 * y - 0.3413193965 * z);
  const blue = clamp(-0.0041960863 * x - 0.7034186147 * y + 1.707614701 * z);
  return 0.2126 * red + 0.7152 * green + 0.0722 * blue;
}

function contrast(one: string, other: string): number {
  const [light, dark] = [luminance(themeColour(one)), luminance(themeColour(other))].sort((p, q) => q - p) as [
    number,
    number,
  ];
  return (light + 0.05) / (dark + 0.05);
}

/**
 * A tone's background and text, as daisyUI's badge draws them (the outline badge: the page's
 * text colour, with its border, on the page's background).
 */
function badgeColours(badgeClass: string): [string, string] {
  if (badgeClass === 'badge-outline') return ['base-100', 'base-content'];
  const colour = badgeClass.replace('badge-', '');
  return [colour, `${colour}-content`];
}

describe('status badges', () => {
  it.each(badgeTones)('the %s badge has text at 4.5:1 or more on its background', (tone) => {
    const [background, text] = badgeColours(badgeToneClass[tone]);
    expect(contrast(background, text)).toBeGreaterThanOrEqual(4.5);
  });

  it('knows the contrast of plain black on white (21:1) and of the info blue it avoids', () => {
    expect(contrast('base-100', 'base-content')).toBeGreaterThan(12);
    expect(contrast('info', 'info-content')).toBeLessThan(4.5);
  });

  it('gives every order and certification status a tone, grey for a code it does not know', () => {
    expect(orderStatuses.map((status) => statusTone('order', status))).toEqual([
      'waiting',
      'moving',
      'positive',
      'finished',
      'stopped',
      'refused',
    ]);
    expect([0, 1, 2, 3].map((status) => statusTone('auth', status))).toEqual([
      'stopped',
      'moving',
      'positive',
      'refused',
    ]);
    expect(statusTone('order', 55)).toBe('stopped');
    // The studio's states speak the same tones: changed waits, new moves, removal is refused.
    expect((['published', 'changed', 'new', 'deleted'] as const).map((state) => statusTone('item', state))).toEqual([
      'positive',
      'waiting',
      'moving',
      'refused',
    ]);
    expect(statusBadgeClass('translation', 'none', 'sm')).toBe('badge badge-sm whitespace-nowrap badge-outline');
    expect(statusBadgeClass('settlement', 2, 'sm')).toBe('badge badge-sm whitespace-nowrap badge-success');
  });
});
