/**
 * The build's check of every page it wrote against the page's own Content-Security-Policy (the
 * `<meta>` Astro writes from astro.config.mjs): a page the browser would run only in part does
 * not ship. Run by the `pagePolicyCheck` integration after every build (`npm run build`, the
 * editors' rebuilds and previews); a problem fails the build, naming the page.
 *
 * A page passes when
 * - it has a policy, whose script-src and style-src (and their -elem/-attr forms) allow nothing
 *   but this origin and listed hashes: no 'unsafe-inline', 'unsafe-eval', scheme or host — save
 *   'wasm-unsafe-eval' in script-src, which compiles WebAssembly and runs no JavaScript text (the
 *   search page's index runs in it);
 * - every inline `<script>` (JSON data blocks aside: they never run) and `<style>` hashes to a
 *   hash its directive lists;
 * - no element carries an event-handler attribute (`onclick`) or a `style` attribute, and no
 *   link a `javascript:` address: the policy blocks all three, so the page would break.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { metaPolicyOf, parsePolicy } from '../lib/contentSecurityPolicy.ts';

const hashSource = /^'(sha256|sha384|sha512)-[A-Za-z0-9+/]+={0,2}'$/;
/** Script types the browser does not run, so no policy applies to them. */
const dataBlockType = /^(application\/(ld\+)?json|text\/plain)$/i;

function allowedSource(directive: string, source: string): boolean {
  if (directive === 'script-src' && source === "'wasm-unsafe-eval'") return true;
  return source === "'self'" || source === "'none'" || hashSource.test(source);
}

/** The sources that govern inline `<script>`/`<style>` elements: the -elem directive when present, else the general one. */
function elementSources(directives: Map<string, string[]>, kind: 'script' | 'style'): string[] | undefined {
  return directives.get(`${kind}-src-elem`) ?? directives.get(`${kind}-src`) ?? directives.get('default-src');
}

function hashesOf(text: string, sources: readonly string[]): string[] {
  const algorithms = new Set(
    sources.map((source) => hashSource.exec(source)?.[1]).filter((name) => name !== undefined),
  );
  return [...algorithms].map(
    (algorithm) => `'${algorithm}-${createHash(algorithm).update(text, 'utf8').digest('base64')}'`,
  );
}

const attributePattern = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

function attributesOf(tag: string): Map<string, string> {
  const attributes = new Map<string, string>();
  const body = tag.replace(/^<[^\s/>]+/, '').replace(/\/?>$/, '');
  for (const [, name, double, single, bare] of body.matchAll(attributePattern)) {
    if (name && !attributes.has(name.toLowerCase())) attributes.set(name.toLowerCase(), double ?? single ?? bare ?? '');
  }
  return attributes;
}

/** What in one built page the browser would refuse under the page's own policy; empty when nothing. */
export function pagePolicyProblems(html: string): string[] {
  const policy = metaPolicyOf(html);
  if (policy === undefined) return ['no Content-Security-Policy <meta> in <head>'];
  const directives = parsePolicy(policy);
  const problems: string[] = [];
  for (const kind of ['script', 'style'] as const) {
    if (!directives.has(`${kind}-src`)) problems.push(`the policy has no ${kind}-src`);
    for (const name of [`${kind}-src`, `${kind}-src-elem`, `${kind}-src-attr`]) {
      for (const source of directives.get(name) ?? []) {
        if (!allowedSource(name, source)) problems.push(`${name} allows ${source}`);
      }
    }
  }

  const elements = /<(script|style)\b([^>]*)>([\s\S]*?)<\/\1\s*>/gi;
  for (const [, name, attributeText, text] of html.matchAll(elements)) {
    const kind = name?.toLowerCase() === 'script' ? 'script' : 'style';
    const attributes = attributesOf(`<${kind}${attributeText ?? ''}>`);
    if (kind === 'script' && (attributes.has('src') || dataBlockType.test(attributes.get('type') ?? ''))) continue;
    const sources = elementSources(directives, kind) ?? [];
    const listed = hashesOf(text ?? '', sources).some((hash) => sources.includes(hash));
    if (!listed)
      problems.push(
        `an inline <${kind}> whose hash the policy does not list: ${JSON.stringify((text ?? '').trim().slice(0, 60))}`,
      );
  }

  // Attributes, read from the tags alone: script and style bodies and comments are no markup.
  const markup = html.replace(elements, '<$1$2></$1>').replace(/<!--[\s\S]*?-->/g, '');
  for (const [tag] of markup.matchAll(/<[a-zA-Z][^\s/>]*(?:\s(?:[^>"']|"[^"]*"|'[^']*')*)?>/g)) {
    for (const [attribute, value] of attributesOf(tag)) {
      if (/^on[a-z]+$/.test(attribute))
        problems.push(`an event-handler attribute: ${attribute} in ${tag.slice(0, 60)}`);
      else if (attribute === 'style') problems.push(`a style attribute in ${tag.slice(0, 60)}`);
      else if (['href', 'src', 'action', 'formaction'].includes(attribute) && /^\s*javascript:/i.test(value)) {
        problems.push(`a javascript: address in ${tag.slice(0, 60)}`);
      }
    }
  }
  return problems;
}

/** Every page of a build directory with its problems (pages without any left out). */
export async function buildPolicyProblems(
  distDir: string,
  checked: ReadonlySet<string> = new Set(),
): Promise<{ page: string; problems: string[] }[]> {
  const entries = await readdir(distDir, { recursive: true, withFileTypes: true });
  const pages = entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.html'))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((page) => !checked.has(page));
  const found: { page: string; problems: string[] }[] = [];
  for (const page of pages.sort()) {
    const problems = pagePolicyProblems(await readFile(page, 'utf8'));
    if (problems.length > 0) found.push({ page: path.relative(distDir, page), problems });
  }
  return found;
}
