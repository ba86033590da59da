import { describe, expect, it } from 'vitest';
import { runInNewContext } from 'node:vm';
import { prepaintRegionScript, queryFormScript } from '../../src/lib/regionPrepaint.ts';

interface Visit {
  script: string;
  stored?: string | null;
  pathname?: string;
  search?: string;
  hash?: string;
  hidden?: boolean;
}

/** Runs an inlined script against a fake document/window; returns where it navigated, if anywhere. */
function visit({ script, stored = null, pathname = '/', search = '', hash = '', hidden = false }: Visit) {
  let replacedWith: string | null = null;
  const style: Record<string, string> = hidden ? { visibility: 'hidden' } : {};
  const window = {
    localStorage: { getItem: (key: string) => (key === 'areaCode' ? stored : null) },
    location: { pathname, search, hash, replace: (url: string) => (replacedWith = url) },
  };
  const document = { documentElement: { style } };
  runInNewContext(script, { window, document, URLSearchParams });
  return { replacedWith: replacedWith as string | null, hidden: style['visibility'] === 'hidden' };
}

const links = { '440000': '/business/b1', '450000': '/gx/business/b1', '530000': '/yn/business' };
const onGuangdong = prepaintRegionScript('440000', links);

describe('pre-paint region rule', () => {
  it("stays when nothing is stored or the stored region is the page's", () => {
    expect(visit({ script: onGuangdong }).replacedWith).toBeNull();
    expect(visit({ script: onGuangdong, stored: '440000' }).replacedWith).toBeNull();
  });

  it("sends a visitor of another region to that region's page, hidden, keeping query and hash", () => {
    const result = visit({ script: onGuangdong, stored: '450000', search: '?a=1', hash: '#t' });
    expect(result.replacedWith).toBe('/gx/business/b1?a=1#t');
    expect(result.hidden).toBe(true);
    // where the page does not exist in that region, its nearest parent there
    expect(visit({ script: onGuangdong, stored: '530000' }).replacedWith).toBe('/yn/business');
  });

  it('leaves an editor’s preview page where it is', () => {
    expect(
      visit({ script: onGuangdong, stored: '450000', pathname: '/studio-preview/12/business' }).replacedWith,
    ).toBeNull();
  });

  it('ignores unknown or unbuilt regions and inherited property names', () => {
    expect(visit({ script: onGuangdong, stored: '999999' }).replacedWith).toBeNull();
    expect(visit({ script: onGuangdong, stored: 'toString' }).replacedWith).toBeNull();
  });

  it('waits when the language rule is already navigating', () => {
    expect(visit({ script: onGuangdong, stored: '450000', hidden: true }).replacedWith).toBeNull();
  });
});

describe('query-form pages on a static host', () => {
  const products = queryFormScript('id', '/en-US/gx/products');
  it('moves the query form to the path form', () => {
    expect(visit({ script: products, search: '?id=id3' }).replacedWith).toBe('/en-US/gx/products/id3');
    expect(visit({ script: products, search: '?x=1&id=id3', hash: '#s' }).replacedWith).toBe(
      '/en-US/gx/products/id3?x=1#s',
    );
  });
  it('stays without an id or with an unsafe one', () => {
    expect(visit({ script: products }).replacedWith).toBeNull();
    expect(visit({ script: products, search: '?id=//evil.example' }).replacedWith).toBeNull();
    expect(visit({ script: products, search: '?id=a%2Fb' }).replacedWith).toBeNull();
  });
});
