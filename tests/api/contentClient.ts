/** Calls of the content API for tests: GET with a query, the envelope parsed. */
import type { TestApp } from './harness.ts';

export interface Envelope<T = unknown> {
  code: number;
  message: string;
  data: T;
}

export async function getJson<T = unknown>(
  t: TestApp,
  path: string,
  query: Record<string, string> = {},
  locale = 'zh-CN',
): Promise<Envelope<T>> {
  const search = new URLSearchParams(query).toString();
  const res = await t.app.request(search ? `${path}?${search}` : path, { headers: { 'Accept-Language': locale } });
  // Business outcomes, errors included, travel with HTTP 200 (DOMAIN.md, API conventions).
  if (res.status !== 200) throw new Error(`${path}: HTTP ${res.status}`);
  return (await res.json()) as Envelope<T>;
}
