import { useEffect, useRef, useState } from 'react';
import { fetchDownload } from '../../../lib/api/client.ts';
import type { RequestData } from '../../../lib/api/encode.ts';
import { format } from '../../../lib/api/messages.ts';
import type { Locale } from '../../../lib/i18n/locales.ts';
import { formatBytes } from './chartData.ts';

interface Props {
  /** The export call (GET; the fields flattened into the query). */
  url: string;
  /** The same fields the table call sends (antTable included), so the file holds the rows shown. */
  data: RequestData | undefined;
  locale: Locale;
  messages: { label: string; busy: string; progress: string; done: string; failed: string; failedPlain: string };
}

type ExportState = { kind: 'idle' } | { kind: 'busy'; received: number } | { kind: 'done' } | { kind: 'failed'; message: string };

/**
 * Export of what the page shows: the download runs through the request client (fetchDownload),
 * which saves the file under the server's (localized) name; meanwhile the button is busy and a
 * live region counts the bytes received; a refusal (a bad period, an institution out of scope)
 * is shown beside the button instead of as a passing toast. Leaving the page aborts it.
 */
export default function ExportButton({ url, data, locale, messages }: Props) {
  const [state, setState] = useState<ExportState>({ kind: 'idle' });
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);

  const start = async () => {
    if (!data) return;
    const controller = new AbortController();
    abort.current = controller;
    setState({ kind: 'busy', received: 0 });
    let received = 0;
    const failure = await fetchDownload(url, data, {
      quiet: true,
      signal: controller.signal,
      onProgress: (bytes) => {
        received = bytes;
        setState({ kind: 'busy', received: bytes });
      },
    });
    if (controller.signal.aborted) return;
    // Undefined is "saved" only when bytes came: a transport fault also resolves undefined, after
    // the request client's own notification, and must not read as a finished export.
    if (failure === undefined) setState(received > 0 ? { kind: 'done' } : { kind: 'idle' });
    else setState({ kind: 'failed', message: failure.message ? format(messages.failed, { message: failure.message }) : messages.failedPlain });
  };

  const busy = state.kind === 'busy';
  return (
    <div className="flex flex-wrap items-center gap-3">
      <button type="button" className="btn btn-sm btn-outline" disabled={busy || !data} aria-busy={busy} onClick={() => void start()}>
        {busy && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
        {busy ? messages.busy : messages.label}
      </button>
      <span role="status" className="text-sm text-base-content/70">
        {state.kind === 'busy' && state.received > 0 && format(messages.progress, { size: formatBytes(state.received, locale) })}
        {state.kind === 'done' && messages.done}
      </span>
      {state.kind === 'failed' && (
        <span role="alert" className="text-sm text-error">{state.message}</span>
      )}
    </div>
  );
}
