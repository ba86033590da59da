import { useId, useState, type ReactNode } from 'react';
import type { Choice, Choices, ReferenceField } from '../../content/references.ts';
import { OK } from '../../lib/apiCodes.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import { labelCase } from '../auth/formValidation.ts';
import {
  appendAt,
  freeKey,
  getAt,
  moveAt,
  newListEntry,
  numberFromInput,
  pathName,
  removeAt,
  renameKeyAt,
  setAt,
  textFromInput,
  type FieldNode,
  type FieldPath,
} from '../../lib/studio/formModel.ts';
import { markdownBodyKey } from '../../content/paths.ts';
import { translationsKey } from '../../content/translations.ts';
import { statusBadgeClass } from '../../lib/statusBadges.ts';
import { droppedText } from './markdownPreview.ts';
import { uploadImage } from '../../lib/api/studio.ts';
import { say, type FieldLabels, type StudioMessages } from '../../lib/studio/messages.ts';
import { useMarkdownPreview } from './useMarkdownPreview.ts';

export interface FormContext {
  data: unknown;
  /** The data after a change, and where it changed (a field, or a list or map as a whole). */
  onChange: (data: unknown, at: FieldPath) => void;
  /** Sets one field on the data as it is when called (an upload finishes after other edits). */
  setField: (path: FieldPath, value: unknown) => void;
  errors: Readonly<Record<string, string>>;
  labels: FieldLabels;
  messages: StudioMessages;
  locale: Locale;
  /** Shown when an image upload is refused. */
  onUploadError: (field: string, message: string) => void;
  /** What the reference fields may name (the studio's choices call); undefined: they are typed as text. */
  choices?: Choices | undefined;
  /** The edited item's region, for references that only fit within it (content/references.ts `narrow`). */
  areaCode?: string | undefined;
}

interface FieldProps {
  node: FieldNode;
  path: FieldPath;
  /** The field's label as read aloud and shown (a list entry: "标题 第 2 项"). */
  label: string;
  context: FormContext;
  /** A list entry or map value has no label of its own shown above it. */
  bare?: boolean;
  /** Shown in an empty text control (a translation not written yet). */
  placeholder?: string | undefined;
}

/**
 * The item editor's fields, drawn from the field tree (formModel.ts): one labelled control per
 * leaf, fieldsets for groups, repeatable entries with add / remove / move, key/value groups for
 * maps. Controls are named by their dotted path (`descList.0.desc`), the same name the schema's
 * issues and the server's field errors use, so every message lands at its field.
 */
export default function ItemForm({
  node,
  context,
  rootLabel,
}: {
  node: FieldNode;
  context: FormContext;
  rootLabel: string;
}) {
  if (node.type === 'object') return <ObjectFields node={node} path={[]} context={context} />;
  return <Field node={node} path={[]} label={rootLabel} context={context} />;
}

function labelOfKey(key: string, labels: FieldLabels): string {
  return labelCase(labels[key] ?? key);
}

function ObjectFields({
  node,
  path,
  context,
}: {
  node: Extract<FieldNode, { type: 'object' }>;
  path: FieldPath;
  context: FormContext;
}) {
  return (
    <div className="grid gap-1">
      {node.fields.map((field) => (
        <Field
          key={field.key}
          node={field.node}
          path={[...path, field.key]}
          label={labelOfKey(field.key, context.labels)}
          context={context}
        />
      ))}
    </div>
  );
}

function Field(props: FieldProps) {
  const { node } = props;
  switch (node.type) {
    case 'object':
      if (props.path.at(-1) === translationsKey) return <TranslationsGroup {...props} node={node} />;
      return (
        <Group {...props}>
          <ObjectFields node={node} path={props.path} context={props.context} />
        </Group>
      );
    case 'list':
      return <ListField {...props} node={node} />;
    case 'map':
      return <MapField {...props} node={node} />;
    case 'markdown':
      return <MarkdownField {...props} />;
    default:
      return <LeafField {...props} />;
  }
}

/**
 * An object's translations (content/translations.ts): per locale a section that says how much of
 * it is translated, opened on demand; in it each field shows its Chinese original above the
 * translation's control. An empty control means "not translated yet": the pages show the original.
 */
function TranslationsGroup({
  node,
  path,
  label,
  context,
}: FieldProps & { node: Extract<FieldNode, { type: 'object' }> }) {
  const { data, messages } = context;
  const owner = path.slice(0, -1);
  // A Markdown kind's body is edited as `body` and translated under its loaded name (`content` of help and notices).
  const originalPath = (key: string): FieldPath =>
    owner.length === 0 && getAt(data, [key]) === undefined ? [markdownBodyKey] : [...owner, key];
  return (
    <Group node={node} path={path} label={label} context={context}>
      <p className="text-xs text-base-content/70">{messages['studio.translation.hint']}</p>
      {node.fields.map(({ key: locale, node: perLocale }) => {
        if (perLocale.type !== 'object') return null;
        const fields = perLocale.fields.filter((field) => {
          const original = getAt(data, originalPath(field.key));
          return typeof original === 'string' && original !== '';
        });
        const done = fields.filter((field) => {
          const text = getAt(data, [...path, locale, field.key]);
          return typeof text === 'string' && text.trim() !== '';
        }).length;
        const status =
          done === 0
            ? messages['studio.translation.none']
            : done < fields.length
              ? say(messages, 'studio.translation.partly', { done, total: fields.length })
              : messages['studio.translation.done'];
        const localeLabel = labelOfKey(locale, context.labels);
        return (
          <details key={locale} className="rounded-box border border-base-300" data-field={pathName([...path, locale])}>
            <summary className="flex min-h-11 cursor-pointer flex-wrap items-center gap-2 px-3 text-sm">
              <span className="font-medium">{localeLabel}</span>
              <span
                className={statusBadgeClass(
                  'translation',
                  done === 0 ? 'none' : done < fields.length ? 'partly' : 'done',
                  'sm',
                )}
              >
                {status}
              </span>
            </summary>
            <div className="grid gap-2 border-t border-base-300 p-3">
              {fields.map((field) => {
                const original = String(getAt(data, originalPath(field.key)));
                const fieldLabel = labelOfKey(field.key, context.labels);
                return (
                  <div key={field.key} className="grid gap-1">
                    <div className="rounded-box bg-base-200 p-2 text-sm" lang="zh-CN" data-original>
                      <span className="block text-xs text-base-content/70" lang={context.locale}>
                        {messages['studio.translation.original']} · {fieldLabel}
                      </span>
                      <span className="line-clamp-3 whitespace-pre-line">{original}</span>
                    </div>
                    <Field
                      node={field.node}
                      path={[...path, locale, field.key]}
                      label={`${fieldLabel} · ${localeLabel}`}
                      context={context}
                      placeholder={messages['studio.translation.placeholder']}
                    />
                  </div>
                );
              })}
            </div>
          </details>
        );
      })}
    </Group>
  );
}

/**
 * An error message on its own line directly under its control, tied to it by `aria-describedby`
 * (the control also says `aria-invalid`). Not a daisyUI `.label`: that class's muted grey would
 * win over `text-error` (its layer comes after Tailwind's utilities) and sets it inline beside the
 * hint. The error red is 6:1 on the form's white, 4.9:1 on base-300 (WCAG AA).
 */
function ErrorText({ id, text }: { id: string; text: string | undefined }) {
  return text ? (
    <p id={id} className="mt-1 block text-xs text-error" data-field-error>
      {text}
    </p>
  ) : null;
}

/** A control's hint (what to enter), under its error when it has one. */
function HintText({ id, text }: { id: string; text: string }) {
  return (
    <p id={id} className="label block text-xs whitespace-normal">
      {text}
    </p>
  );
}

/** The ids a control is described by: its error first (read first), then its hint and notes; undefined when none. */
function describedBy(...ids: readonly (string | false | undefined)[]): string | undefined {
  return ids.filter(Boolean).join(' ') || undefined;
}

function optionalMark(node: FieldNode, messages: StudioMessages): ReactNode {
  return node.optional ? (
    <span className="font-normal text-base-content/70"> ({messages['studio.edit.optional']})</span>
  ) : null;
}

function Group({ node, path, label, context, bare, children }: FieldProps & { children: ReactNode }) {
  const id = useId();
  const error = context.errors[pathName(path)];
  return (
    <fieldset
      className={bare ? 'grid gap-1' : 'fieldset mt-2 rounded-box border border-base-300 p-3'}
      data-field={pathName(path)}
      aria-describedby={error ? `${id}-error` : undefined}
      tabIndex={error ? -1 : undefined}
    >
      <legend className={bare ? 'sr-only' : 'fieldset-legend px-1 text-sm'}>
        {label}
        {optionalMark(node, context.messages)}
      </legend>
      <ErrorText id={`${id}-error`} text={error} />
      {children}
    </fieldset>
  );
}

function ListField({ node, path, label, context, bare }: FieldProps & { node: Extract<FieldNode, { type: 'list' }> }) {
  const { data, onChange, messages } = context;
  const choices = node.reference ? choicesAt(node.reference, context, path) : undefined;
  if (choices)
    return (
      <ReferenceGroup
        node={node}
        path={path}
        label={label}
        context={context}
        choices={choices}
        {...(bare ? { bare } : {})}
      />
    );
  const entries = getAt(data, path);
  const list = Array.isArray(entries) ? (entries as unknown[]) : [];
  const element = node.element;
  const simple =
    element.type !== 'object' && element.type !== 'list' && element.type !== 'map' && element.type !== 'markdown';
  const full = node.maxItems !== undefined && list.length >= node.maxItems;

  const buttons = (index: number) => {
    const vars = { label, n: index + 1 };
    return (
      <div className="flex shrink-0 gap-1">
        <button
          type="button"
          className="btn btn-ghost btn-xs"
          disabled={index === 0}
          aria-label={say(messages, 'studio.edit.moveUpEntry', vars)}
          onClick={() => onChange(moveAt(data, path, index, -1), path)}
        >
          <span aria-hidden="true">↑</span> {messages['studio.edit.moveUp']}
        </button>
        <button
          type="button"
          className="btn btn-ghost btn-xs"
          disabled={index === list.length - 1}
          aria-label={say(messages, 'studio.edit.moveDownEntry', vars)}
          onClick={() => onChange(moveAt(data, path, index, 1), path)}
        >
          <span aria-hidden="true">↓</span> {messages['studio.edit.moveDown']}
        </button>
        <button
          type="button"
          className="btn btn-ghost btn-xs text-error"
          aria-label={say(messages, 'studio.edit.removeEntry', vars)}
          onClick={() => onChange(removeAt(data, path, index), path)}
        >
          {messages['studio.edit.remove']}
        </button>
      </div>
    );
  };

  return (
    <Group node={node} path={path} label={label} context={context} {...(bare ? { bare } : {})}>
      {list.length === 0 && <p className="text-sm text-base-content/70">{messages['studio.edit.noEntries']}</p>}
      <ol className="grid gap-2">
        {list.map((_, index) => {
          const entryLabel = `${label} ${say(messages, 'studio.edit.entry', { n: index + 1 })}`;
          return simple ? (
            <li key={index} className="flex items-start gap-2">
              <div className="min-w-0 flex-1">
                <LeafField node={element} path={[...path, index]} label={entryLabel} context={context} bare />
              </div>
              {buttons(index)}
            </li>
          ) : (
            <li key={index} className="rounded-box border border-base-300 bg-base-100 p-3">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span className="text-sm font-medium">{say(messages, 'studio.edit.entry', { n: index + 1 })}</span>
                {buttons(index)}
              </div>
              <Field node={element} path={[...path, index]} label={entryLabel} context={context} bare />
            </li>
          );
        })}
      </ol>
      <div>
        <button
          type="button"
          className="btn btn-sm mt-1"
          disabled={full}
          aria-label={say(messages, 'studio.edit.addTo', { label })}
          onClick={() => onChange(appendAt(data, path, newListEntry(element)), path)}
        >
          + {messages['studio.edit.add']}
        </button>
      </div>
    </Group>
  );
}

function MapField({ node, path, label, context, bare }: FieldProps & { node: Extract<FieldNode, { type: 'map' }> }) {
  const { data, onChange, messages } = context;
  const current = getAt(data, path);
  const record =
    current !== null && typeof current === 'object' && !Array.isArray(current)
      ? (current as Record<string, unknown>)
      : {};
  return (
    <Group node={node} path={path} label={label} context={context} {...(bare ? { bare } : {})}>
      <div className="grid gap-3">
        {Object.keys(record).map((key) => (
          <div key={key} className="rounded-box border border-base-300 bg-base-100 p-3">
            <div className="flex flex-wrap items-end gap-2">
              <MapKey
                value={key}
                label={say(messages, 'studio.edit.keyOf', { label })}
                taken={(next) => next !== key && Object.hasOwn(record, next)}
                context={context}
                onRename={(next) => onChange(renameKeyAt(data, path, key, next), path)}
              />
              <button
                type="button"
                className="btn btn-ghost btn-xs text-error"
                onClick={() => onChange(setAt(data, [...path, key], undefined), path)}
              >
                {say(messages, 'studio.edit.removeKey', { key })}
              </button>
            </div>
            <Field node={node.value} path={[...path, key]} label={`${label} · ${key}`} context={context} bare />
          </div>
        ))}
      </div>
      <div>
        <button
          type="button"
          className="btn btn-sm mt-1"
          onClick={() => onChange(setAt(data, [...path, freeKey(record, 'newKey')], newListEntry(node.value)), path)}
        >
          + {messages['studio.edit.addKey']}
        </button>
      </div>
    </Group>
  );
}

/** A map's key, renamed when the editor leaves the input (typing never collides with another key midway). */
function MapKey({
  value,
  label,
  taken,
  context,
  onRename,
}: {
  value: string;
  label: string;
  taken: (key: string) => boolean;
  context: FormContext;
  onRename: (key: string) => void;
}) {
  const id = useId();
  const [text, setText] = useState(value);
  const clash = taken(text.trim());
  const commit = () => {
    const next = text.trim();
    if (next && !taken(next) && next !== value) onRename(next);
    else if (!next) setText(value);
  };
  return (
    <div className="fieldset py-0">
      <label htmlFor={id} className="fieldset-legend pb-1 text-sm">
        {label}
      </label>
      <input
        id={id}
        className={`input input-sm font-mono ${clash ? 'input-error' : ''}`}
        value={text}
        aria-invalid={clash || undefined}
        aria-describedby={clash ? `${id}-error` : undefined}
        onChange={(event) => setText(event.target.value)}
        onBlur={commit}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            commit();
          }
        }}
      />
      <ErrorText id={`${id}-error`} text={clash ? context.messages['studio.edit.keyTaken'] : undefined} />
    </div>
  );
}

function MarkdownField({ node, path, label, context, bare, placeholder }: FieldProps) {
  const id = useId();
  const { data, onChange, errors, messages } = context;
  const name = pathName(path);
  const value = getAt(data, path);
  const source = typeof value === 'string' ? value : '';
  const preview = useMarkdownPreview(source);
  const error = errors[name];
  const dropped = preview.loading ? [] : (preview.rendered?.dropped ?? []);
  const described = describedBy(error && `${id}-error`, `${id}-hint`, dropped.length > 0 && `${id}-dropped`);
  return (
    <div className="fieldset py-1" data-field={name}>
      <label htmlFor={id} className={bare ? 'sr-only' : 'fieldset-legend pb-1 text-sm'}>
        {label}
        {optionalMark(node, messages)}
      </label>
      {bare && (
        <span aria-hidden="true" className="fieldset-legend pb-1 text-sm">
          {label}
        </span>
      )}
      <div className="grid gap-3 lg:grid-cols-2">
        <div>
          <textarea
            id={id}
            name={name}
            className={`textarea h-64 w-full font-mono text-sm ${error ? 'textarea-error' : ''}`}
            value={source}
            placeholder={placeholder}
            aria-invalid={error ? true : undefined}
            aria-describedby={described}
            onChange={(event) => onChange(setAt(data, path, textFromInput(node, event.target.value)), path)}
          />
          <ErrorText id={`${id}-error`} text={error} />
          <HintText id={`${id}-hint`} text={messages['studio.edit.markdownHint']} />
        </div>
        <div className="grid min-w-0 content-start gap-2">
          <section
            aria-label={say(messages, 'studio.edit.previewOf', { label })}
            aria-busy={preview.loading}
            className="h-64 overflow-auto rounded-box border border-base-300 bg-base-100 p-3"
          >
            <p aria-hidden="true" className="mb-2 flex justify-between gap-2 text-xs text-base-content/70">
              <span>{messages['studio.edit.preview']}</span>
              {preview.loading && <span>{messages['studio.edit.previewLoading']}</span>}
            </p>
            {preview.failed && (
              <p role="alert" className="mb-2 text-sm text-error">
                {preview.failed.message ?? messages['studio.edit.previewFailed']}
              </p>
            )}
            {/* Rendered and sanitized on the server by the site's own renderer (content/markdown.ts). */}
            <div
              className={`rich-text ${preview.loading ? 'opacity-60' : ''}`}
              dangerouslySetInnerHTML={{ __html: preview.rendered?.html ?? '' }}
            />
          </section>
          {dropped.length > 0 && (
            <div
              id={`${id}-dropped`}
              role="status"
              className="grid gap-1 rounded-box border border-warning bg-warning/10 p-3 text-sm"
              data-dropped
            >
              <p>{messages['studio.edit.droppedTitle']}</p>
              <ul className="list-disc ps-5">
                {dropped.map((item, index) => (
                  <li key={index} className="wrap-anywhere">
                    {droppedText(messages, context.locale, item)}
                  </li>
                ))}
              </ul>
            </div>
          )}
        </div>
      </div>
    </div>
  );
}

function choiceLabel(key: string | undefined, option: string | number, context: FormContext): string {
  const own = key
    ? (context.messages as Readonly<Record<string, string>>)[`studio.choice.${key}.${option}`]
    : undefined;
  return (
    own ?? (typeof option === 'string' && context.labels[option] ? labelCase(context.labels[option]) : String(option))
  );
}

function LeafField({ node, path, label, context, bare, placeholder }: FieldProps) {
  const id = useId();
  const { data, onChange, errors, messages } = context;
  const name = pathName(path);
  const value = getAt(data, path);
  const error = errors[name];
  const key = [...path].reverse().find((segment): segment is string => typeof segment === 'string');
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const staleId = `${id}-stale`;
  const set = (next: unknown) => onChange(setAt(data, path, next), path);
  const invalid = error ? { 'aria-invalid': true as const } : {};
  const hint = node.type === 'text' && node.input === 'image' ? messages['studio.edit.imageHint'] : undefined;
  const choices = node.reference ? choicesAt(node.reference, context, path) : undefined;
  const stale =
    choices && typeof value === 'string' && value !== '' && !choices.some((choice) => choice.value === value)
      ? value
      : undefined;
  const described = describedBy(error && errorId, stale && staleId, hint && hintId);

  if (node.type === 'boolean') {
    return (
      <div className="fieldset py-1" data-field={name}>
        <label className="label cursor-pointer gap-2 text-base-content">
          <input
            id={id}
            name={name}
            type="checkbox"
            className="checkbox checkbox-sm"
            checked={value === true}
            aria-describedby={described}
            {...invalid}
            onChange={(event) => set(event.target.checked)}
          />
          {label}
        </label>
        <ErrorText id={errorId} text={error} />
      </div>
    );
  }

  let control: ReactNode;
  const labelClass = bare ? 'sr-only' : 'fieldset-legend pb-1 text-sm';
  if (choices) {
    const empty = typeof value !== 'string' || value === '';
    control = (
      <select
        id={id}
        name={name}
        className={`select w-full max-w-md ${error ? 'select-error' : ''}`}
        value={empty ? '' : value}
        aria-describedby={described}
        {...invalid}
        onChange={(event) => set(event.target.value === '' ? emptyChoice(node) : event.target.value)}
      >
        {(empty || node.optional) && <option value="">{messages['studio.edit.choose']}</option>}
        {stale !== undefined && (
          <option value={stale}>{say(messages, 'studio.choice.missingOption', { code: stale })}</option>
        )}
        {choices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choiceText(choice, messages)}
          </option>
        ))}
      </select>
    );
  } else if (node.type === 'choice') {
    const index = node.options.findIndex((option) => option === value);
    control = (
      <select
        id={id}
        name={name}
        className={`select w-full max-w-md ${error ? 'select-error' : ''}`}
        value={index < 0 ? '' : String(index)}
        aria-describedby={described}
        {...invalid}
        onChange={(event) => set(event.target.value === '' ? undefined : node.options[Number(event.target.value)])}
      >
        {(index < 0 || node.optional) && <option value="">{messages['studio.edit.choose']}</option>}
        {node.options.map((option, position) => (
          <option key={String(option)} value={String(position)}>
            {choiceLabel(key, option, context)}
          </option>
        ))}
      </select>
    );
  } else if (node.type === 'number') {
    control = (
      <input
        id={id}
        name={name}
        inputMode="decimal"
        className={`input w-full max-w-xs ${error ? 'input-error' : ''}`}
        value={value === undefined || value === null ? '' : String(value)}
        aria-describedby={described}
        {...invalid}
        onChange={(event) => set(numberFromInput(event.target.value))}
      />
    );
  } else if (node.type === 'text' && node.input === 'multiline') {
    control = (
      <textarea
        id={id}
        name={name}
        rows={3}
        className={`textarea w-full ${error ? 'textarea-error' : ''}`}
        value={typeof value === 'string' ? value : ''}
        placeholder={placeholder}
        aria-describedby={described}
        {...invalid}
        onChange={(event) => set(textFromInput(node, event.target.value))}
      />
    );
  } else if (node.type === 'text' && node.input === 'date') {
    control = (
      <input
        id={id}
        name={name}
        type="date"
        className={`input w-full max-w-xs ${error ? 'input-error' : ''}`}
        value={typeof value === 'string' ? value : ''}
        aria-describedby={described}
        {...invalid}
        onChange={(event) => set(textFromInput(node, event.target.value))}
      />
    );
  } else if (node.type === 'text') {
    control = (
      <input
        id={id}
        name={name}
        className={`input w-full ${node.input === 'image' ? 'font-mono text-sm' : ''} ${error ? 'input-error' : ''}`}
        value={typeof value === 'string' ? value : ''}
        placeholder={placeholder}
        maxLength={node.maxLength ? node.maxLength + 20 : undefined}
        aria-describedby={described}
        {...invalid}
        onChange={(event) => set(textFromInput(node, event.target.value))}
      />
    );
  } else {
    control = <p className="text-sm text-base-content/70">{JSON.stringify(value)}</p>;
  }

  return (
    <div className="fieldset py-1" data-field={name}>
      <label htmlFor={id} className={labelClass}>
        {label}
        {optionalMark(node, messages)}
      </label>
      {control}
      <ErrorText id={errorId} text={error} />
      {stale !== undefined && <StaleChoice id={staleId} code={stale} messages={messages} />}
      {node.type === 'text' && node.input === 'image' && (
        <ImageUpload path={path} label={label} value={value} context={context} />
      )}
      {hint && <HintText id={hintId} text={hint} />}
    </div>
  );
}

/** What choosing nothing writes: an optional field is left out, a required text field is empty (the schema then says so). */
function emptyChoice(node: FieldNode): unknown {
  return node.type === 'text' ? textFromInput(node, '') : undefined;
}

/** A choice as the editor reads it: its name and its code. */
function choiceText(choice: Choice, messages: StudioMessages): string {
  return choice.name ? say(messages, 'studio.choice.option', { name: choice.name, code: choice.value }) : choice.value;
}

/**
 * The choices of a reference field at `path`: its source's, narrowed to those that fit where it
 * is (the item's region, the other fields of the object it sits in). Undefined without choices.
 */
function choicesAt(reference: ReferenceField, context: FormContext, path: FieldPath): readonly Choice[] | undefined {
  const all = context.choices?.[reference.source];
  if (!all || !reference.narrow) return all;
  let at = path.slice(0, -1);
  while (at.length > 0 && typeof at[at.length - 1] === 'number') at = at.slice(0, -1);
  const parent = getAt(context.data, at);
  const siblings =
    parent !== null && typeof parent === 'object' && !Array.isArray(parent) ? (parent as Record<string, unknown>) : {};
  const narrow = reference.narrow;
  return all.filter((choice) => narrow(choice, { areaCode: context.areaCode, siblings }));
}

/** A value that is no longer among its field's choices: kept and shown, with why it needs a look. */
function StaleChoice({ id, code, messages }: { id: string; code: string; messages: StudioMessages }) {
  return (
    <p
      id={id}
      className="mt-1 block rounded-box border border-warning bg-warning/10 px-2 py-1 text-xs"
      data-stale-choice
    >
      {say(messages, 'studio.choice.missing', { code })}
    </p>
  );
}

/**
 * A list of references in no particular order (a set's voltage levels, an orgCom's regions): one
 * checkbox per choice in a group named by the field. Values no longer among the choices stay
 * ticked and flagged until the editor unticks them; ticking adds at the end, unticking removes,
 * so the saved list changes only where the editor changed it.
 */
function ReferenceGroup({ node, path, label, context, bare, choices }: FieldProps & { choices: readonly Choice[] }) {
  const id = useId();
  const { data, onChange, errors, messages } = context;
  const name = pathName(path);
  const current = getAt(data, path);
  const values = Array.isArray(current)
    ? (current as unknown[]).filter((value): value is string => typeof value === 'string')
    : [];
  const known = new Set(choices.map((choice) => choice.value));
  const stale = values.filter((value) => !known.has(value));
  const toggle = (value: string, on: boolean) =>
    onChange(setAt(data, path, on ? [...values, value] : values.filter((entry) => entry !== value)), path);
  const entryErrors = values.flatMap((value, index) => {
    const message = errors[`${name}.${index}`];
    return message ? [{ value, index, message }] : [];
  });
  const box = (value: string, text: string, flagged: boolean) => (
    <li key={value}>
      <label className="flex cursor-pointer items-center gap-2 text-sm">
        <input
          type="checkbox"
          className="checkbox checkbox-sm"
          name={name}
          value={value}
          checked={values.includes(value)}
          aria-describedby={flagged ? `${id}-stale` : undefined}
          onChange={(event) => toggle(value, event.target.checked)}
        />
        {text}
      </label>
    </li>
  );
  return (
    <Group node={node} path={path} label={label} context={context} {...(bare ? { bare } : {})}>
      <ul className="grid gap-1 sm:grid-cols-2 lg:grid-cols-3">
        {stale.map((value) => box(value, say(messages, 'studio.choice.missingOption', { code: value }), true))}
        {choices.map((choice) => box(choice.value, choiceText(choice, messages), false))}
      </ul>
      {entryErrors.map((entry) => (
        <ErrorText key={entry.index} id={`${id}-error-${entry.index}`} text={`${entry.value}: ${entry.message}`} />
      ))}
      {stale.length > 0 && <StaleChoice id={`${id}-stale`} code={stale.join(', ')} messages={messages} />}
    </Group>
  );
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${(bytes / 1024 / 1024).toFixed(1)} MB`
    : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** The upload button and thumbnail of an `image` field: the uploaded image's address becomes the field's value. */
function ImageUpload({
  path,
  label,
  value,
  context,
}: {
  path: FieldPath;
  label: string;
  value: unknown;
  context: FormContext;
}) {
  const id = useId();
  const { messages } = context;
  const [percent, setPercent] = useState<number | null>(null);
  const [uploaded, setUploaded] = useState<string | null>(null);
  const src = typeof value === 'string' && /^(\/(?!\/)|https?:\/\/)/.test(value) ? value : undefined;

  const choose = async (file: File | undefined) => {
    if (!file) return;
    setPercent(0);
    setUploaded(null);
    const answer = await uploadImage(file, (progress) => setPercent(progress.percent));
    setPercent(null);
    if (!answer) return;
    if (answer.code !== OK) {
      const fieldError = (answer.data as { errors?: { message?: string }[] } | null)?.errors?.[0]?.message;
      context.onUploadError(pathName(path), fieldError ?? answer.message);
      return;
    }
    context.setField(path, answer.data.url);
    setUploaded(
      say(messages, 'studio.edit.uploaded', {
        width: answer.data.width,
        height: answer.data.height,
        size: formatBytes(answer.data.bytes),
      }),
    );
  };

  return (
    <div className="mt-2 flex flex-wrap items-center gap-3">
      <div className="flex h-16 w-28 items-center justify-center overflow-hidden rounded border border-base-300 bg-base-200">
        {src && (
          <img
            src={src}
            alt={say(messages, 'studio.edit.imageAlt', { label })}
            className="h-full w-full object-cover"
          />
        )}
      </div>
      <div>
        <label htmlFor={id} className="btn btn-sm">
          {messages['studio.edit.upload']}
        </label>
        <input
          id={id}
          type="file"
          accept="image/jpeg,image/png,image/webp"
          className="sr-only"
          aria-label={say(messages, 'studio.edit.uploadLabel', { label })}
          onChange={(event) => {
            void choose(event.target.files?.[0]);
            event.target.value = '';
          }}
        />
        <p role="status" className="min-h-5 text-xs">
          {percent !== null ? say(messages, 'studio.edit.uploading', { percent }) : (uploaded ?? '')}
        </p>
      </div>
    </div>
  );
}
