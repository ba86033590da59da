/**
 * An item's file text (the import/export format, and the build's snapshot): YAML, or YAML front
 * matter + Markdown, as kinds.ts and paths.ts describe each kind. Apart from them because the YAML
 * library is the largest part of it: the server and the studio's version history load it, the
 * item editor and the studio's lists do not (docs/performance.md).
 */
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { kindPaths, markdownBodyKey, type ContentKind } from './paths.ts';

function yamlText(data: unknown): string {
  return stringifyYaml(data, { lineWidth: 0 });
}

/** The file text of an item's data. */
export function fileTextOf(kind: ContentKind, data: unknown): string {
  if (kindPaths[kind].format === 'yaml') return yamlText(data);
  const { [markdownBodyKey]: body, ...front } = (data ?? {}) as Record<string, unknown>;
  return `---\n${yamlText(front)}---\n${typeof body === 'string' ? `${body.trimEnd()}\n` : ''}`;
}

/** An item's data from its file text; throws an Error saying why when the text cannot be read. */
export function dataOfFile(kind: ContentKind, text: string): unknown {
  const source = text.replace(/^\uFEFF/, '');
  // YAML 1.2 core schema: dates stay strings, as the schemas expect (load.ts reads the same way).
  const yaml = (value: string) => parseYaml(value, { uniqueKeys: true }) as unknown;
  if (kindPaths[kind].format === 'yaml') return yaml(source);
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(source);
  if (!match) throw new Error('must start with YAML front matter between --- lines');
  const front = yaml(match[1] ?? '');
  if (front === null || typeof front !== 'object' || Array.isArray(front))
    throw new Error('front matter must be a YAML mapping');
  return normalizedData(kind, { ...(front as Record<string, unknown>), [markdownBodyKey]: match[2] ?? '' });
}

/**
 * An item's data as it is kept: a Markdown body without trailing white space (the file adds one
 * line end), so the same text saved, exported and imported again is the same data.
 */
export function normalizedData(kind: ContentKind, data: unknown): unknown {
  if (kindPaths[kind].format !== 'markdown' || data === null || typeof data !== 'object' || Array.isArray(data))
    return data;
  const body = (data as Record<string, unknown>)[markdownBodyKey];
  return typeof body === 'string' ? { ...(data as Record<string, unknown>), [markdownBodyKey]: body.trimEnd() } : data;
}
