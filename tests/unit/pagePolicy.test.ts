/**
 * The build's page check (src/integrations/pagePolicy.ts) and the policy helpers it shares with
 * the server (src/lib/contentSecurityPolicy.ts), on small pages made here.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { constantInlineScripts, storedAreaNameScript } from '../../src/components/inlineScripts.ts';
import { cspHash, metaPolicyOf, parsePolicy } from '../../src/lib/contentSecurityPolicy.ts';
import { buildPolicyProblems, pagePolicyProblems } from '../../src/integrations/pagePolicy.ts';

const script = 'document.documentElement.dataset.ready = "1"';
const style = 'astro-island{display:contents}';

function page({ policy, head = '', body = '' }: { policy?: string; head?: string; body?: string }): string {
  const meta =
    policy === undefined
      ? ''
      : `<meta http-equiv="content-security-policy" content="${policy.replace(/"/g, '&quot;')}">`;
  return `<!DOCTYPE html><html><head><meta charset="utf-8">${head}${meta}</head><body>${body}</body></html>`;
}

const strict = `default-src 'self'; script-src 'self' '${cspHash(script)}'; style-src 'self' '${cspHash(style)}'`;

describe('the build check of a page', () => {
  it('passes a page whose inline script and style are listed', () => {
    expect(
      pagePolicyProblems(
        page({ policy: strict, head: `<script>${script}</script>`, body: `<style>${style}</style><p>x</p>` }),
      ),
    ).toEqual([]);
  });

  it('refuses a page without a policy, or with one that lacks script-src or style-src', () => {
    expect(pagePolicyProblems(page({}))).toEqual(['no Content-Security-Policy <meta> in <head>']);
    expect(pagePolicyProblems(page({ policy: "default-src 'self'" }))).toEqual([
      'the policy has no script-src',
      'the policy has no style-src',
    ]);
  });

  it('finds no policy in the body, where content goes', () => {
    const body = `<meta http-equiv="content-security-policy" content="${strict.replace(/'/g, '&#39;')}">`;
    expect(pagePolicyProblems(page({ body }))).toEqual(['no Content-Security-Policy <meta> in <head>']);
  });

  it("refuses 'unsafe-inline', 'unsafe-eval', schemes and hosts in script and style sources", () => {
    const loose = `script-src 'self' 'unsafe-inline' 'unsafe-eval' https:; style-src 'self' 'unsafe-inline'; style-src-attr 'unsafe-hashes'; script-src-elem cdn.example`;
    expect(pagePolicyProblems(page({ policy: loose }))).toEqual([
      "script-src allows 'unsafe-inline'",
      "script-src allows 'unsafe-eval'",
      'script-src allows https:',
      'script-src-elem allows cdn.example',
      "style-src allows 'unsafe-inline'",
      "style-src-attr allows 'unsafe-hashes'",
    ]);
  });

  it('refuses an inline script or style the policy does not list, whatever its place', () => {
    const injected = 'alert(document.cookie)';
    const problems = pagePolicyProblems(
      page({
        policy: strict,
        head: `<script>${script}</script>`,
        body: `<div><script type="module">${injected}</script><style>p{color:red}</style></div>`,
      }),
    );
    expect(problems).toEqual([
      `an inline <script> whose hash the policy does not list: ${JSON.stringify(injected)}`,
      `an inline <style> whose hash the policy does not list: ${JSON.stringify('p{color:red}')}`,
    ]);
    // One character more is another script.
    expect(pagePolicyProblems(page({ policy: strict, head: `<script>${script};</script>` }))).toHaveLength(1);
  });

  it('checks the -elem directive when there is one, and leaves script files and data blocks alone', () => {
    const policy = `script-src 'self'; script-src-elem 'self' '${cspHash(script)}'; style-src 'self'`;
    const body = `<script>${script}</script><script src="/_astro/x.js"></script><script type="application/ld+json">{"@type":"Thing"}</script>`;
    expect(pagePolicyProblems(page({ policy, body }))).toEqual([]);
  });

  it('refuses event-handler and style attributes and javascript: links, and reads only tags', () => {
    const body = [
      '<img src="/a.png" alt="x" onerror="alert(1)">',
      '<p style="color:red">x</p>',
      '<a href=" javascript:alert(1)">x</a>',
      // Text that only looks like attributes is no markup.
      '<p title="onclick=1 style=2">onload="x" style="y"</p>',
      `<script>${script}</script>`,
    ].join('');
    expect(pagePolicyProblems(page({ policy: strict, body }))).toEqual([
      'an event-handler attribute: onerror in <img src="/a.png" alt="x" onerror="alert(1)">',
      'a style attribute in <p style="color:red">',
      'a javascript: address in <a href=" javascript:alert(1)">',
    ]);
  });

  it('names every failing page of a build directory', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'hgd-policy-'));
    try {
      await mkdir(path.join(dir, 'welcome/home'), { recursive: true });
      await writeFile(path.join(dir, 'index.html'), page({ policy: strict, head: `<script>${script}</script>` }));
      await writeFile(
        path.join(dir, 'welcome/home/index.html'),
        page({ policy: strict, body: '<script>x()</script>' }),
      );
      await writeFile(path.join(dir, 'robots.txt'), 'User-agent: *');
      expect(await buildPolicyProblems(dir)).toEqual([
        {
          page: path.join('welcome', 'home', 'index.html'),
          problems: ['an inline <script> whose hash the policy does not list: "x()"'],
        },
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('policy helpers', () => {
  it('hash a text as browsers do (SHA-256 of its UTF-8, base64)', () => {
    // The digest of the empty string, as every CSP implementation lists it.
    expect(cspHash('')).toBe('sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=');
    expect(cspHash('关闭')).not.toBe(cspHash('Close'));
  });

  it('read the head’s policy with its entities decoded, and parse it by directive', () => {
    const html = page({ policy: strict }).replace(/'/g, '&#39;');
    expect(metaPolicyOf(html)).toBe(strict);
    const directives = parsePolicy(`${strict};; SCRIPT-SRC 'unsafe-inline'`);
    expect(directives.get('script-src')).toEqual(["'self'", `'${cspHash(script)}'`]);
    expect(directives.get('default-src')).toEqual(["'self'"]);
  });
});

describe('the inline scripts that are the same on every page', () => {
  it('carry no page data: each is one text, listed once', () => {
    expect(new Set(constantInlineScripts).size).toBe(constantInlineScripts.length);
    for (const text of constantInlineScripts) expect(text).not.toMatch(/<\/script/i);
  });

  it('read what varies from their own element (the stored area’s name)', () => {
    const area = { textContent: '广东' };
    const document = {
      currentScript: { dataset: { names: JSON.stringify({ '450000': '广西' }) } },
      querySelector: () => area,
    };
    const run = (stored: string | null) =>
      new Function('document', 'localStorage', storedAreaNameScript)(document, { getItem: () => stored });
    run('450000');
    expect(area.textContent).toBe('广西');
    run('__proto__');
    run(null);
    expect(area.textContent).toBe('广西');
  });
});
