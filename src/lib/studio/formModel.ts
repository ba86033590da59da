/**
 * The studio's item editor is generated from the item's zod schema (the build's own schema,
 * src/content/kinds.ts): this module walks a zod 4 schema (`_zod.def`) into a tree of fields —
 * text, Markdown, number, checkbox, choice, object, repeatable list, key/value map — and keeps
 * the pure operations on the edited data (read, write, add, remove, move at a dotted path).
 * The editor renders the tree (ItemForm.tsx); validation stays with the schema itself
 * (validateForm), so this module never decides what is valid.
 */
import type { z } from 'zod/mini';
import { markdownBodyKey, type ContentKind } from '../../content/paths.ts';
import { kindSpecs } from '../../content/kinds.ts';
import { referenceFieldsOf, type ReferenceField } from '../../content/references.ts';
import { dateField, markdownField } from '../../content/schemas.ts';

/** The parts of zod's internal definition the walker reads. */
interface Def {
  type: string;
  innerType?: SchemaLike;
  in?: SchemaLike;
  shape?: Record<string, SchemaLike>;
  element?: SchemaLike;
  valueType?: SchemaLike;
  options?: SchemaLike[];
  entries?: Record<string, string | number>;
  values?: unknown[];
  defaultValue?: unknown;
  checks?: {
    _zod: {
      def: {
        check: string;
        minimum?: number;
        maximum?: number;
        value?: unknown;
        inclusive?: boolean;
        length?: number;
        format?: string;
      };
    };
  }[];
}
interface SchemaLike {
  _zod: { def: Def };
}

interface Base {
  /** The field may be left out (zod `optional`). */
  optional: boolean;
  /** What the build fills in when the field is left out (zod `default`); undefined when none. */
  defaultValue?: unknown;
  /**
   * The field names other content (content/references.ts): chosen from that content's choices.
   * On a list node (a `set` reference) the whole list is chosen in one group.
   */
  reference?: ReferenceField;
}

/** How a text field is entered: one line, several lines, a date, an image path. */
export type TextInput = 'line' | 'multiline' | 'date' | 'image';

export type FieldNode = Base &
  (
    | { type: 'text'; input: TextInput; maxLength?: number | undefined }
    | { type: 'markdown' }
    | { type: 'number'; integer: boolean; min?: number | undefined; max?: number | undefined }
    | { type: 'boolean' }
    | { type: 'choice'; options: readonly (string | number)[] }
    | { type: 'object'; fields: readonly ObjectField[] }
    | { type: 'list'; element: FieldNode; minItems?: number | undefined; maxItems?: number | undefined }
    | { type: 'map'; value: FieldNode }
    | { type: 'unsupported'; zodType: string }
  );

export interface ObjectField {
  key: string;
  node: FieldNode;
}

/** Plain strings up to this length get one line; longer ones (summaries) a few lines. */
const lineLimit = 120;

interface WalkOptions {
  /** Keys of the root object that hold Markdown (the `body` of a Markdown kind). */
  markdownKeys?: readonly string[];
  /** The field's own key (an `image` key holds an image path). */
  key?: string | undefined;
}

function defOf(schema: SchemaLike): Def {
  return schema._zod.def;
}

function check(def: Def, name: string) {
  return def.checks?.map((entry) => entry._zod.def).find((entry) => entry.check === name);
}

/** Turns a zod schema into the editor's field tree. */
export function fieldTree(schema: z.ZodMiniType, options: WalkOptions = {}): FieldNode {
  return walk(schema as unknown as SchemaLike, options, true);
}

function walk(schema: SchemaLike, options: WalkOptions, root = false): FieldNode {
  let current = schema;
  let optional = false;
  let defaultValue: unknown;
  // Wrappers first: they say whether the field may be left out and what it then becomes.
  for (let guard = 0; guard < 20; guard += 1) {
    const def = defOf(current);
    if ((def.type === 'optional' || def.type === 'nullable') && def.innerType) {
      optional = true;
      current = def.innerType;
    } else if ((def.type === 'default' || def.type === 'prefault') && def.innerType) {
      defaultValue ??= def.defaultValue;
      current = def.innerType;
    } else if ((def.type === 'readonly' || def.type === 'catch' || def.type === 'nonoptional') && def.innerType) {
      current = def.innerType;
    } else break;
  }
  const base: Base = defaultValue === undefined ? { optional } : { optional, defaultValue };
  if ((current as unknown) === markdownField) return { ...base, type: 'markdown' };
  const def = defOf(current);
  switch (def.type) {
    case 'pipe':
      // A transform after the input: the editor writes the input.
      return def.in ? { ...walk(def.in, options), ...base } : { ...base, type: 'unsupported', zodType: 'pipe' };
    case 'string': {
      if ((current as unknown) === dateField) return { ...base, type: 'text', input: 'date' };
      if (options.key === 'image') return { ...base, type: 'text', input: 'image' };
      const maxLength = check(def, 'max_length')?.maximum;
      const input: TextInput = maxLength !== undefined && maxLength > lineLimit ? 'multiline' : 'line';
      return { ...base, type: 'text', input, maxLength };
    }
    case 'number': {
      const integer =
        def.checks?.some((entry) => {
          const inner = entry._zod.def;
          return inner.check === 'number_format' && (inner.format === 'safeint' || inner.format === 'int32');
        }) ?? false;
      const min = numberBound(def, 'greater_than');
      const max = numberBound(def, 'less_than');
      return { ...base, type: 'number', integer, min, max };
    }
    case 'boolean':
      return { ...base, type: 'boolean' };
    case 'enum':
      return { ...base, type: 'choice', options: Object.values(def.entries ?? {}) };
    case 'literal':
      return { ...base, type: 'choice', options: (def.values ?? []).filter(isChoice) };
    case 'union': {
      const literals = (def.options ?? []).map(defOf);
      if (literals.every((option) => option.type === 'literal')) {
        return {
          ...base,
          type: 'choice',
          options: literals.flatMap((option) => (option.values ?? []).filter(isChoice)),
        };
      }
      return { ...base, type: 'unsupported', zodType: 'union' };
    }
    case 'object': {
      const markdownKeys = root ? (options.markdownKeys ?? []) : [];
      const fields = Object.entries(def.shape ?? {}).map(([key, value]) => ({
        key,
        node: markdownKeys.includes(key) ? markdownOf(walk(value, { key })) : walk(value, { key }),
      }));
      return { ...base, type: 'object', fields };
    }
    case 'array':
      return def.element
        ? {
            ...base,
            type: 'list',
            element: walk(def.element, { key: options.key }),
            minItems: check(def, 'min_length')?.minimum ?? check(def, 'length_equals')?.length,
            maxItems: check(def, 'max_length')?.maximum ?? check(def, 'length_equals')?.length,
          }
        : { ...base, type: 'unsupported', zodType: 'array' };
    case 'record':
      return def.valueType
        ? { ...base, type: 'map', value: walk(def.valueType, {}) }
        : { ...base, type: 'unsupported', zodType: 'record' };
    default:
      return { ...base, type: 'unsupported', zodType: def.type };
  }
}

function markdownOf(node: FieldNode): FieldNode {
  return node.type === 'text'
    ? {
        optional: node.optional,
        ...(node.defaultValue === undefined ? {} : { defaultValue: node.defaultValue }),
        type: 'markdown',
      }
    : node;
}

function numberBound(def: Def, name: 'greater_than' | 'less_than'): number | undefined {
  const found = check(def, name);
  return typeof found?.value === 'number' ? found.value : undefined;
}

function isChoice(value: unknown): value is string | number {
  return typeof value === 'string' || typeof value === 'number';
}

/**
 * The field tree of a kind's items: its schema, with the body of a Markdown kind as Markdown and
 * the fields that name other content marked with their reference (content/references.ts).
 */
export function fieldTreeOfKind(kind: ContentKind): FieldNode {
  const spec = kindSpecs[kind];
  let tree = fieldTree(spec.schema, { markdownKeys: spec.format === 'markdown' ? [markdownBodyKey] : [] });
  for (const reference of referenceFieldsOf(kind)) {
    const segments = reference.field.split('.');
    // An ordered list keeps its entries (add, move, remove): each entry is chosen.
    tree = withReference(tree, reference.many === 'ordered' ? [...segments, '*'] : segments, reference);
  }
  return tree;
}

/** The tree with the node at `segments` (`*`: a list's entries) marked as `reference`; a path the schema does not have throws. */
function withReference(node: FieldNode, segments: readonly string[], reference: ReferenceField): FieldNode {
  const [head, ...rest] = segments;
  if (head === undefined) return { ...node, reference };
  if (head === '*' && node.type === 'list') return { ...node, element: withReference(node.element, rest, reference) };
  if (node.type === 'object' && node.fields.some((field) => field.key === head)) {
    return {
      ...node,
      fields: node.fields.map((field) =>
        field.key === head ? { key: field.key, node: withReference(field.node, rest, reference) } : field,
      ),
    };
  }
  throw new Error(`the ${reference.kind} schema has no field ${reference.field}`);
}

/** Every field name in a tree (the keys that need a label), in first-seen order. */
export function fieldNames(node: FieldNode, into: Set<string> = new Set()): Set<string> {
  if (node.type === 'object') {
    for (const field of node.fields) {
      into.add(field.key);
      fieldNames(field.node, into);
    }
  } else if (node.type === 'list') fieldNames(node.element, into);
  else if (node.type === 'map') fieldNames(node.value, into);
  return into;
}

const clone = <T>(value: T): T => structuredClone(value);

/**
 * The value a new field starts with: its default when it has one, nothing when it may be left
 * out (or is a number or a choice the editor must pick), else an empty value of its shape — a
 * list with as many empty entries as it needs at least.
 */
export function emptyValue(node: FieldNode): unknown {
  if (node.defaultValue !== undefined) return clone(node.defaultValue);
  if (node.optional) return undefined;
  switch (node.type) {
    case 'text':
    case 'markdown':
      return '';
    case 'boolean':
      return false;
    case 'object': {
      const value: Record<string, unknown> = {};
      for (const field of node.fields) {
        const initial = emptyValue(field.node);
        if (initial !== undefined) value[field.key] = initial;
      }
      return value;
    }
    case 'list':
      return Array.from(
        { length: node.minItems ?? 0 },
        () => emptyValue(node.element) ?? elementFallback(node.element),
      );
    case 'map':
      return {};
    default:
      return undefined;
  }
}

/** A list entry needs a value even where a lone field would be left out. */
function elementFallback(node: FieldNode): unknown {
  return node.type === 'object' ? {} : node.type === 'text' || node.type === 'markdown' ? '' : null;
}

/** A new entry for a list. */
export function newListEntry(element: FieldNode): unknown {
  return emptyValue({ ...element, optional: false }) ?? elementFallback(element);
}

// ---------------------------------------------------------------------------------------------
// The edited data, changed at a path (`['descList', 0, 'desc']`, shown as `descList.0.desc`)

export type FieldPath = readonly (string | number)[];

/** The dotted name of a path: the same names as the schema's issues and the server's errors. */
export function pathName(path: FieldPath): string {
  return path.map(String).join('.');
}

export function getAt(data: unknown, path: FieldPath): unknown {
  let current = data;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string | number, unknown>)[segment];
  }
  return current;
}

/** A copy of `data` with the value at `path` replaced; `undefined` removes an object's key. */
export function setAt(data: unknown, path: FieldPath, value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path as [string | number, ...(string | number)[]];
  if (typeof head === 'number') {
    const list = Array.isArray(data) ? [...(data as unknown[])] : [];
    list[head] = setAt(list[head], rest, value);
    return list;
  }
  const record: Record<string, unknown> =
    data !== null && typeof data === 'object' && !Array.isArray(data) ? { ...(data as Record<string, unknown>) } : {};
  const next = setAt(record[head], rest, value);
  if (next === undefined) delete record[head];
  else record[head] = next;
  return record;
}

/** The list at `path`, changed by `change` (a copy; a missing list counts as empty). */
function changeList(data: unknown, path: FieldPath, change: (list: unknown[]) => unknown[]): unknown {
  const current = getAt(data, path);
  return setAt(data, path, change(Array.isArray(current) ? [...(current as unknown[])] : []));
}

export function appendAt(data: unknown, path: FieldPath, value: unknown): unknown {
  return changeList(data, path, (list) => [...list, value]);
}

export function removeAt(data: unknown, path: FieldPath, index: number): unknown {
  return changeList(data, path, (list) => list.filter((_, position) => position !== index));
}

/** Moves entry `index` of the list at `path` by `offset` places (−1 up, +1 down); out of range leaves it. */
export function moveAt(data: unknown, path: FieldPath, index: number, offset: number): unknown {
  return changeList(data, path, (list) => {
    const target = index + offset;
    if (index < 0 || index >= list.length || target < 0 || target >= list.length) return list;
    const [moved] = list.splice(index, 1);
    list.splice(target, 0, moved);
    return list;
  });
}

/** Renames a key of the map at `path`, keeping its place; refused (unchanged) when the new key is taken. */
export function renameKeyAt(data: unknown, path: FieldPath, from: string, to: string): unknown {
  const current = getAt(data, path);
  const record =
    current !== null && typeof current === 'object' && !Array.isArray(current)
      ? (current as Record<string, unknown>)
      : {};
  if (from === to || Object.hasOwn(record, to)) return data;
  return setAt(
    data,
    path,
    Object.fromEntries(Object.entries(record).map(([key, value]) => [key === from ? to : key, value])),
  );
}

/** A map key no entry uses yet (`newKey`, `newKey2`, …). */
export function freeKey(record: unknown, stem: string): string {
  const taken = record !== null && typeof record === 'object' ? Object.keys(record) : [];
  if (!taken.includes(stem)) return stem;
  for (let n = 2; ; n += 1) if (!taken.includes(`${stem}${n}`)) return `${stem}${n}`;
}

/**
 * What a number input's text means: nothing when empty, the number when it reads as one, else
 * the text itself, so the schema says "must be a number" at the field instead of the text vanishing.
 */
export function numberFromInput(text: string): number | string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : text;
}

/** What a text input's text means for a field: an optional field left empty is left out. */
export function textFromInput(node: FieldNode, text: string): string | undefined {
  return node.optional && text === '' ? undefined : text;
}

/**
 * The field errors that no field of the tree shows (a rule on a whole list or file, or a path
 * the form does not have), so the editor can list them above the form instead of losing them.
 */
export function errorsWithoutField(node: FieldNode, data: unknown, errors: Readonly<Record<string, string>>): string[] {
  const shown = new Set<string>();
  const visit = (current: FieldNode, path: FieldPath) => {
    shown.add(pathName(path));
    if (current.type === 'object') for (const field of current.fields) visit(field.node, [...path, field.key]);
    else if (current.type === 'list') {
      const list = getAt(data, path);
      if (Array.isArray(list)) list.forEach((_, index) => visit(current.element, [...path, index]));
    } else if (current.type === 'map') {
      const record = getAt(data, path);
      if (record && typeof record === 'object')
        for (const key of Object.keys(record)) visit(current.value, [...path, key]);
    }
  };
  visit(node, []);
  return Object.keys(errors).filter((field) => !shown.has(field));
}
