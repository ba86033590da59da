import { useEffect, useRef, useState } from 'react';
import { fetchDownload } from '../../lib/api/client.ts';
import { format } from '../../lib/api/messages.ts';
import type { RequestData } from '../../lib/api/encode.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import { formatBytes, type ExportMessages } from './exportFile.ts';

interface Props {
  /** The export call (GET, the table call's fields flattened into the query). */
  url: string;
  /**
   * Read when the button is pressed, so the file holds exactly the rows the table shows then
   * (its fields, `antTable` included); undefined while the page cannot ask yet (the button is off).
   */
  data: () => RequestData | undefined;
  locale: Locale;
  messages: ExportMessages;
  disabled?: boolean;
  /** What the file will hold (e.g. the row cap), shown under the button while idle. */
  hint?: string;
}

type Phase =
  { state: 'idle' } | { state: 'busy'; received: number } | { state: 'done' } | { state: 'failed'; message: string };

/**
 * Export of a table as an .xlsx file through the request client's `fetchDownload`, which saves it
 * under the server's (localized) name: while it arrives the button says how much has come (polite
 * live region) and offers to cancel; a refusal (400 from a hand-edited address, 404 for an
 * institution out of scope) is shown here, beside the button, not as a toast that passes.
 * Leaving the page aborts the download.
 */
export default function ExportButton({ url, data, locale, messages, disabled = false, hint }: Props) {
  const [phase, setPhase] = useState<Phase>({ state: 'idle' });
  const controller = useRef<AbortController | null>(null);
  useEffect(() => () => controller.current?.abort(), []);

  const start = async () => {
    const fields = data();
    if (!fields) return;
    const abort = new AbortController();
    controller.current = abort;
    setPhase({ state: 'busy', received: 0 });
    let received = 0;
    const failure = await fetchDownload(url, fields, {
      quiet: true,
      signal: abort.signal,
      onProgress: (bytes) => {
        received = bytes;
        setPhase({ state: 'busy', received: bytes });
      },
    });
    controller.current = null;
    if (abort.signal.aborted) setPhase({ state: 'idle' });
    // Undefined is "saved" only when bytes came: a transport fault also resolves undefined, after
    // the request client's own notification, and must not read as a finished export.
    else if (failure === undefined) setPhase(received > 0 ? { state: 'done' } : { state: 'idle' });
    else
      setPhase({
        state: 'failed',
        message: failure.message
          ? format(messages['partner.export.failed'], { message: failure.message })
          : messages['partner.export.failedPlain'],
      });
  };

  const busy = phase.state === 'busy';
  return (
    <div className="grid justify-items-start gap-1">
      <div className="flex items-center gap-2">
        <button
          type="button"
          className="btn btn-sm btn-outline"
          disabled={disabled || busy}
          aria-busy={busy}
          onClick={() => void start()}
        >
          {busy && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
          {busy ? messages['partner.export.busy'] : messages['partner.export']}
        </button>
        {busy && (
          <button type="button" className="btn btn-sm btn-ghost" onClick={() => controller.current?.abort()}>
            {messages['partner.export.cancel']}
          </button>
        )}
      </div>
      <p role="status" className="min-h-5 text-xs text-base-content/70">
        {busy && phase.received > 0
          ? format(messages['partner.export.progress'], { size: formatBytes(phase.received, locale) })
          : ''}
        {phase.state === 'done' ? messages['partner.export.done'] : ''}
        {phase.state === 'idle' && hint ? hint : ''}
      </p>
      {phase.state === 'failed' && (
        <p role="alert" className="text-sm text-error">
          {phase.message}
        </p>
      )}
    </div>
  );
}
