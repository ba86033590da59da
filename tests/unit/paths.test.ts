import { describe, expect, it } from 'vitest';
import { localePath, splitLocale, switchLocalePath } from '../../src/lib/paths.ts';

describe('locale paths', () => {
  it('leaves zh-CN unprefixed and prefixes the others exactly as spelled', () => {
    expect(localePath('zh-CN', '/person/overview')).toBe('/person/overview');
    expect(localePath('en-US', '/person/overview')).toBe('/en-US/person/overview');
    expect(localePath('pt-BR', '/')).toBe('/pt-BR');
    expect(localePath('id-ID', 'business')).toBe('/id-ID/business');
  });

  it('splits a pathname into locale and route path', () => {
    expect(splitLocale('/en-US/person/overview/')).toEqual({ locale: 'en-US', path: '/person/overview' });
    expect(splitLocale('/zh-TW')).toEqual({ locale: 'zh-TW', path: '/' });
    expect(splitLocale('/welcome/home')).toEqual({ locale: 'zh-CN', path: '/welcome/home' });
    // the default locale is never a prefix, and lower-cased prefixes are not locales
    expect(splitLocale('/zh-CN/welcome')).toEqual({ locale: 'zh-CN', path: '/zh-CN/welcome' });
    expect(splitLocale('/en-us/welcome')).toEqual({ locale: 'zh-CN', path: '/en-us/welcome' });
  });

  it('switches the same page to another locale', () => {
    expect(switchLocalePath('/en-US/assistance', 'zh-CN')).toBe('/assistance');
    expect(switchLocalePath('/assistance', 'zh-TW')).toBe('/zh-TW/assistance');
    expect(switchLocalePath('/', 'en-US')).toBe('/en-US');
  });
});
