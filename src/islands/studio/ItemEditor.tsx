import { useCallback, useEffect, useId, useMemo, useRef, useState, type SubmitEvent } from 'react';
import { isContentKind, isItemId, kindOfPath, type ContentKind } from '../../content/paths.ts';
import { kindSpecs } from '../../content/kinds.ts';
import { BAD_REQUEST, CONFLICT, NOT_FOUND, OK } from '../../lib/apiCodes.ts';
import { formatChinaDateTime } from '../../lib/chinaTime.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import { formatCount } from '../../lib/i18n/plural.ts';
import {
  serverFieldErrors,
  validateForm,
  withFieldError,
  type FieldErrors,
  type ValidationMessages,
} from '../auth/formValidation.ts';
import ConfirmDialog from '../ConfirmDialog.tsx';
import { LoadFailed, Loading } from '../LoadStatus.tsx';
import type { Choices } from '../../content/references.ts';
import { recheckedErrors } from './fieldErrors.ts';
import { emptyValue, errorsWithoutField, fieldTreeOfKind, setAt, type FieldPath } from '../../lib/studio/formModel.ts';
import ItemForm, { type FormContext } from './ItemForm.tsx';
import ScheduleControl from './ScheduleControl.tsx';
import StateBadge from './StateBadge.tsx';
import { changesUrl, editUrl, historyUrl, itemsUrl } from './studioLinks.ts';
import {
  deleteItem,
  discardItem,
  loadChoices,
  loadItem,
  loadOverview,
  saveItem,
  type ItemView,
  type RegionView,
} from '../../lib/api/studio.ts';
import { say, type FieldLabels, type StudioMessages } from '../../lib/studio/messages.ts';
import { useLoad } from './useLoad.ts';
import { useQuery } from './useQuery.ts';

interface Props {
  locale: Locale;
  messages: StudioMessages;
  labels: FieldLabels;
  validation: ValidationMessages;
}

/** What the editor is working on: an existing item (its view) or a new one of a kind, and the data it starts from. */
type Subject =
  | { state: 'missing' }
  | {
      state: 'ready';
      kind: ContentKind;
      view: ItemView | null;
      regions: RegionView[];
      choices: Choices;
      initial: unknown;
    };

/** The key of the new item's id input in the error map (the server names a bad path `path`). */
const PATH_FIELD = 'path';

/** The subject the address names (`?path=` or `?kind=…&new=1`); undefined when it could not be loaded. */
async function openSubject(search: URLSearchParams): Promise<Subject | undefined> {
  const path = search.get('path');
  const kindParam = search.get('kind');
  const [overview, listed] = await Promise.all([loadOverview(), loadChoices()]);
  if (!overview || !listed) return undefined;
  const { regions } = overview;
  const { choices } = listed;
  if (path) {
    const answer = await loadItem(path);
    if (!answer) return undefined;
    const kind = kindOfPath(path)?.kind;
    if (answer.code === NOT_FOUND || answer.code === BAD_REQUEST || !kind) return { state: 'missing' };
    if (answer.code !== OK) return undefined;
    return {
      state: 'ready',
      kind,
      view: answer.data,
      regions,
      choices,
      initial: answer.data.draft ?? answer.data.published,
    };
  }
  if (search.get('new') === '1' && isContentKind(kindParam) && !kindSpecs[kindParam].single) {
    return {
      state: 'ready',
      kind: kindParam,
      view: null,
      regions,
      choices,
      initial: emptyValue(fieldTreeOfKind(kindParam)),
    };
  }
  return { state: 'missing' };
}

/**
 * The item editor (/studio/edit?path=… or ?kind=…&new=1). The form is drawn from the kind's
 * schema (the build's own) and checked against it in the browser, errors in place and in the
 * page's locale; the server's 400 field errors land the same way. As the editor fixes a field its
 * error is checked again and goes once the field is valid (fieldErrors.ts), the count above the
 * form with it. Fields that name other content offer that content as choices. Saving writes a draft with the
 * revision it was loaded at: when someone else saved meanwhile (409) the editor is told and
 * offered to reload. Discard and delete ask first. Leaving with unsaved changes asks too.
 */
export default function ItemEditor({ locale, messages, labels, validation }: Props) {
  const query = useQuery();
  const read = useCallback(() => (query ? openSubject(query) : new Promise<undefined>(() => {})), [query]);
  const { loaded, reload, setValue } = useLoad(read);
  const subject = loaded.state === 'ready' ? loaded.value : undefined;
  // The editor's changes, tied to the subject they were made on (a reload or a save starts afresh).
  const [edited, setEdited] = useState<{ base: Subject; data: unknown } | null>(null);
  // The same, as of the latest change: an upload finishing after other edits writes into that.
  const latest = useRef<{ base: Subject; data: unknown } | null>(null);
  const edit = (next: { base: Subject; data: unknown } | null) => {
    latest.current = next;
    setEdited(next);
  };
  const [errors, setErrors] = useState<FieldErrors>({});
  // The shown errors the schema cannot judge (the server's, a refused upload, the new id's): a change of their own field clears them.
  const serverOnly = useRef<ReadonlySet<string>>(new Set([PATH_FIELD]));
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const [conflict, setConflict] = useState(false);
  const [confirm, setConfirm] = useState<'discard' | 'delete' | null>(null);
  const [newId, setNewId] = useState('');
  const [chosenArea, setChosenArea] = useState('');
  const formRef = useRef<HTMLFormElement>(null);
  const noticeRef = useRef<HTMLDivElement>(null);
  const idInput = useId();
  const areaInput = useId();

  const dirty = edited !== null && edited.base === subject;
  // Leaving the page with unsaved changes asks first (the browser's own question).
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const kind = subject?.state === 'ready' ? subject.kind : undefined;
  const tree = useMemo(() => (kind ? fieldTreeOfKind(kind) : undefined), [kind]);

  if (loaded.state === 'loading') return <Loading label={messages['studio.loading']} />;
  if (loaded.state === 'failed')
    return (
      <LoadFailed message={messages['studio.loadFailed']} retryLabel={messages['studio.retry']} onRetry={reload} />
    );
  if (subject?.state !== 'ready' || !tree || !kind)
    return (
      <p role="alert" className="alert alert-warning">
        {messages['studio.edit.notFound']}
      </p>
    );

  const { view, regions, choices } = subject;
  const data = dirty ? edited.data : subject.initial;
  const newArea = chosenArea || (regions[0]?.areaCode ?? '');
  const spec = kindSpecs[kind];
  const kindName = messages[`studio.kind.${kind}`];
  const isNew = view === null;
  const newPath = spec.pathOf({ id: newId.trim(), areaCode: spec.perRegion ? newArea : undefined });
  const path = view?.path ?? newPath;

  const show = (tone: 'success' | 'error', text: string) => {
    setNotice({ tone, text });
    requestAnimationFrame(() => noticeRef.current?.focus());
  };

  const fail = (next: FieldErrors, fromServer = false) => {
    serverOnly.current = new Set([PATH_FIELD, ...(fromServer ? Object.keys(next) : [])]);
    setErrors(next);
    requestAnimationFrame(() => focusField(formRef.current, Object.keys(next)[0]));
  };

  /** The shown errors re-checked against the data as it is after a change at `at`. */
  const recheck = (next: unknown, at: FieldPath) =>
    setErrors((current) =>
      recheckedErrors(
        current,
        at,
        () => {
          const checked = validateForm(spec.schema, next, validation);
          return checked.ok ? {} : checked.errors;
        },
        serverOnly.current,
      ),
    );

  const change = (next: unknown, at: FieldPath) => {
    edit({ base: subject, data: next });
    recheck(next, at);
    setNotice(null);
  };

  /** The subject with a new view from the server, its data the new starting point. */
  const settle = (next: ItemView) => {
    setValue({ state: 'ready', kind, view: next, regions, choices, initial: next.draft ?? next.published });
    edit(null);
    serverOnly.current = new Set([PATH_FIELD]);
    setErrors({});
  };

  const context: FormContext = {
    data,
    onChange: change,
    setField: (fieldPath, value) => {
      const current = latest.current;
      const next = setAt(
        current !== null && current.base === subject ? current.data : subject.initial,
        fieldPath,
        value,
      );
      edit({ base: subject, data: next });
      recheck(next, fieldPath);
    },
    errors,
    labels,
    messages,
    locale,
    onUploadError: (field, message) => {
      serverOnly.current = new Set([...serverOnly.current, field]);
      setErrors((current) => withFieldError(current, field, message));
    },
    choices,
    areaCode: view ? (kindOfPath(view.path)?.key.areaCode ?? undefined) : spec.perRegion ? newArea : undefined,
  };

  const newIdError = (): string | undefined => {
    const id = newId.trim();
    const valid = kind === 'region' ? /^\d{6}$/.test(id) : isItemId(id);
    return valid
      ? undefined
      : format(validation[id ? 'validation.pattern' : 'validation.required'], messages['studio.edit.id']);
  };

  const save = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setNotice(null);
    const checked = validateForm(spec.schema, data, validation);
    const idError = isNew ? newIdError() : undefined;
    if (!checked.ok || idError) {
      fail({ ...(idError ? { [PATH_FIELD]: idError } : {}), ...(checked.ok ? {} : checked.errors) });
      return;
    }
    setBusy(true);
    const answer = await saveItem(path, data, view?.revision ?? 0);
    setBusy(false);
    if (!answer) return;
    if (answer.code === OK) {
      settle(answer.data);
      if (isNew) window.history.replaceState(null, '', editUrl(locale, answer.data.path));
      show('success', messages['studio.edit.saved']);
      return;
    }
    if (answer.code === CONFLICT && !isNew) {
      setConflict(true);
      return;
    }
    if (answer.code === CONFLICT) {
      fail({ [PATH_FIELD]: answer.message }, true);
      return;
    }
    const fieldErrors = serverFieldErrors(answer);
    if (Object.keys(fieldErrors).length > 0) fail(fieldErrors, true);
    else show('error', answer.message);
  };

  const runConfirmed = async () => {
    if (!view || !confirm) return;
    setBusy(true);
    const answer = confirm === 'discard' ? await discardItem(view.path) : await deleteItem(view.path, view.revision);
    setBusy(false);
    const action = confirm;
    setConfirm(null);
    if (!answer) return;
    if (answer.code !== OK) {
      if (answer.code === CONFLICT) setConflict(true);
      else show('error', answer.message);
      return;
    }
    if (answer.data === null || (answer.data as ItemView | Record<string, never>).path === undefined) {
      // The item is gone (never published): back to its list.
      window.location.assign(itemsUrl(locale, kind));
      return;
    }
    settle(answer.data);
    show('success', messages[action === 'discard' ? 'studio.edit.discarded' : 'studio.edit.deleted']);
  };

  const unplaced = errorsWithoutField(tree, data, errors).filter((field) => field !== PATH_FIELD);
  const errorCount = Object.keys(errors).length;

  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 className="text-xl font-semibold">
            {isNew ? say(messages, 'studio.edit.newTitle', { kind: kindName }) : view.title}
          </h2>
          <p className="text-sm text-base-content/70">
            {say(messages, 'studio.edit.kind', { kind: kindName })}
            {' · '}
            <span className="font-mono">{say(messages, 'studio.edit.file', { path })}</span>
          </p>
          {view && (
            <p className="mt-1 flex flex-wrap items-center gap-2 text-sm">
              <StateBadge state={view.state} messages={messages} />
              {view.draftBy && view.draftAt && (
                <span>
                  {say(messages, 'studio.edit.lastDraft', {
                    name: view.draftBy,
                    at: formatChinaDateTime(view.draftAt, locale),
                  })}
                </span>
              )}
            </p>
          )}
        </div>
        <nav className="flex flex-wrap gap-2" aria-label={kindName}>
          <a className="btn btn-ghost btn-sm" href={itemsUrl(locale, kind)}>
            {say(messages, 'studio.items.caption', { kind: kindName })}
          </a>
          {view && view.publishedVersion > 0 && (
            <a className="btn btn-ghost btn-sm" href={historyUrl(locale, view.path)}>
              {messages['studio.edit.openHistory']}
            </a>
          )}
          <a className="btn btn-ghost btn-sm" href={changesUrl(locale)}>
            {messages['studio.edit.openChanges']}
          </a>
        </nav>
      </div>

      <div ref={noticeRef} tabIndex={-1} className="outline-none" aria-live="polite">
        {notice && (
          <div
            role={notice.tone === 'error' ? 'alert' : 'status'}
            className={`alert ${notice.tone === 'error' ? 'alert-error' : 'alert-success'}`}
          >
            <span>{notice.text}</span>
            {notice.tone === 'success' && (
              <a className="btn btn-sm" href={changesUrl(locale)}>
                {messages['studio.edit.openChanges']}
              </a>
            )}
          </div>
        )}
      </div>
      {conflict && (
        <div role="alert" className="alert alert-warning flex-col items-start">
          <p className="font-semibold">{messages['studio.edit.changedTitle']}</p>
          <p>{messages['studio.edit.changedBody']}</p>
          <button
            type="button"
            className="btn btn-sm"
            onClick={() => {
              edit(null);
              setConflict(false);
              setErrors({});
              reload();
            }}
          >
            {messages['studio.edit.reload']}
          </button>
        </div>
      )}
      {view?.draftDeleted && (
        <p role="status" className="alert alert-warning">
          {messages['studio.edit.deletedDraft']}
        </p>
      )}

      <form
        ref={formRef}
        noValidate
        onSubmit={(event) => void save(event)}
        className="grid gap-2"
        aria-label={isNew ? say(messages, 'studio.edit.newTitle', { kind: kindName }) : view.title}
      >
        {errorCount > 0 && (
          <div role="alert" className="alert alert-error flex-col items-start">
            <p>{formatCount(messages, 'studio.edit.errors', locale, errorCount)}</p>
            {unplaced.length > 0 && (
              <ul className="list-disc pl-5">
                {unplaced.map((field) => (
                  <li key={field}>{errors[field]}</li>
                ))}
              </ul>
            )}
          </div>
        )}
        {isNew && (
          <div className="grid gap-3 sm:grid-cols-2" data-field={PATH_FIELD}>
            {spec.perRegion && (
              <div className="fieldset py-1">
                <label htmlFor={areaInput} className="fieldset-legend pb-1 text-sm">
                  {messages['studio.edit.region']}
                </label>
                <select
                  id={areaInput}
                  className="select w-full"
                  value={newArea}
                  onChange={(event) => setChosenArea(event.target.value)}
                >
                  {regions.map((region) => (
                    <option key={region.areaCode} value={region.areaCode}>
                      {region.name}
                    </option>
                  ))}
                </select>
              </div>
            )}
            <div className="fieldset py-1">
              <label htmlFor={idInput} className="fieldset-legend pb-1 text-sm">
                {messages['studio.edit.id']}
              </label>
              <input
                id={idInput}
                name={PATH_FIELD}
                className={`input w-full font-mono ${errors[PATH_FIELD] ? 'input-error' : ''}`}
                value={newId}
                autoComplete="off"
                aria-invalid={errors[PATH_FIELD] ? true : undefined}
                aria-describedby={`${errors[PATH_FIELD] ? `${idInput}-error ` : ''}${idInput}-hint`}
                onChange={(event) => {
                  setNewId(event.target.value);
                  setErrors((current) => withFieldError(current, PATH_FIELD, undefined));
                }}
              />
              {errors[PATH_FIELD] && (
                <p id={`${idInput}-error`} className="mt-1 block text-xs text-error" data-field-error>
                  {errors[PATH_FIELD]}
                </p>
              )}
              <p id={`${idInput}-hint`} className="label block text-xs whitespace-normal">
                {messages['studio.edit.idHint']}
              </p>
            </div>
          </div>
        )}
        <ItemForm node={tree} context={context} rootLabel={kindName} />
        <div className="sticky bottom-0 z-10 -mx-1 flex flex-wrap items-center gap-3 border-t border-base-300 bg-base-100 px-1 py-3">
          <button type="submit" className="btn btn-primary" disabled={busy} aria-busy={busy}>
            {busy && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
            {messages['studio.edit.save']}
          </button>
          {view && view.state !== 'published' && (
            <button type="button" className="btn" disabled={busy} onClick={() => setConfirm('discard')}>
              {messages['studio.edit.discard']}
            </button>
          )}
          {view && !view.draftDeleted && (
            <button
              type="button"
              className="btn btn-outline btn-error"
              disabled={busy}
              onClick={() => setConfirm('delete')}
            >
              {messages['studio.edit.delete']}
            </button>
          )}
          {view && view.state === 'published' && view.published !== null && (
            <ScheduleControl
              action="unpublish"
              paths={[view.path]}
              label={messages['studio.schedule.openUnpublish']}
              title={say(messages, 'studio.schedule.unpublishTitle', { title: view.title })}
              body={messages['studio.schedule.unpublishBody']}
              disabled={busy}
              locale={locale}
              messages={messages}
              validation={validation}
              onScheduled={(_view, text) => show('success', text)}
            />
          )}
          <span className="text-sm text-base-content/70" aria-live="polite">
            {dirty ? messages['studio.edit.unsaved'] : ''}
          </span>
        </div>
      </form>
      <ConfirmDialog
        open={confirm !== null}
        title={messages[confirm === 'delete' ? 'studio.edit.deleteTitle' : 'studio.edit.discardTitle']}
        body={messages[confirm === 'delete' ? 'studio.edit.deleteBody' : 'studio.edit.discardBody']}
        confirmLabel={messages[confirm === 'delete' ? 'studio.edit.delete' : 'studio.edit.discard']}
        cancelLabel={messages['studio.cancel']}
        busy={busy}
        onConfirm={() => void runConfirmed()}
        onCancel={() => setConfirm(null)}
      />
    </div>
  );
}

/** `{label}` of a validation text, filled the way localizeIssues fills it. */
function format(template: string | undefined, label: string): string {
  const text = (template ?? '').replace(/\{label\}/g, label);
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Moves focus to the field named `field` (its control, or the group that holds it). */
function focusField(form: HTMLFormElement | null, field: string | undefined): void {
  if (!form || field === undefined) return;
  const holder = form.querySelector<HTMLElement>(`[data-field="${CSS.escape(field)}"]`);
  const target = holder?.matches('input, select, textarea')
    ? holder
    : (holder?.querySelector<HTMLElement>('input, select, textarea') ?? holder);
  target?.focus();
}
