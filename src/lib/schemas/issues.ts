/**
 * Turns zod issues into the spec's generic form-validation messages (§5): required, string /
 * number / array length min, max and range, enum, whitespace, date, type and pattern.
 * The message is `validation.<kind>` with `{label}` = the field's localized label (`field.<name>`
 * when the dictionaries have it, else `field.value`). Shared by the server (400 answers) and the
 * forms, so it takes the translator as an argument and imports no dictionary itself.
 */
import type { z } from 'zod/mini';
import type { MessageKey, MessageVars } from '../i18n/index.ts';
import type { FieldError } from '../apiCodes.ts';

export type Translate = (key: MessageKey, vars?: MessageVars) => string;

export interface IssueContext {
  /** The value that was validated (the whole body or query), to tell "missing" from "wrong". */
  input: unknown;
  /** The schema that produced the issues, read for the other bound of a range. */
  schema?: z.core.$ZodType;
  t: Translate;
  /** Whether a string is a dictionary key (custom rules name their message by key). */
  hasKey: (key: string) => key is MessageKey;
}

/** Field names that share another field's label. */
export const fieldLabelAliases: Readonly<Record<string, string>> = {
  mobile: 'phone',
  telephone: 'phone',
  phoneNumber: 'phone',
  code: 'smsCode',
  verifyCode: 'smsCode',
};

/** `a.b.0` style name of the issue's field; `value` for the root. */
export function issueField(path: readonly PropertyKey[]): string {
  return path.length ? path.map(String).join('.') : 'value';
}

/** The dictionary key of the field's label: its last named path segment, else `field.value`. */
export function labelKeyFor(path: readonly PropertyKey[], hasKey: (key: string) => key is MessageKey): MessageKey {
  const name = [...path].reverse().find((segment): segment is string => typeof segment === 'string');
  if (name) {
    const key = `field.${fieldLabelAliases[name] ?? name}`;
    if (hasKey(key)) return key;
  }
  return 'field.value';
}

/** One localized message for one issue. */
export function localizeIssue(issue: z.core.$ZodIssue, context: IssueContext): FieldError {
  const { t } = context;
  const label = inSentence(t(labelKeyFor(issue.path, context.hasKey)));
  const [key, vars] = describeIssue(issue, context);
  return { field: issueField(issue.path), message: sentenceCase(t(key, { label, ...vars })) };
}

/**
 * A field's label as a word inside a sentence: labels are written as labels ("Enterprise name"),
 * a sentence names the field in lower case ("Please enter enterprise name"), except a label that
 * opens with an abbreviation ("SMS code") or a script without case.
 */
export function inSentence(label: string): string {
  const [first = '', second = ''] = [...label];
  return second !== second.toLowerCase() ? label : first.toLowerCase() + label.slice(first.length);
}

/** A message that opens with a label still starts with a capital. */
function sentenceCase(message: string): string {
  return message.charAt(0).toUpperCase() + message.slice(1);
}

export function localizeIssues(issues: readonly z.core.$ZodIssue[], context: IssueContext): FieldError[] {
  return issues.map((issue) => localizeIssue(issue, context));
}

type Described = [MessageKey, MessageVars];

function describeIssue(issue: z.core.$ZodIssue, context: IssueContext): Described {
  // A rule about a field that is absent by nature (an unticked checkbox) says its own message.
  if (issue.code === 'custom' && issue.params?.['ownMessage'] === true && context.hasKey(issue.message))
    return [issue.message, {}];
  const value = valueAt(context.input, issue.path);
  if (value === undefined || value === null || value === '') return ['validation.required', {}];
  if (typeof value === 'string' && value.trim() === '') return ['validation.whitespace', {}];
  if (issue.code === 'custom' && context.hasKey(issue.message)) return [issue.message, {}];

  switch (issue.code) {
    case 'invalid_type': {
      const typeName = typeNameKey(issue.expected);
      if (typeName && context.hasKey(typeName)) {
        return ['validation.type', { type: context.t(typeName) }];
      }
      return ['validation.default', {}];
    }
    case 'too_small':
    case 'too_big':
      return describeSize(issue, context);
    case 'invalid_format': {
      if (context.hasKey(issue.message)) return [issue.message, {}];
      if (issue.format === 'email' || issue.format === 'url') {
        const typeName = issue.format === 'email' ? 'validation.typeName.email' : 'validation.typeName.url';
        return ['validation.type', { type: context.t(typeName) }];
      }
      if (issue.format === 'date' || issue.format === 'datetime' || issue.format === 'time') {
        return ['validation.date', {}];
      }
      return ['validation.pattern', {}];
    }
    case 'invalid_value':
      return ['validation.enum', { enum: issue.values.map(String).join(', ') }];
    default:
      return ['validation.default', {}];
  }
}

function describeSize(issue: z.core.$ZodIssueTooSmall | z.core.$ZodIssueTooBig, context: IssueContext): Described {
  const family = sizeFamily(issue.origin);
  if (!family) return ['validation.default', {}];
  const bound = Number(issue.code === 'too_small' ? issue.minimum : issue.maximum);
  if (issue.exact) return [`validation.${family}.len`, { len: bound }];
  const bounds = boundsOf(context.schema && schemaAt(context.schema, issue.path));
  if (bounds.min !== undefined && bounds.max !== undefined) {
    if (bounds.min === bounds.max) return [`validation.${family}.len`, { len: bounds.min }];
    return [`validation.${family}.range`, { min: bounds.min, max: bounds.max }];
  }
  return issue.code === 'too_small'
    ? [`validation.${family}.min`, { min: bound }]
    : [`validation.${family}.max`, { max: bound }];
}

function sizeFamily(origin: string): 'string' | 'number' | 'array' | undefined {
  if (origin === 'string') return 'string';
  if (origin === 'number' || origin === 'int' || origin === 'bigint') return 'number';
  if (origin === 'array' || origin === 'set') return 'array';
  return undefined;
}

function typeNameKey(expected: string): MessageKey | undefined {
  const names: Record<string, MessageKey> = {
    string: 'validation.typeName.string',
    number: 'validation.typeName.number',
    int: 'validation.typeName.integer',
    bigint: 'validation.typeName.integer',
    boolean: 'validation.typeName.boolean',
    date: 'validation.typeName.date',
    array: 'validation.typeName.array',
    tuple: 'validation.typeName.array',
    set: 'validation.typeName.array',
    object: 'validation.typeName.object',
    record: 'validation.typeName.object',
    map: 'validation.typeName.object',
  };
  return names[expected];
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current: unknown = root;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return current;
}

/** The parts of zod's internal definition this module reads (zod 4 `_zod.def`). */
interface SchemaDef {
  type: string;
  innerType?: SchemaLike;
  in?: SchemaLike;
  shape?: Record<string, SchemaLike>;
  element?: SchemaLike;
  valueType?: SchemaLike;
  checks?: { _zod: { def: CheckDef } }[];
}
interface CheckDef {
  check: string;
  minimum?: number;
  maximum?: number;
  length?: number;
  size?: number;
  value?: unknown;
}
interface SchemaLike {
  _zod: { def: SchemaDef };
}

const wrappers = new Set(['optional', 'nullable', 'default', 'prefault', 'nonoptional', 'readonly', 'catch']);

function unwrap(schema: SchemaLike | undefined): SchemaLike | undefined {
  let current = schema;
  for (let guard = 0; current && guard < 20; guard += 1) {
    const def = current._zod.def;
    if (wrappers.has(def.type)) current = def.innerType;
    else if (def.type === 'pipe') current = def.in;
    else return current;
  }
  return current;
}

function schemaAt(schema: z.core.$ZodType, path: readonly PropertyKey[]): SchemaLike | undefined {
  let current = unwrap(schema as unknown as SchemaLike);
  for (const segment of path) {
    if (!current) return undefined;
    const def = current._zod.def;
    if (def.type === 'object' && typeof segment === 'string') current = unwrap(def.shape?.[segment]);
    else if (def.type === 'array') current = unwrap(def.element);
    else if (def.type === 'record') current = unwrap(def.valueType);
    else return undefined;
  }
  return current;
}

interface Bounds {
  min: number | undefined;
  max: number | undefined;
}

function boundsOf(schema: SchemaLike | undefined): Bounds {
  const bounds: Bounds = { min: undefined, max: undefined };
  for (const check of schema?._zod.def.checks ?? []) {
    const def = check._zod.def;
    switch (def.check) {
      case 'min_length':
      case 'min_size':
        bounds.min = def.minimum;
        break;
      case 'max_length':
      case 'max_size':
        bounds.max = def.maximum;
        break;
      case 'length_equals':
        bounds.min = bounds.max = def.length;
        break;
      case 'size_equals':
        bounds.min = bounds.max = def.size;
        break;
      case 'greater_than':
        if (typeof def.value === 'number') bounds.min = def.value;
        break;
      case 'less_than':
        if (typeof def.value === 'number') bounds.max = def.value;
        break;
    }
  }
  return bounds;
}
