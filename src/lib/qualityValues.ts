/**
 * Parses an HTTP list with quality values (`Accept-Language`, `Accept-Encoding`):
 * `"br;q=0.5, gzip, *;q=0"` → entries best first, ties in header order, q=0 entries kept (they
 * mean "not this one").
 */
export interface QualityEntry {
  token: string;
  q: number;
}

export function parseQualityList(header: string | null | undefined): QualityEntry[] {
  if (!header) return [];
  return header
    .split(',')
    .map((part, index) => {
      const [token = '', ...params] = part.trim().split(';');
      const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const q = qParam ? Number(qParam.slice(2)) : 1;
      return { token: token.trim(), q: Number.isFinite(q) ? q : 0, index };
    })
    .filter((entry) => entry.token !== '')
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map(({ token, q }) => ({ token, q }));
}
