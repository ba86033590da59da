/**
 * The API reference as one plain HTML page (GET /api/reference), rendered on the server from the
 * OpenAPI document: each operation with its parameters, body fields, answer and codes. No script
 * at all, and its one stylesheet is allowed by hash, so it works under a strict
 * Content-Security-Policy (docs/security.md) and in any browser.
 */
import { createHash } from 'node:crypto';
import type { JsonSchema } from './describe.ts';
import type { ApiDocument, FinishedOperation } from './document.ts';

type Schema = JsonSchema;

const style = [
  'body{font:15px/1.5 system-ui,sans-serif;margin:0 auto;max-width:70rem;padding:1rem 2rem;color:#1f2328}',
  'h2{border-bottom:1px solid #d0d7de;margin-top:2.5rem}',
  'section{border:1px solid #d0d7de;border-radius:6px;margin:1rem 0;padding:0 1rem 1rem}',
  'h3 code{font-size:1rem}',
  '.method{display:inline-block;min-width:4rem;font-weight:600}',
  'table{border-collapse:collapse;margin:.5rem 0}th,td{border:1px solid #d0d7de;padding:.25rem .5rem;text-align:left;vertical-align:top}',
  'pre{background:#f6f8fa;overflow:auto;padding:.5rem;max-height:24rem}',
  'nav ul{columns:2}',
].join('\n');

/** The page's Content-Security-Policy: nothing but its own stylesheet. */
export const referencePagePolicy = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(style).digest('base64')}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => escapes[character] ?? character);
}

/** A description (CommonMark in OpenAPI) as escaped text whose `code spans` stay code. */
function prose(text: string): string {
  return escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');
}

/** A schema in one short line (type, format, limits), for the tables. */
function schemaLine(schema: Schema | undefined): string {
  if (!schema) return '';
  const parts: string[] = [];
  const type = schema.type ?? (schema['enum'] ? 'enum' : schema['anyOf'] || schema['oneOf'] ? 'one of' : 'any');
  parts.push(Array.isArray(type) ? type.join(' | ') : String(type));
  if (schema.format) parts.push(schema.format);
  if (Array.isArray(schema['enum'])) parts.push(schema['enum'].map(String).join(', '));
  if (schema['const'] !== undefined) parts.push(`= ${String(schema['const'])}`);
  for (const key of ['minLength', 'maxLength', 'minimum', 'maximum', 'pattern'] as const) {
    if (schema[key] !== undefined) parts.push(`${key} ${String(schema[key])}`);
  }
  return parts.join(' · ');
}

function fieldTable(rows: { name: string; required: boolean; schema: Schema | undefined }[]): string {
  if (rows.length === 0) return '<p>None.</p>';
  const body = rows
    .map(
      (row) =>
        `<tr><td><code>${escapeHtml(row.name)}</code></td><td>${row.required ? 'yes' : ''}</td><td>${escapeHtml(schemaLine(row.schema))}</td></tr>`,
    )
    .join('');
  return `<table><thead><tr><th>field</th><th>required</th><th>schema</th></tr></thead><tbody>${body}</tbody></table>`;
}

function operationSection(path: string, method: string, operation: FinishedOperation): string {
  const parameters = operation.parameters ?? [];
  const query = parameters.filter((parameter) => parameter.in === 'query');
  const body = operation.requestBody;
  const bodyTypes = Object.keys(body?.content ?? {});
  const bodySchema = body?.content[bodyTypes[0] ?? '']?.schema;
  const answer = (operation.responses['200'] ?? { description: '' }) as {
    description: string;
    content?: Record<string, { schema: JsonSchema }>;
  };
  const answerSchema = Object.values(answer.content ?? {})[0]?.schema;
  const codes = operation['x-codes'].join(', ');
  const signedIn = (operation.security ?? []).length > 0;
  return [
    `<section id="${escapeHtml(`${method}-${path}`)}">`,
    `<h3><span class="method">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></h3>`,
    `<p>${escapeHtml(operation.summary ?? '')}${signedIn ? ' <em>(signed in)</em>' : ''}</p>`,
    operation.description ? `<p>${prose(operation.description)}</p>` : '',
    query.length ? '<h4>Query</h4>' : '',
    query.length
      ? fieldTable(query.map((p) => ({ name: p.name, required: p.required ?? false, schema: p.schema as Schema })))
      : '',
    body ? `<h4>Body (${escapeHtml(bodyTypes.join(', '))})</h4>` : '',
    body
      ? fieldTable(
          Object.entries(bodySchema?.properties ?? {}).map(([name, schema]) => ({
            name,
            required: bodySchema?.required?.includes(name) ?? false,
            schema: schema as Schema,
          })),
        )
      : '',
    `<h4>Answer</h4><p>${prose(answer.description ?? '')}</p>`,
    `<p>Codes other than 200: ${escapeHtml(codes || 'none')}.</p>`,
    `<details><summary>Answer schema</summary><pre>${escapeHtml(JSON.stringify(answerSchema, null, 2))}</pre></details>`,
    '</section>',
  ].join('\n');
}

/** The whole page: a table of contents by module, then every operation. */
export function referencePage(document: ApiDocument): string {
  const byTag = new Map<string, string[]>();
  const contents: string[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const tag = operation.tags?.[0] ?? '';
      byTag.set(tag, [...(byTag.get(tag) ?? []), operationSection(path, method, operation)]);
      contents.push(
        `<li><a href="#${escapeHtml(`${method}-${path}`)}">${method.toUpperCase()} ${escapeHtml(path)}</a></li>`,
      );
    }
  }
  const sections = [...byTag.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([tag, operations]) => `<h2>${escapeHtml(tag)}</h2>\n${operations.join('\n')}`);
  const intro = (document.info.description ?? '')
    .split('\n\n')
    .map((paragraph) => `<p>${prose(paragraph)}</p>`)
    .join('\n');
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(document.info.title)}</title>`,
    `<style>${style}</style>`,
    '</head><body>',
    `<h1>${escapeHtml(document.info.title)}</h1>`,
    intro,
    '<p>The machine-readable description: <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI 3.1).</p>',
    `<nav><ul>${contents.join('')}</ul></nav>`,
    ...sections,
    '</body></html>',
  ].join('\n');
}
