import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { format } from '../../lib/api/messages.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import { formatCount } from '../../lib/i18n/plural.ts';
import { excerptParts, loadHits, searchSite, type PagefindResult, type SearchHit } from '../../lib/search.ts';
import { LoadFailed } from '../LoadStatus.tsx';
import { useMountedSignal } from '../useMountedSignal.ts';
import { loadQueryScripts } from '../../lib/queryScripts.ts';
import { loadSearchBundle, resultsPerPage, typeLabel, typingPauseMs, type SearchMessages } from './siteSearch.ts';

interface Props {
  locale: Locale;
  /** The page's region: its business, products and sets are found, with the pages every region shares. */
  areaCode: string;
  messages: SearchMessages;
  /** The help centre, suggested when nothing is found. */
  helpHref: string;
}

type SearchState =
  | { kind: 'idle' }
  | { kind: 'searching'; query: string }
  | { kind: 'found'; query: string; results: PagefindResult[]; hits: SearchHit[] }
  | { kind: 'failed'; query: string };

const inputId = 'site-search-input';
const hintId = 'site-search-hint';
const resultsId = 'site-search-results';

/** The query in the address (`?q=`): a shared link, or the form sent before any script ran. */
function addressQuery(): string {
  return new URLSearchParams(window.location.search).get('q')?.trim() ?? '';
}

/** Keeps the query in the address, so a result page can be shared and Back returns to it. */
function rememberQuery(query: string): void {
  const url = new URL(window.location.href);
  if (query) url.searchParams.set('q', query);
  else url.searchParams.delete('q');
  window.history.replaceState(window.history.state, '', url);
}

/**
 * Site search (搜索): a search box whose results come from the locale's Pagefind bundle as the
 * visitor types. Server-rendered as a plain GET form, so the page is complete and loads no script
 * until the visitor reaches for the box; it then hydrates (`client:intent`) and loads the bundle.
 * Keyboard: Enter searches at once, ↓ and ↑ move between the box and the results (Tab works too),
 * Enter opens a result, Esc clears the search and returns to the box.
 */
export default function SiteSearch({ locale, areaCode, messages, helpHref }: Props) {
  const rootRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const resultsRef = useRef<HTMLOListElement>(null);
  const [state, setState] = useState<SearchState>({ kind: 'idle' });
  const latest = useRef(0);
  const pause = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useMountedSignal(rootRef);

  const run = useCallback(
    async (raw: string) => {
      clearTimeout(pause.current);
      const query = raw.trim();
      const ticket = ++latest.current;
      rememberQuery(query);
      if (!query) {
        setState({ kind: 'idle' });
        return;
      }
      setState({ kind: 'searching', query });
      try {
        const [bundle, scripts] = await Promise.all([loadSearchBundle(locale), loadQueryScripts(locale)]);
        const results = await searchSite(bundle, query, areaCode, scripts);
        const hits = await loadHits(results.slice(0, resultsPerPage));
        if (ticket === latest.current) setState({ kind: 'found', query, results, hits });
      } catch {
        if (ticket === latest.current) setState({ kind: 'failed', query });
      }
    },
    [locale, areaCode],
  );

  // Mounted means the visitor reached for the box: load the bundle now, and search what they
  // typed while the island was loading, or the address's query.
  useEffect(() => {
    void loadSearchBundle(locale).catch(() => undefined);
    void loadQueryScripts(locale).catch(() => undefined);
    const input = inputRef.current;
    if (!input) return;
    if (!input.value) input.value = addressQuery();
    if (input.value.trim()) void run(input.value);
    return () => clearTimeout(pause.current);
  }, [locale, run]);

  async function showMore() {
    if (state.kind !== 'found') return;
    const ticket = latest.current;
    const more = await loadHits(state.results.slice(state.hits.length, state.hits.length + resultsPerPage));
    if (ticket !== latest.current) return;
    const firstNew = state.hits.length;
    setState({ ...state, hits: [...state.hits, ...more] });
    // The first added result takes the focus, so the keyboard carries on from where it was.
    requestAnimationFrame(() => resultLinks()[firstNew]?.focus());
  }

  function clear() {
    const input = inputRef.current;
    if (input) input.value = '';
    void run('');
    input?.focus();
  }

  function resultLinks(): HTMLAnchorElement[] {
    return [...(resultsRef.current?.querySelectorAll<HTMLAnchorElement>('a[data-search-hit]') ?? [])];
  }

  function onInputKey(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown') {
      const first = resultLinks()[0];
      if (first) {
        event.preventDefault();
        first.focus();
      }
    } else if (event.key === 'Escape') {
      event.preventDefault();
      clear();
    }
  }

  function onResultsKey(event: KeyboardEvent<HTMLOListElement>) {
    const links = resultLinks();
    const at = links.indexOf(event.target as HTMLAnchorElement);
    if (at === -1) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const next = event.key === 'ArrowDown' ? links[Math.min(at + 1, links.length - 1)] : links[at - 1];
      (next ?? inputRef.current)?.focus();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      clear();
    }
  }

  const status =
    state.kind === 'searching'
      ? messages['site.search.loading']
      : state.kind === 'found' && state.results.length > 0
        ? formatCount(messages, 'site.search.count', locale, state.results.length)
        : '';

  return (
    <div ref={rootRef} className="max-w-3xl">
      <form
        role="search"
        method="get"
        onSubmit={(event) => {
          event.preventDefault();
          void run(inputRef.current?.value ?? '');
        }}
      >
        <label htmlFor={inputId} className="mb-1 block text-sm font-medium">
          {messages['site.search.label']}
        </label>
        <div className="flex gap-2">
          <input
            ref={inputRef}
            id={inputId}
            name="q"
            type="search"
            className="input input-bordered w-full"
            placeholder={messages['site.search.placeholder']}
            autoComplete="off"
            enterKeyHint="search"
            aria-describedby={hintId}
            aria-controls={resultsId}
            data-search-input
            onInput={(event) => {
              const value = event.currentTarget.value;
              clearTimeout(pause.current);
              pause.current = setTimeout(() => void run(value), typingPauseMs);
            }}
            onKeyDown={onInputKey}
          />
          <button type="submit" className="btn btn-primary">
            {messages['site.search.submit']}
          </button>
        </div>
        <p id={hintId} className="mt-1 text-sm text-muted">
          {messages['site.search.hint']}
        </p>
      </form>

      <p role="status" aria-live="polite" className="mt-4 min-h-6 text-sm text-muted">
        {state.kind === 'searching' && (
          <span className="loading loading-spinner loading-xs mr-2 align-middle" aria-hidden="true" />
        )}
        {status}
      </p>

      {state.kind === 'failed' && (
        <LoadFailed
          message={messages['site.search.failed']}
          retryLabel={messages['site.search.retry']}
          onRetry={() => void run(state.query)}
        />
      )}

      {state.kind === 'found' && state.results.length === 0 && (
        <div className="rounded-box bg-base-200 p-4">
          <p className="font-medium">{format(messages['site.search.empty'], { query: state.query })}</p>
          <p className="mt-2 text-sm">
            {messages['site.search.emptyHint']}{' '}
            <a className="link link-primary" href={helpHref}>
              {messages['nav.help']}
            </a>
          </p>
        </div>
      )}

      <ol
        ref={resultsRef}
        id={resultsId}
        aria-label={messages['site.search.results']}
        className="mt-2 divide-y divide-base-300"
        onKeyDown={onResultsKey}
      >
        {state.kind === 'found' &&
          state.hits.map((hit) => (
            <li key={hit.path} className="py-4">
              <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
                <a
                  className="link link-hover text-lg font-semibold text-primary"
                  href={hit.path}
                  lang={hit.lang}
                  data-search-hit
                >
                  {hit.section ? `${hit.title} › ${hit.section}` : hit.title}
                </a>
                {hit.type && <span className="badge badge-ghost badge-sm">{typeLabel(messages, hit.type)}</span>}
              </div>
              <p className="mt-1 text-sm text-base-content/80" lang={hit.lang}>
                {excerptParts(hit.excerpt).map((part, index) =>
                  part.marked ? <mark key={index}>{part.text}</mark> : part.text,
                )}
              </p>
            </li>
          ))}
      </ol>

      {state.kind === 'found' && state.hits.length < state.results.length && (
        <button type="button" className="btn btn-outline btn-sm mt-2" onClick={() => void showMore()}>
          {messages['site.search.more']}
        </button>
      )}
    </div>
  );
}
