/**
 * Inline `<head>` lines of the public pages, run before first paint (like the language rule in
 * i18n/prepaint.ts, and tested the same way in tests/unit/regionPrepaint.test.ts):
 *
 * - `prepaintRegionScript`: on a region-varying page, a visitor whose stored `areaCode` names
 *   another built region is sent to the same page of that region, so the wrong region's content
 *   is never drawn. The page passes the address of its counterpart in every region (the same
 *   page where it exists there, else its nearest existing parent), worked out at build time.
 *   When the language rule already navigates (it hides the page first), this one waits for the
 *   next page, so there is one navigation at a time.
 * - `queryFormScript`: the spec's query forms (`/products?id=id3`) on a static host with no
 *   rewrite rules: the page at the query form's path moves to the path form, keeping the rest of
 *   the query and the hash. Our own server answers these with 301 before the page is read.
 */
import { previewPathPrefix } from './paths.ts';
import { queryFormIdPattern } from './routes.ts';

/** localStorage key of the chosen region (spec §1; the area store uses the same key). */
export const areaStorageKey = 'areaCode';

export function prepaintRegionScript(pageAreaCode: string, links: Readonly<Record<string, string>>): string {
  return (
    `(function(d,w){try{var e=d.documentElement;if(e.style.visibility==="hidden"||w.location.pathname.indexOf(${JSON.stringify(previewPathPrefix)})===0)return;` +
    `var L=${JSON.stringify(links)},a=w.localStorage.getItem(${JSON.stringify(areaStorageKey)});` +
    `if(!a||a===${JSON.stringify(pageAreaCode)}||!Object.prototype.hasOwnProperty.call(L,a))return;` +
    `e.style.visibility="hidden";w.location.replace(L[a]+w.location.search+w.location.hash)}catch(x){}})(document,window)`
  );
}

export function queryFormScript(param: string, basePath: string): string {
  return (
    `(function(w){try{var q=new URLSearchParams(w.location.search),v=q.get(${JSON.stringify(param)});` +
    `if(!v||!${String(queryFormIdPattern)}.test(v))return;q["delete"](${JSON.stringify(param)});var r=q.toString();` +
    `document.documentElement.style.visibility="hidden";` +
    `w.location.replace(${JSON.stringify(`${basePath.replace(/\/$/, '')}/`)}+v+(r?"?"+r:"")+w.location.hash)}catch(x){}})(window)`
  );
}
