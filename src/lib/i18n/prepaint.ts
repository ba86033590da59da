/**
 * The spec's language rule — stored choice, else the browser's languages, else zh-CN — applied
 * before first paint by a few inlined lines in every page's <head>. When the page is in another
 * locale, the same page in the right locale replaces it before anything is drawn.
 * The matcher mirrors `matchLocale` in locales.ts; tests/unit/prepaint.test.ts runs this exact
 * string and checks the two agree.
 */
import { defaultLocale, localeStorageKey, locales } from './locales.ts';

export const prepaintLocaleScript = `(function(d,w){try{var L=${JSON.stringify(locales)},D=${JSON.stringify(defaultLocale)},
cur=d.documentElement.lang,s=w.localStorage.getItem(${JSON.stringify(localeStorageKey)}),t=L.indexOf(s)>-1?s:"";
function m(x){x=String(x).trim().toLowerCase().replace(/_/g,"-");if(!x)return"";for(var j=0;j<L.length;j++)if(L[j].toLowerCase()===x)return L[j];
var a=x.split("-"),l=a[0],r=a.slice(1);if(l==="zh")return r.some(function(p){return p==="tw"||p==="hk"||p==="mo"||p==="hant"})?"zh-TW":"zh-CN";
return l==="en"?"en-US":l==="id"||l==="in"?"id-ID":l==="pt"?"pt-BR":""}
w.hgdMatchLocale=m;
if(!t){var n=w.navigator.languages&&w.navigator.languages.length?w.navigator.languages:[w.navigator.language||""];for(var i=0;i<n.length&&!t;i++)t=m(n[i])}
t=t||D;if(t===cur)return;
var p=w.location.pathname,q=p.split("/"),rest=L.indexOf(q[1])>-1&&q[1]!==D?"/"+q.slice(2).join("/"):p;
if(t!==D&&rest==="/")rest="";d.documentElement.style.visibility="hidden";
w.location.replace((t===D?"":"/"+t)+rest+w.location.search+w.location.hash)}catch(e){}})(document,window)`.replace(/\n/g, '');
