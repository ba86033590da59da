// @vitest-environment happy-dom
/**
 * The site's one Markdown renderer (src/content/markdown.ts): hostile payloads come out with
 * nothing that can script — checked on the HTML as a browser parses it, not on the string — and
 * the editor is told what went; legitimate Markdown, every seed field included, renders byte for
 * byte as `marked` alone; the loader renders every Markdown field of every kind through it; link
 * fields stay on http(s) and the site.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { marked } from 'marked';
import { afterEach, describe, expect, it } from 'vitest';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { z } from 'zod';
import { kindSpecs } from '../../src/content/kinds.ts';
import { ContentError, loadContent } from '../../src/content/load.ts';
import { markdownPolicy, renderMarkdown, UnrenderableMarkdown, type DroppedItem } from '../../src/content/markdown.ts';
import { maxMarkdownLength } from '../../src/content/limits.ts';
import { linkField, mapMarkdownFields, markdownField } from '../../src/content/schemas.ts';
import { droppedText } from '../../src/islands/studio/markdownPreview.ts';
import { studioMessages } from '../../src/lib/studio/pageMessages.ts';
import { locales } from '../../src/lib/i18n/locales.ts';
import { itemsOfFiles, readContentFiles } from '../../src/server/studio/contentRepo.ts';

const site = 'https://portal.example';

/** Everything in the HTML, parsed as a browser parses it, that could run script or leave the site's rules. */
function scriptingHazards(html: string): string[] {
  const template = document.createElement('template');
  template.innerHTML = html;
  const hazards: string[] = [];
  const dangerousTags = new Set([
    'script',
    'iframe',
    'frame',
    'object',
    'embed',
    'style',
    'form',
    'svg',
    'math',
    'base',
    'link',
    'meta',
    'button',
    'textarea',
    'select',
    'template',
    'noscript',
  ]);
  for (const element of template.content.querySelectorAll('*')) {
    const tag = element.localName;
    if (dangerousTags.has(tag)) hazards.push(`<${tag}>`);
    if (tag === 'input' && (element.getAttribute('type') !== 'checkbox' || !element.hasAttribute('disabled')))
      hazards.push('an input that is not a disabled checkbox');
    for (const { name, value } of [...element.attributes]) {
      if (/(javascript|vbscript|data):/i.test(value.replace(/\s/g, ''))) hazards.push(`${tag}[${name}=${value}]`);
      if (
        /^on/i.test(name) ||
        ['style', 'srcdoc', 'formaction', 'action', 'xlink:href', 'target', 'data'].includes(name.toLowerCase())
      )
        hazards.push(`${tag}[${name}]`);
      if (name === 'href' || name === 'src') {
        const url = new URL(value, `${site}/page/`);
        const absolute = /^(https?:|mailto:|tel:)/i.test(value);
        if (!['http:', 'https:', 'mailto:', 'tel:'].includes(url.protocol)) hazards.push(`${tag}[${name}=${value}]`);
        else if (!absolute && !(value.startsWith('/') || value.startsWith('#')))
          hazards.push(`${tag}[${name}=${value}] is no site path`);
        else if (!absolute && url.origin !== site) hazards.push(`${tag}[${name}=${value}] leaves the site`);
      }
    }
  }
  return hazards;
}

const tag = (name: string) => ({ kind: 'tag', tag: name });
const attribute = (on: string, name: string) => ({ kind: 'attribute', tag: on, attribute: name });
const url = (on: string, name: string, scheme: string | null) => ({ kind: 'url', tag: on, attribute: name, scheme });

/** [what, Markdown, what the editor must be told (at least)]. */
const payloads: [string, string, object[]][] = [
  ['script', 'Hello <script>alert(1)</script> world', [tag('script')]],
  ['img onerror', '<img src="/images/a.png" onerror="alert(1)">', [attribute('img', 'onerror')]],
  ['img src=x onerror', '<img src=x onerror=alert(1)>', [attribute('img', 'onerror'), url('img', 'src', null)]],
  ['svg onload', '<svg onload=alert(1)><circle r="4"/></svg>', [tag('svg')]],
  ['Markdown javascript: link', '[click](javascript:alert(document.cookie))', [url('a', 'href', 'javascript')]],
  ['javascript: in an autolink', '<javascript:alert(1)>', [url('a', 'href', 'javascript')]],
  ['iframe', '<iframe src="https://evil.example/"></iframe>', [tag('iframe')]],
  ['iframe srcdoc', '<iframe srcdoc="<script>alert(1)</script>"></iframe>', [tag('iframe')]],
  ['object', '<object data="javascript:alert(1)"><param name="x"></object>', [tag('object'), tag('param')]],
  ['embed', '<embed src="javascript:alert(1)">', [tag('embed')]],
  ['style element', '<style>*{background:url("javascript:alert(1)")}</style>', [tag('style')]],
  ['style attribute', '<p style="position:fixed;inset:0">cover</p>', [attribute('p', 'style')]],
  [
    'form',
    '<form action="https://evil.example/"><input name="password"><button formaction="javascript:alert(1)">go</button></form>',
    [tag('form'), tag('input'), tag('button')],
  ],
  ['mixed-case scheme', '<a href="JaVaScRiPt:alert(1)">x</a>', [url('a', 'href', 'javascript')]],
  ['entity-encoded scheme', '<a href="&#106;avascript:alert(1)">x</a>', [url('a', 'href', 'javascript')]],
  [
    'hex entities and a tab inside the scheme',
    '<a href="&#x6A;ava&#x09;script&colon;alert(1)">x</a>',
    [url('a', 'href', 'javascript')],
  ],
  ['leading spaces and controls', '<a href=" \u0001javascript:alert(1)">x</a>', [url('a', 'href', 'javascript')]],
  ['Markdown link with an entity', '[x](&#106;avascript:alert(1))', [url('a', 'href', 'javascript')]],
  ['data:text/html', '[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)', [url('a', 'href', 'data')]],
  ['data: image', '![x](data:image/svg+xml;base64,PHN2Zy8+)', [url('img', 'src', 'data')]],
  ['vbscript:', '<a href="vbscript:msgbox(1)">x</a>', [url('a', 'href', 'vbscript')]],
  [
    'svg xlink:href',
    '<svg><a xlink:href="javascript:alert(1)"><text x="0" y="15">x</text></a></svg>',
    [tag('svg'), attribute('a', 'xlink:href'), tag('text')],
  ],
  [
    'math namespace confusion',
    '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
    [tag('math'), tag('mtext'), tag('mglyph'), tag('style')],
  ],
  [
    'math with a link',
    '<math><maction actiontype="statusline" xlink:href="javascript:alert(1)">x</maction></math>',
    [tag('math'), tag('maction')],
  ],
  [
    'img onerror in a table cell',
    '| a | b |\n|---|---|\n| <img src=x onerror=alert(1)> | c |',
    [attribute('img', 'onerror')],
  ],
  ['noscript re-parse', '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>', [tag('noscript')]],
  ['protocol-relative link', '<a href="//evil.example/x">x</a>', [url('a', 'href', null)]],
  ['backslash host', '<a href="/\\evil.example">x</a>', [url('a', 'href', null)]],
  [
    'event handler on an allowed tag',
    '<a href="/assistance" onclick="alert(1)" target="_blank">x</a>',
    [attribute('a', 'onclick'), attribute('a', 'target')],
  ],
  ['details ontoggle', '<details open ontoggle=alert(1)>x</details>', [tag('details')]],
  [
    'base and meta refresh',
    '<base href="javascript:alert(1)//"><meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
    [tag('base'), tag('meta')],
  ],
  ['textarea breakout', '<textarea></textarea><img src=x onerror=alert(1)>"></textarea>', [tag('textarea')]],
  ['a text input', '<input type="text" autofocus onfocus="alert(1)">', [tag('input')]],
  ['code class injection', '<code class="language-js hidden">x</code>', [attribute('code', 'class')]],
];

describe('renderMarkdown: hostile payloads', () => {
  it.each(payloads)('%s: nothing that can script survives, and the editor is told what went', (_what, source, told) => {
    const { html, dropped } = renderMarkdown(source);
    expect(scriptingHazards(html)).toEqual([]);
    for (const item of told) expect(dropped, JSON.stringify(dropped)).toContainEqual(expect.objectContaining(item));
  });

  it('the hazard check itself finds what plain marked lets through', () => {
    const unsafe = payloads.map(([, source]) => marked.parse(source, { async: false, gfm: true }));
    expect(unsafe.filter((html) => scriptingHazards(html).length > 0).length).toBeGreaterThanOrEqual(
      payloads.length - 3,
    );
  });

  it('counts repeats, in the order first met, and quotes at most 120 characters of an address', () => {
    const long = `javascript:${'a'.repeat(300)}`;
    const { dropped } = renderMarkdown(`A <script>1</script> [a](javascript:1) <script>2</script> [b](${long})`);
    expect(dropped).toEqual([
      { kind: 'tag', tag: 'script', count: 2 },
      { kind: 'url', tag: 'a', attribute: 'href', url: 'javascript:1', scheme: 'javascript', count: 1 },
      { kind: 'url', tag: 'a', attribute: 'href', url: long.slice(0, 120), scheme: 'javascript', count: 1 },
    ]);
  });
});

describe('the report follows the policy the sanitizer runs with', () => {
  const someTags = [
    'p',
    'h3',
    'table',
    'del',
    'code',
    'div',
    'span',
    'font',
    'marquee',
    'video',
    'audio',
    'picture',
    'source',
    'dialog',
    'slot',
    'portal',
    'b',
    'i',
    'u',
    'sup',
    'label',
  ];

  it.each(someTags)('<%s>: kept when the policy allows it, else removed and reported', (name) => {
    const { html, dropped } = renderMarkdown(`<${name} title="t">text</${name}>`);
    const allowed = markdownPolicy.allowedTags.includes(name as never);
    expect(html.includes(`<${name}`)).toBe(allowed);
    expect(dropped.some((item) => item.kind === 'tag' && item.tag === name)).toBe(!allowed);
    expect(html).toContain('text');
  });

  it('an attribute is kept exactly when the policy lists it for its tag', () => {
    for (const [name, attributes] of Object.entries(markdownPolicy.allowedAttributes)) {
      // An input is kept only as a checkbox: each candidate is tried on one.
      const base = name === 'input' ? ' type="checkbox"' : '';
      for (const candidate of [...attributes, 'id', 'class', 'onmouseover', 'style', 'hidden'].filter(
        (entry) => !(base && entry === 'type'),
      )) {
        const value =
          candidate === 'href' || candidate === 'src' ? '/assistance' : candidate === 'class' ? 'language-js' : 'v';
        const html = renderMarkdown(`<${name}${base} ${candidate}="${value}">x</${name}>`).html;
        expect(html.includes(` ${candidate}=`), `${name} ${candidate}`).toBe(attributes.includes(candidate));
      }
    }
  });
});

describe('what the editor reads about it', () => {
  const items: DroppedItem[] = [
    { kind: 'tag', tag: 'script', count: 1 },
    { kind: 'attribute', tag: 'img', attribute: 'onerror', count: 2 },
    { kind: 'url', tag: 'a', attribute: 'href', url: 'javascript:alert(1)', scheme: 'javascript', count: 1 },
    { kind: 'url', tag: 'img', attribute: 'src', url: 'data:image/png', scheme: 'data', count: 1 },
    { kind: 'url', tag: 'a', attribute: 'href', url: '//evil.example', scheme: null, count: 1 },
  ];

  it('says in English what went and why', () => {
    const messages = studioMessages('en-US');
    expect(items.map((item) => droppedText(messages, 'en-US', item))).toEqual([
      'removed <script>',
      'removed the onerror attribute of <img> (2 times)',
      'removed a javascript: link (javascript:alert(1))',
      'removed a data: image address (data:image/png)',
      'removed the address “//evil.example” of <a>: it is neither a site path nor an allowed address',
    ]);
  });

  it('in every locale, with every value filled', () => {
    for (const locale of locales) {
      const messages = studioMessages(locale);
      for (const item of items) {
        const text = droppedText(messages, locale, item);
        expect(text, `${locale} ${item.kind}`).not.toMatch(/\{\w+\}/);
        expect(text).toContain(
          item.kind === 'attribute' ? item.attribute : item.kind === 'url' ? item.url : `<${item.tag}>`,
        );
      }
    }
  });
});

/** Every Markdown source of every seed item, found the way the loader finds them (by the schema). */
async function seedMarkdown(): Promise<{ path: string; source: string }[]> {
  const found: { path: string; source: string }[] = [];
  for (const item of itemsOfFiles(await readContentFiles('src/content'))) {
    const schema = kindSpecs[item.kind].schema;
    mapMarkdownFields(schema, schema.parse(item.data), (source) => {
      found.push({ path: item.path, source });
      return source;
    });
  }
  return found;
}

describe('legitimate Markdown renders as marked does', () => {
  it('every Markdown field of every seed item: byte-identical, nothing dropped', async () => {
    const sources = await seedMarkdown();
    // News, help documents, notices, the legal documents, problem guides, business items' tabs, sets and products.
    expect(new Set(sources.map(({ path: file }) => file.split('/')[0]))).toEqual(
      new Set(['news', 'help', 'notices', 'legal', 'problem-guides.yaml', 'business', 'sets', 'products.yaml']),
    );
    expect(sources.length).toBeGreaterThan(200);
    for (const { path: file, source } of sources) {
      const rendered = renderMarkdown(source);
      expect(rendered.html, file).toBe(marked.parse(source, { async: false, gfm: true }));
      expect(rendered.dropped, file).toEqual([]);
    }
  });

  it('every construct GFM writes: headings, lists, task lists, tables with alignment, code, quotes, links, images, breaks', () => {
    const source = [
      '# One',
      '## Two *em* **strong** ~~del~~ `code`',
      '### Three',
      '#### Four',
      '##### Five',
      '###### Six',
      'Text with "quotes", \'apostrophes\', & ampersands < and > signs, 中文“引号”。',
      'Line one  \nline two',
      '',
      '- [ ] open task',
      '- [x] done task',
      '',
      '1. one',
      '2. two',
      '',
      '7. starts at seven',
      '8. eight',
      '',
      '> quoted **text**',
      '',
      '```js',
      'const a = "<b>" && 1 < 2;',
      '```',
      '',
      '    indented code',
      '',
      '| left | center | right |',
      '|:-----|:------:|------:|',
      '| a | b | c |',
      '',
      '---',
      '',
      '[site](/assistance/faq "Title") [anchor](#top) [mail](mailto:a@b.cn) [tel](tel:+862012345678) [web](https://example.com/a?b=1&c=2)',
      '![alt text](/images/a.png "title") ![](https://example.com/x.png)',
      'Autolinks https://www.example.com, <https://example.org>, www.example.net, foo@example.com.',
      'Escapes \\* \\_ and a numeric entity &#169;.',
    ].join('\n');
    const rendered = renderMarkdown(source);
    expect(rendered.dropped).toEqual([]);
    expect(rendered.html).toBe(marked.parse(source, { async: false, gfm: true }));
  });
});

const fixtures: string[] = [];
afterEach(() => {
  for (const dir of fixtures.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the loader renders every Markdown field through it', () => {
  it('a payload in each kind’s Markdown (news, help, notice, problem guide, business tab, set, product) reaches no loaded field', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'content-markdown-'));
    fixtures.push(dir);
    cpSync(path.resolve('src/content'), dir, { recursive: true, filter: (source) => !source.endsWith('.ts') });
    const payload = 'Payload <img src=x onerror=alert(1)><script>alert(2)</script> [x](javascript:alert(3))';
    const edit = (file: string, change: (text: string) => string) =>
      writeFileSync(path.join(dir, file), change(readFileSync(path.join(dir, file), 'utf8')));
    const appendToBody = (text: string) => `${text.trimEnd()}\n\n${payload}\n`;
    const firstFile = (folder: string, extension: string) =>
      `${folder}/${
        readdirSync(path.join(dir, folder))
          .filter((name) => name.endsWith(extension))
          .sort()[0]
      }`;
    edit(firstFile('news', '.md'), appendToBody);
    edit(firstFile('help', '.md'), appendToBody);
    edit(firstFile('notices', '.md'), appendToBody);
    // In YAML, a Markdown value of the file becomes the payload.
    const yamlEdit = (change: (data: never) => void) => (text: string) => {
      const data = parseYaml(text) as never;
      change(data);
      return stringifyYaml(data);
    };
    edit(
      'problem-guides.yaml',
      yamlEdit((guides: { answer: string }[]) => (guides[0]!.answer = payload)),
    );
    edit(
      'products.yaml',
      yamlEdit((products: { description: string }[]) => (products[0]!.description = payload)),
    );
    edit(
      firstFile('business/440000', '.yaml'),
      yamlEdit((item: { descList: { desc: string }[] }) => (item.descList[0]!.desc = payload)),
    );
    edit(
      firstFile('sets/440000', '.yaml'),
      yamlEdit((set: { description: string }) => (set.description = payload)),
    );

    const loaded = JSON.stringify(loadContent(dir));
    expect(loaded.match(/Payload/g)?.length).toBe(7);
    expect(loaded).not.toMatch(/onerror|<script|javascript:/);
  });

  it('Markdown nested too deeply to render fails the load naming its file and field; a field is at most 20 000 characters', () => {
    const deep = `${'>'.repeat(19_000)} x`;
    expect(() => renderMarkdown(deep)).toThrow(UnrenderableMarkdown);
    const dir = mkdtempSync(path.join(tmpdir(), 'content-markdown-'));
    fixtures.push(dir);
    cpSync(path.resolve('src/content'), dir, { recursive: true, filter: (source) => !source.endsWith('.ts') });
    const itemFile = `business/440000/${readdirSync(path.join(dir, 'business/440000')).sort()[0]}`;
    const item = parseYaml(readFileSync(path.join(dir, itemFile), 'utf8')) as { descList: { desc: string }[] };
    item.descList[1]!.desc = deep;
    writeFileSync(path.join(dir, itemFile), stringifyYaml(item));
    const failure = (() => {
      try {
        loadContent(dir);
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(failure).toBeInstanceOf(ContentError);
    expect(failure).toMatchObject({ file: `${dir}/${itemFile}`, field: 'descList[1].desc' });
    expect((failure as Error).message).toMatch(/nests too deeply/);

    expect(markdownField.safeParse('x'.repeat(maxMarkdownLength)).success).toBe(true);
    expect(markdownField.safeParse('x'.repeat(maxMarkdownLength + 1)).success).toBe(false);
  });

  it('a Markdown field the walker cannot reach is refused, not left unrendered', () => {
    const schema = z.object({ either: z.union([markdownField, z.number()]) });
    expect(() => mapMarkdownFields(schema, { either: 'x' }, (source) => source)).toThrow(/union/);
    const paths: string[] = [];
    const mapped = mapMarkdownFields(
      z.object({ list: z.array(z.object({ md: z.optional(markdownField) })) }),
      { list: [{ md: 'a' }, {}, { md: 'b' }] },
      (source, at) => {
        paths.push(at.join('.'));
        return `<${source}>`;
      },
    );
    expect(mapped).toEqual({ list: [{ md: '<a>' }, {}, { md: '<b>' }] });
    expect(paths).toEqual(['list.0.md', 'list.2.md']);
  });
});

describe('link fields (banners, text banners, home notices)', () => {
  it('take a site path or an http(s) address, nothing else', () => {
    for (const good of ['/welcome/detail/x', '/gx/products/id4?x=1', 'https://example.com/a', 'http://example.com'])
      expect(linkField.safeParse(good).success, good).toBe(true);
    for (const bad of [
      'javascript:alert(1)',
      'JAVASCRIPT:alert(1)',
      ' /x',
      'data:text/html,x',
      '//evil.example',
      '/\\evil.example',
      '/a\\b',
      'mailto:a@b.cn',
      'relative/path',
      'vbscript:x',
      'https:/x',
    ]) {
      expect(linkField.safeParse(bad).success, bad).toBe(false);
    }
  });
});
