import { useId, useState, type ReactNode } from 'react';
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
} from './formModel.ts';
import { droppedText } from './markdownPreview.ts';
import { uploadImage } from './studioApi.ts';
import { say, type FieldLabels, type StudioMessages } from './studioMessages.ts';
import { useMarkdownPreview } from './useMarkdownPreview.ts';

export interface FormContext {
  data: unknown;
  onChange: (data: unknown) => void;
  /** Sets one field on the data as it is when called (an upload finishes after other edits). */
  setField: (path: FieldPath, value: unknown) => void;
  errors: Readonly<Record<string, string>>;
  labels: FieldLabels;
  messages: StudioMessages;
  locale: Locale;
  /** Shown when an image upload is refused. */
  onUploadError: (field: string, message: string) => void;
}

interface FieldProps {
  node: FieldNode;
  path: FieldPath;
  /** The field's label as read aloud and shown (a list entry: "标题 第 2 项"). */
  label: string;
  context: FormContext;
  /** A list entry or map value has no label of its own shown above it. */
  bare?: boolean;
}

/**
 * The item editor's fields, drawn from the field tree (formModel.ts): one labelled control per
 * leaf, fieldsets for groups, repeatable entries with add / remove / move, key/value groups for
 * maps. Controls are named by their dotted path (`descList.0.desc`), the same name the schema's
 * issues and the server's field errors use, so every message lands at its field.
 */
export default function ItemForm({ node, context, rootLabel }: { node: FieldNode; context: FormContext; rootLabel: string }) {
  if (node.type === 'object') return <ObjectFields node={node} path={[]} context={context} />;
  return <Field node={node} path={[]} label={rootLabel} context={context} />;
}

function labelOfKey(key: string, labels: FieldLabels): string {
  return labelCase(labels[key] ?? key);
}

function ObjectFields({ node, path, context }: { node: Extract<FieldNode, { type: 'object' }>; path: FieldPath; context: FormContext }) {
  return (
    <div className="grid gap-1">
      {node.fields.map((field) => (
        <Field key={field.key} node={field.node} path={[...path, field.key]} label={labelOfKey(field.key, context.labels)} context={context} />
      ))}
    </div>
  );
}

function Field(props: FieldProps) {
  const { node } = props;
  switch (node.type) {
    case 'object':
      return <Group {...props}><ObjectFields node={node} path={props.path} context={props.context} /></Group>;
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

/** An error message under a control, tied to it by `aria-describedby`. */
function ErrorText({ id, text }: { id: string; text: string | undefined }) {
  return text ? <p id={id} className="label text-xs whitespace-normal text-error" data-field-error>{text}</p> : null;
}

function optionalMark(node: FieldNode, messages: StudioMessages): ReactNode {
  return node.optional ? <span className="font-normal text-base-content/70"> ({messages['studio.edit.optional']})</span> : null;
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
      <legend className={bare ? 'sr-only' : 'fieldset-legend px-1 text-sm'}>{label}{optionalMark(node, context.messages)}</legend>
      <ErrorText id={`${id}-error`} text={error} />
      {children}
    </fieldset>
  );
}

function ListField({ node, path, label, context, bare }: FieldProps & { node: Extract<FieldNode, { type: 'list' }> }) {
  const { data, onChange, messages } = context;
  const entries = getAt(data, path);
  const list = Array.isArray(entries) ? (entries as unknown[]) : [];
  const element = node.element;
  const simple = element.type !== 'object' && element.type !== 'list' && element.type !== 'map' && element.type !== 'markdown';
  const full = node.maxItems !== undefined && list.length >= node.maxItems;

  const buttons = (index: number) => {
    const vars = { label, n: index + 1 };
    return (
      <div className="flex shrink-0 gap-1">
        <button type="button" className="btn btn-ghost btn-xs" disabled={index === 0} aria-label={say(messages, 'studio.edit.moveUpEntry', vars)} onClick={() => onChange(moveAt(data, path, index, -1))}>
          <span aria-hidden="true">↑</span> {messages['studio.edit.moveUp']}
        </button>
        <button type="button" className="btn btn-ghost btn-xs" disabled={index === list.length - 1} aria-label={say(messages, 'studio.edit.moveDownEntry', vars)} onClick={() => onChange(moveAt(data, path, index, 1))}>
          <span aria-hidden="true">↓</span> {messages['studio.edit.moveDown']}
        </button>
        <button type="button" className="btn btn-ghost btn-xs text-error" aria-label={say(messages, 'studio.edit.removeEntry', vars)} onClick={() => onChange(removeAt(data, path, index))}>
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
        <button type="button" className="btn btn-sm mt-1" disabled={full} aria-label={say(messages, 'studio.edit.addTo', { label })} onClick={() => onChange(appendAt(data, path, newListEntry(element)))}>
          + {messages['studio.edit.add']}
        </button>
      </div>
    </Group>
  );
}

function MapField({ node, path, label, context, bare }: FieldProps & { node: Extract<FieldNode, { type: 'map' }> }) {
  const { data, onChange, messages } = context;
  const current = getAt(data, path);
  const record = current !== null && typeof current === 'object' && !Array.isArray(current) ? (current as Record<string, unknown>) : {};
  return (
    <Group node={node} path={path} label={label} context={context} {...(bare ? { bare } : {})}>
      <div className="grid gap-3">
        {Object.keys(record).map((key) => (
          <div key={key} className="rounded-box border border-base-300 bg-base-100 p-3">
            <div className="flex flex-wrap items-end gap-2">
              <MapKey value={key} label={say(messages, 'studio.edit.keyOf', { label })} taken={(next) => next !== key && Object.hasOwn(record, next)} context={context} onRename={(next) => onChange(renameKeyAt(data, path, key, next))} />
              <button type="button" className="btn btn-ghost btn-xs text-error" onClick={() => onChange(setAt(data, [...path, key], undefined))}>
                {say(messages, 'studio.edit.removeKey', { key })}
              </button>
            </div>
            <Field node={node.value} path={[...path, key]} label={`${label} · ${key}`} context={context} bare />
          </div>
        ))}
      </div>
      <div>
        <button type="button" className="btn btn-sm mt-1" onClick={() => onChange(setAt(data, [...path, freeKey(record, 'newKey')], newListEntry(node.value)))}>
          + {messages['studio.edit.addKey']}
        </button>
      </div>
    </Group>
  );
}

/** A map's key, renamed when the editor leaves the input (typing never collides with another key midway). */
function MapKey({ value, label, taken, context, onRename }: { value: string; label: string; taken: (key: string) => boolean; context: FormContext; onRename: (key: string) => void }) {
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
      <label htmlFor={id} className="fieldset-legend pb-1 text-sm">{label}</label>
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

function MarkdownField({ node, path, label, context, bare }: FieldProps) {
  const id = useId();
  const { data, onChange, errors, messages } = context;
  const name = pathName(path);
  const value = getAt(data, path);
  const source = typeof value === 'string' ? value : '';
  const preview = useMarkdownPreview(source);
  const error = errors[name];
  const dropped = preview.loading ? [] : (preview.rendered?.dropped ?? []);
  const describedBy = [`${id}-hint`, error ? `${id}-error` : '', dropped.length > 0 ? `${id}-dropped` : ''].filter(Boolean).join(' ');
  return (
    <div className="fieldset py-1" data-field={name}>
      <label htmlFor={id} className={bare ? 'sr-only' : 'fieldset-legend pb-1 text-sm'}>{label}{optionalMark(node, messages)}</label>
      {bare && <span aria-hidden="true" className="fieldset-legend pb-1 text-sm">{label}</span>}
      <div className="grid gap-3 lg:grid-cols-2">
        <div>
          <textarea
            id={id}
            name={name}
            className={`textarea h-64 w-full font-mono text-sm ${error ? 'textarea-error' : ''}`}
            value={source}
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy}
            onChange={(event) => onChange(setAt(data, path, textFromInput(node, event.target.value)))}
          />
          <p id={`${id}-hint`} className="label text-xs whitespace-normal">{messages['studio.edit.markdownHint']}</p>
          <ErrorText id={`${id}-error`} text={error} />
        </div>
        <div className="grid min-w-0 content-start gap-2">
          <section aria-label={say(messages, 'studio.edit.previewOf', { label })} aria-busy={preview.loading} className="h-64 overflow-auto rounded-box border border-base-300 bg-base-100 p-3">
            <p aria-hidden="true" className="mb-2 flex justify-between gap-2 text-xs text-base-content/70">
              <span>{messages['studio.edit.preview']}</span>
              {preview.loading && <span>{messages['studio.edit.previewLoading']}</span>}
            </p>
            {preview.failed && <p role="alert" className="mb-2 text-sm text-error">{preview.failed.message ?? messages['studio.edit.previewFailed']}</p>}
            {/* Rendered and sanitized on the server by the site's own renderer (content/markdown.ts). */}
            <div className={`rich-text ${preview.loading ? 'opacity-60' : ''}`} dangerouslySetInnerHTML={{ __html: preview.rendered?.html ?? '' }} />
          </section>
          {dropped.length > 0 && (
            <div id={`${id}-dropped`} role="status" className="grid gap-1 rounded-box border border-warning bg-warning/10 p-3 text-sm" data-dropped>
              <p>{messages['studio.edit.droppedTitle']}</p>
              <ul className="list-disc ps-5">
                {dropped.map((item, index) => <li key={index} className="wrap-anywhere">{droppedText(messages, context.locale, item)}</li>)}
              </ul>
            </div>
          )}
        </div>
      </div>
    </div>
  );
}

function choiceLabel(key: string | undefined, option: string | number, context: FormContext): string {
  const own = key ? (context.messages as Readonly<Record<string, string>>)[`studio.choice.${key}.${option}`] : undefined;
  return own ?? (typeof option === 'string' && context.labels[option] ? labelCase(context.labels[option]) : String(option));
}

function LeafField({ node, path, label, context, bare }: FieldProps) {
  const id = useId();
  const { data, onChange, errors, messages } = context;
  const name = pathName(path);
  const value = getAt(data, path);
  const error = errors[name];
  const key = [...path].reverse().find((segment): segment is string => typeof segment === 'string');
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const set = (next: unknown) => onChange(setAt(data, path, next));
  const invalid = error ? { 'aria-invalid': true as const } : {};
  const hint = node.type === 'text' && node.input === 'image' ? messages['studio.edit.imageHint'] : undefined;
  const describedBy = [hint ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ') || undefined;

  if (node.type === 'boolean') {
    return (
      <div className="fieldset py-1" data-field={name}>
        <label className="label cursor-pointer gap-2 text-base-content">
          <input id={id} name={name} type="checkbox" className="checkbox checkbox-sm" checked={value === true} aria-describedby={describedBy} {...invalid} onChange={(event) => set(event.target.checked)} />
          {label}
        </label>
        <ErrorText id={errorId} text={error} />
      </div>
    );
  }

  let control: ReactNode;
  const labelClass = bare ? 'sr-only' : 'fieldset-legend pb-1 text-sm';
  if (node.type === 'choice') {
    const index = node.options.findIndex((option) => option === value);
    control = (
      <select id={id} name={name} className={`select w-full max-w-md ${error ? 'select-error' : ''}`} value={index < 0 ? '' : String(index)} aria-describedby={describedBy} {...invalid} onChange={(event) => set(event.target.value === '' ? undefined : node.options[Number(event.target.value)])}>
        {(index < 0 || node.optional) && <option value="">{messages['studio.edit.choose']}</option>}
        {node.options.map((option, position) => <option key={String(option)} value={String(position)}>{choiceLabel(key, option, context)}</option>)}
      </select>
    );
  } else if (node.type === 'number') {
    control = (
      <input id={id} name={name} inputMode="decimal" className={`input w-full max-w-xs ${error ? 'input-error' : ''}`} value={value === undefined || value === null ? '' : String(value)} aria-describedby={describedBy} {...invalid} onChange={(event) => set(numberFromInput(event.target.value))} />
    );
  } else if (node.type === 'text' && node.input === 'multiline') {
    control = (
      <textarea id={id} name={name} rows={3} className={`textarea w-full ${error ? 'textarea-error' : ''}`} value={typeof value === 'string' ? value : ''} aria-describedby={describedBy} {...invalid} onChange={(event) => set(textFromInput(node, event.target.value))} />
    );
  } else if (node.type === 'text' && node.input === 'date') {
    control = (
      <input id={id} name={name} type="date" className={`input w-full max-w-xs ${error ? 'input-error' : ''}`} value={typeof value === 'string' ? value : ''} aria-describedby={describedBy} {...invalid} onChange={(event) => set(textFromInput(node, event.target.value))} />
    );
  } else if (node.type === 'text') {
    control = (
      <input id={id} name={name} className={`input w-full ${node.input === 'image' ? 'font-mono text-sm' : ''} ${error ? 'input-error' : ''}`} value={typeof value === 'string' ? value : ''} maxLength={node.maxLength ? node.maxLength + 20 : undefined} aria-describedby={describedBy} {...invalid} onChange={(event) => set(textFromInput(node, event.target.value))} />
    );
  } else {
    control = <p className="text-sm text-base-content/70">{JSON.stringify(value)}</p>;
  }

  return (
    <div className="fieldset py-1" data-field={name}>
      <label htmlFor={id} className={labelClass}>{label}{optionalMark(node, messages)}</label>
      {control}
      {node.type === 'text' && node.input === 'image' && <ImageUpload path={path} label={label} value={value} context={context} />}
      {hint && <p id={hintId} className="label text-xs whitespace-normal">{hint}</p>}
      <ErrorText id={errorId} text={error} />
    </div>
  );
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** The upload button and thumbnail of an `image` field: the uploaded image's address becomes the field's value. */
function ImageUpload({ path, label, value, context }: { path: FieldPath; label: string; value: unknown; context: FormContext }) {
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
    setUploaded(say(messages, 'studio.edit.uploaded', { width: answer.data.width, height: answer.data.height, size: formatBytes(answer.data.bytes) }));
  };

  return (
    <div className="mt-2 flex flex-wrap items-center gap-3">
      <div className="flex h-16 w-28 items-center justify-center overflow-hidden rounded border border-base-300 bg-base-200">
        {src && <img src={src} alt={say(messages, 'studio.edit.imageAlt', { label })} className="h-full w-full object-cover" />}
      </div>
      <div>
        <label htmlFor={id} className="btn btn-sm">{messages['studio.edit.upload']}</label>
        <input id={id} type="file" accept="image/jpeg,image/png,image/webp" className="sr-only" aria-label={say(messages, 'studio.edit.uploadLabel', { label })} onChange={(event) => { void choose(event.target.files?.[0]); event.target.value = ''; }} />
        <p role="status" className="min-h-5 text-xs">
          {percent !== null ? say(messages, 'studio.edit.uploading', { percent }) : uploaded ?? ''}
        </p>
      </div>
    </div>
  );
}
