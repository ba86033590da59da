/**
 * The site's one Markdown renderer: `marked` (GFM) and then an allow-list sanitizer
 * (`sanitize-html`) over its HTML. The build and the content API read content rendered here (via
 * load.ts) and the studio's preview call answers with it, so an editor's Markdown can never put a
 * script, an event handler or a `javascript:` address on a page: editor accounts can be phished, so
 * their content is not trusted. Legitimate Markdown renders byte for byte as `marked` alone does.
 *
 * The renderer also says what it removed (`dropped`), for the editor; that report is derived from
 * `markdownPolicy`, the object the sanitizer runs with, so the two cannot disagree.
 *
 * Server and build only: sanitize-html pulls in a parser and postcss, which no page should ship.
 */
import { Marked } from 'marked';
import sanitizeHtml from 'sanitize-html';

/** One kind of thing the sanitizer removed, with how often it occurred. */
export type DroppedItem =
  /** A tag (its content stays, except for script-like tags whose content goes too). */
  | { kind: 'tag'; tag: string; count: number }
  /** An attribute the tag may not carry (`onerror` of `<img>`, `style`, `srcdoc`, …). */
  | { kind: 'attribute'; tag: string; attribute: string; count: number }
  /** An address refused by its scheme (`javascript:`, `data:`) or for being no site path (`scheme` null). */
  | { kind: 'url'; tag: string; attribute: string; url: string; scheme: string | null; count: number };

export interface RenderedMarkdown {
  html: string;
  dropped: DroppedItem[];
}

/** Address schemes a link may use; images only http(s). Site paths (`/…`) and fragments (`#…`) need none. */
const linkSchemes = ['http', 'https', 'mailto', 'tel'];

/**
 * What survives: the tags and attributes marked's GFM output uses, nothing else. No event
 * handler, no style, no script, iframe, object, embed, form or SVG/MathML (foreign content is
 * where sanitizers and browsers parse differently).
 */
export const markdownPolicy = {
  allowedTags: [
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'p',
    'br',
    'hr',
    'blockquote',
    'ul',
    'ol',
    'li',
    'input',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
    'pre',
    'code',
    'em',
    'strong',
    'del',
    'a',
    'img',
  ],
  allowedAttributes: {
    a: ['href', 'title'],
    img: ['src', 'alt', 'title'],
    ol: ['start'],
    th: ['align'],
    td: ['align'],
    // A task list's box: always a disabled checkbox (see taskCheckbox).
    input: ['checked', 'disabled', 'type'],
    code: ['class'],
  } as Readonly<Record<string, readonly string[]>>,
  /** A fenced block's language (`language-js`), the only class. */
  allowedClasses: { code: [/^language-\S+$/] } as Readonly<Record<string, readonly RegExp[]>>,
  allowedSchemes: linkSchemes,
  allowedSchemesByTag: { img: ['http', 'https'] } as Readonly<Record<string, readonly string[]>>,
  allowedSchemesAppliedToAttributes: sanitizeHtml.defaults.allowedSchemesAppliedToAttributes,
  allowProtocolRelative: false,
  // marked writes `alt=""`, `checked=""` and `disabled=""`: kept so that output stays byte-identical.
  allowedEmptyAttributes: ['alt', 'checked', 'disabled'],
  selfClosing: ['br', 'hr', 'img', 'input'],
  disallowedTagsMode: 'discard',
  // Removed with their content: raw text that a browser would otherwise read as markup or code.
  nonTextTags: [
    'script',
    'style',
    'textarea',
    'option',
    'xmp',
    'noscript',
    'noembed',
    'noframes',
    'iframe',
    'template',
    'title',
  ],
} as const;

const allowedTags = new Set<string>(markdownPolicy.allowedTags);
const urlAttributes = new Set<string>(markdownPolicy.allowedSchemesAppliedToAttributes);

/** Longest refused address quoted back to the editor. */
const quotedUrlLength = 120;

const markdown = new Marked({ gfm: true, async: false });

function attributeAllowed(tag: string, attribute: string): boolean {
  return markdownPolicy.allowedAttributes[tag]?.includes(attribute) ?? false;
}

function classesAllowed(tag: string, value: string): boolean {
  const patterns = markdownPolicy.allowedClasses[tag];
  if (!patterns) return true;
  return value
    .split(/\s+/)
    .filter(Boolean)
    .every((name) => patterns.some((pattern) => pattern.test(name)));
}

/**
 * Why an address is refused, or undefined when it is allowed: a site path (`/…` but not `//host`
 * or `/\host`, which browsers read as another host), a fragment, or an allowed scheme. Read as a
 * browser reads it: entities are already decoded by the parser, and control characters and spaces
 * (which browsers skip inside a scheme) are ignored, so `java\tscript:` is `javascript:`.
 */
function refusedUrl(tag: string, value: string): { scheme: string | null } | undefined {
  const cleaned = value.replace(/[\u0000-\u0020\u007f-\u009f]+/g, '');
  if (cleaned.startsWith('#') || /^\/(?![/\\])/.test(cleaned)) return undefined;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(cleaned)?.[1]?.toLowerCase() ?? null;
  const schemes: readonly string[] = markdownPolicy.allowedSchemesByTag[tag] ?? markdownPolicy.allowedSchemes;
  return scheme !== null && schemes.includes(scheme) ? undefined : { scheme };
}

/** A task list's box: an `<input>` is kept only as a checkbox. */
function taskCheckbox(attribs: Readonly<Record<string, string>>): boolean {
  return (attribs['type'] ?? '').trim().toLowerCase() === 'checkbox';
}

/** Counts what is removed, in the order first met. */
class DropReport {
  private readonly items = new Map<string, DroppedItem>();

  add(item: DroppedItem): void {
    const { count: _count, ...identity } = item;
    const key = JSON.stringify(identity);
    const seen = this.items.get(key);
    if (seen) seen.count += 1;
    else this.items.set(key, item);
  }

  list(): DroppedItem[] {
    return [...this.items.values()];
  }
}

/** sanitize-html's options; `allowedEmptyAttributes` is one of them, missing from its type definitions. */
type SanitizerOptions = sanitizeHtml.IOptions & { allowedEmptyAttributes: string[] };

/** sanitize-html's options: the policy, plus the hooks that apply its URL rule and write the report. */
function sanitizerOptions(report: DropReport): SanitizerOptions {
  return {
    ...markdownPolicy,
    allowedTags: [...markdownPolicy.allowedTags],
    allowedAttributes: Object.fromEntries(
      Object.entries(markdownPolicy.allowedAttributes).map(([tag, names]) => [tag, [...names]]),
    ),
    allowedClasses: Object.fromEntries(
      Object.entries(markdownPolicy.allowedClasses).map(([tag, patterns]) => [tag, [...patterns]]),
    ),
    allowedSchemesByTag: Object.fromEntries(
      Object.entries(markdownPolicy.allowedSchemesByTag).map(([tag, schemes]) => [tag, [...schemes]]),
    ),
    allowedEmptyAttributes: [...markdownPolicy.allowedEmptyAttributes],
    selfClosing: [...markdownPolicy.selfClosing],
    nonTextTags: [...markdownPolicy.nonTextTags],
    // Sees every tag the sanitizer meets (not those inside removed script-like content): reports
    // a refused tag, and removes (and reports) each attribute the policy refuses on an allowed one.
    // The sanitizer then applies the same policy again to what is left.
    transformTags: {
      '*': (tagName, attribs) => {
        if (!allowedTags.has(tagName) || (tagName === 'input' && !taskCheckbox(attribs))) {
          report.add({ kind: 'tag', tag: tagName, count: 1 });
          return { tagName, attribs };
        }
        const kept: Record<string, string> = {};
        for (const [attribute, value] of Object.entries(attribs)) {
          if (!attributeAllowed(tagName, attribute) || (attribute === 'class' && !classesAllowed(tagName, value))) {
            report.add({ kind: 'attribute', tag: tagName, attribute, count: 1 });
            continue;
          }
          const refused = urlAttributes.has(attribute) && value.trim() !== '' ? refusedUrl(tagName, value) : undefined;
          if (refused) {
            report.add({
              kind: 'url',
              tag: tagName,
              attribute,
              url: value.slice(0, quotedUrlLength),
              scheme: refused.scheme,
              count: 1,
            });
            continue;
          }
          kept[attribute] = value;
        }
        // A checkbox on the page never takes input.
        if (tagName === 'input') kept['disabled'] = '';
        return { tagName, attribs: kept };
      },
    },
    exclusiveFilter: (frame) => frame.tag === 'input' && !taskCheckbox(frame.attribs),
    // marked escapes quotes in text as `&quot;` and `&#39;`; the sanitizer (which decodes
    // entities to check what they spell) writes them back the same way.
    textFilter: (text) => text.replace(/"/g, '&quot;').replace(/'/g, '&#39;'),
  };
}

/** Markdown that cannot be rendered: quotes or lists nested so deeply that marked runs out of stack. */
export class UnrenderableMarkdown extends Error {
  constructor(cause: unknown) {
    super('nests too deeply to be rendered (quotes or lists)', { cause });
    this.name = 'UnrenderableMarkdown';
  }
}

/**
 * Renders an editor's Markdown to the HTML a page may show, and says what was removed. Throws
 * UnrenderableMarkdown when marked cannot parse it (`>>>>…` thousands deep).
 */
export function renderMarkdown(source: string): RenderedMarkdown {
  const report = new DropReport();
  let unsafe: string;
  try {
    unsafe = markdown.parse(source, { async: false });
  } catch (error) {
    throw new UnrenderableMarkdown(error);
  }
  // The sanitizer writes void elements as `<br />`, marked as `<br>`. ` />` can come only from that
  // serializer: text and attribute values leave it with `>` escaped as `&gt;`.
  const html = sanitizeHtml(unsafe, sanitizerOptions(report)).replaceAll(' />', '>');
  return { html, dropped: report.list() };
}
