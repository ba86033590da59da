/**
 * The spec's language rule, applied before first paint by a few inlined lines in every page's <head>.
 *
 * - An address that names its locale (`/en-US/…`, `/id-ID/…`) is a choice: the page stays as it
 *   is, and the choice is stored (localStorage + cookie, as the language switch does) so later
 *   unprefixed addresses follow it. A shared link opens in the language it was shared in, and a
 *   crawler indexes every locale's pages as themselves.
 * - Only an unprefixed address (zh-CN's) decides: stored choice, else the browser's languages,
 *   else zh-CN; when that is another locale, the same page in it replaces this one before anything
 *   is drawn. Never for a crawler: it keeps the address it asked for.
 *
 * The matcher mirrors `matchLocale` in locales.ts; tests/unit/prepaint.test.ts runs this exact
 * string and checks the two agree.
 */
import { previewPathPrefix } from '../paths.ts';
import { defaultLocale, localeStorageKey, locales } from './locales.ts';

/** User agents of crawlers and link previews (they render pages but must not be moved). */
export const crawlerPattern = /bot|crawl|spider|slurp|mediapartners|facebookexternalhit|embedly|preview/i;

export const prepaintLocaleScript =
  `(function(d,w){try{var L=${JSON.stringify(locales)},D=${JSON.stringify(defaultLocale)},K=${JSON.stringify(localeStorageKey)},
cur=d.documentElement.lang,p=w.location.pathname,q=p.split("/");if(p.indexOf(${JSON.stringify(previewPathPrefix)})===0)return;
function m(x){x=String(x).trim().toLowerCase().replace(/_/g,"-");if(!x)return"";for(var j=0;j<L.length;j++)if(L[j].toLowerCase()===x)return L[j];
var a=x.split("-"),l=a[0],r=a.slice(1);if(l==="zh")return r.some(function(p){return p==="tw"||p==="hk"||p==="mo"||p==="hant"})?"zh-TW":"zh-CN";
return l==="en"?"en-US":l==="id"||l==="in"?"id-ID":l==="pt"?"pt-BR":""}
w.hgdMatchLocale=m;
if(L.indexOf(q[1])>-1&&q[1]!==D){try{w.localStorage.setItem(K,q[1])}catch(e){}
d.cookie=K+"="+q[1]+"; Path=/; Max-Age=31536000; SameSite=Lax"+(w.location.protocol==="https:"?"; Secure":"");return}
if(${crawlerPattern.toString()}.test(w.navigator.userAgent||""))return;
var s=null;try{s=w.localStorage.getItem(K)}catch(e){}var t=L.indexOf(s)>-1?s:"";
if(!t){var n=w.navigator.languages&&w.navigator.languages.length?w.navigator.languages:[w.navigator.language||""];for(var i=0;i<n.length&&!t;i++)t=m(n[i])}
t=t||D;if(t===D||t===cur)return;
var rest=p==="/"?"":p;d.documentElement.style.visibility="hidden";
w.location.replace("/"+t+rest+w.location.search+w.location.hash)}catch(e){}})(document,window)`.replace(/\n/g, '');
