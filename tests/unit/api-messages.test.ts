// @vitest-environment happy-dom
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, test } from 'vitest';
import zhCN from '../../src/lib/i18n/messages/core/zh-CN.json' with { type: 'json' };
import {
  fallbackMessages,
  format,
  loadMessages,
  loadedMessages,
  pageLocale,
  translator,
} from '../../src/lib/api/messages.ts';

beforeEach(() => {
  document.documentElement.lang = 'zh-CN';
});

describe('pageLocale', () => {
  test('reads <html lang>, maps close tags, falls back to zh-CN', () => {
    document.documentElement.lang = 'en-US';
    expect(pageLocale()).toBe('en-US');
    document.documentElement.lang = 'pt';
    expect(pageLocale()).toBe('pt-BR');
    document.documentElement.lang = 'fr-FR';
    expect(pageLocale()).toBe('zh-CN');
    document.documentElement.lang = '';
    expect(pageLocale()).toBe('zh-CN');
  });
});

describe('format', () => {
  test('fills placeholders and leaves unknown ones', () => {
    expect(format('请求错误 {status}: {url}', { status: 404, url: '/api/x' })).toBe('请求错误 404: /api/x');
    expect(format('{a} {b}', { a: 1 })).toBe('1 {b}');
    expect(format('{n}', { n: 0 })).toBe('0');
  });
});

describe('dictionaries', () => {
  test('the fallback texts are exactly the zh-CN dictionary entries', () => {
    for (const [key, text] of Object.entries(fallbackMessages)) {
      expect(zhCN[key as keyof typeof zhCN], key).toBe(text);
    }
  });

  test('a locale is loaded on demand, once', async () => {
    expect(loadedMessages('id-ID')).toBeUndefined();
    const first = await loadMessages('id-ID');
    expect(first?.['request.noResponse']).toBeTruthy();
    expect(loadedMessages('id-ID')).toBe(first);
    expect(await loadMessages('id-ID')).toBe(first);
  });

  test('translator uses the page locale and returns undefined for a missing status key', async () => {
    document.documentElement.lang = 'en-US';
    const t = await translator();
    expect(t('request.errorTitle', { status: 500, url: '/api/y' })).toBe('Request error 500: /api/y');
    expect(t('http.502')).toBe('Bad gateway.');
    expect(t('http.418')).toBeUndefined();
  });

  test('no request-client module imports a dictionary or i18next up front', () => {
    const dir = join(process.cwd(), 'src/lib/api');
    const names = readdirSync(dir);
    expect(names).toContain('client.ts');
    for (const name of names) {
      const source = readFileSync(join(dir, name), 'utf8');
      const staticImports = [...source.matchAll(/^import\s+(?!type\b)[^;]*?from\s+'([^']+)'/gms)].map((m) => m[1]);
      for (const spec of staticImports) {
        expect(spec, `${name} imports ${spec}`).not.toMatch(/\.json$|i18n\/index\.ts$|^i18next/);
      }
    }
  });
});
