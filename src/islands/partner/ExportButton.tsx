import { useRef, useState } from 'react';
import { OK } from '../../lib/apiCodes.ts';
import { fetchDownload } from '../../lib/api/client.ts';
import { format } from '../../lib/api/messages.ts';
import type { RequestData } from '../../lib/api/encode.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import { formatBytes, type ExportMessages } from './exportFile.ts';

interface Props {
  /** The export call (GET, the table's fields flattened into the query). */
  url: string;
  /** Read when the button is pressed, so the file has exactly the rows the table shows now. */
  data: () => RequestData;
  locale: Locale;
  messages: ExportMessages;
  disabled?: boolean;
  /** What the file will hold (e.g. the row cap), shown under the button. */
  hint?: string;
}

type Phase = { state: 'idle' } | { state: 'busy'; received: number } | { state: 'done' } | { state: 'failed'; message: string };

/**
 * Export of a table as an .xlsx file through the request client's `fetchDownload`: the file is
 * saved under the server's name; while it arrives the button says how much has come (polite live
 * region) and offers to cancel; a refusal (400 from a hand-edited address, 404 for an institution
 * out of scope) is shown here, beside the button, not as a toast that passes.
 */
export default function ExportButton({ url, data, locale, messages, disabled = false, hint }: Props) {
  const [phase, setPhase] = useState<Phase>({ state: 'idle' });
  const controller = useRef<AbortController | null>(null);

  const start = async () => {
    const abort = new AbortController();
    controller.current = abort;
    setPhase({ state: 'busy', received: 0 });
    const failure = await fetchDownload(url, data(), {
      quiet: true,
      signal: abort.signal,
      onProgress: (received) => setPhase({ state: 'busy', received }),
    });
    controller.current = null;
    if (abort.signal.aborted) setPhase({ state: 'idle' });
    else if (failure === undefined) setPhase({ state: 'done' });
    else if (failure.code === OK) setPhase({ state: 'done' });
    else setPhase({ state: 'failed', message: format(messages['settlement.export.failed'], { message: failure.message }) });
  };

  const busy = phase.state === 'busy';
  return (
    <div className="grid justify-items-start gap-1">
      <div className="flex items-center gap-2">
        <button type="button" className="btn btn-sm btn-outline" disabled={disabled || busy} aria-busy={busy} onClick={() => void start()}>
          {busy && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
          {busy ? messages['settlement.export.busy'] : messages['settlement.export']}
        </button>
        {busy && (
          <button type="button" className="btn btn-sm btn-ghost" onClick={() => controller.current?.abort()}>
            {messages['settlement.export.cancel']}
          </button>
        )}
      </div>
      <p role="status" className="min-h-5 text-xs text-base-content/70">
        {busy && phase.received > 0 ? format(messages['settlement.export.progress'], { size: formatBytes(phase.received, locale) }) : ''}
        {phase.state === 'done' ? messages['settlement.export.done'] : ''}
        {phase.state === 'idle' && hint ? hint : ''}
      </p>
      {phase.state === 'failed' && (
        <p role="alert" className="text-sm text-error">{phase.message}</p>
      )}
    </div>
  );
}
