import { useId, useRef, useState, type SubmitEvent } from 'react';
import { BAD_REQUEST, OK, SESSION_EXPIRED } from '../../lib/apiCodes.ts';
import { upload } from '../../lib/api/client.ts';
import { format } from '../../lib/api/messages.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import { formatCount } from '../../lib/i18n/plural.ts';
import type { ImportRejection, ImportResultData } from '../../lib/schemas/partner.ts';
import { serverFieldErrors } from '../auth/formValidation.ts';
import {
  IMPORT_URL,
  TEMPLATE_URL,
  fileProblem,
  maxImportBytes,
  shownRejections,
  type SettlementImportMessages,
} from './settlementImport.ts';

interface Props {
  locale: Locale;
  messages: SettlementImportMessages;
}

type Phase =
  | { state: 'idle' }
  | { state: 'sending'; percent: number }
  | { state: 'imported'; result: ImportResultData }
  | { state: 'rejected'; rejected: ImportRejection[] }
  | { state: 'failed'; message: string };

function isImportResult(data: unknown): data is ImportResultData {
  return typeof data === 'object' && data !== null && Array.isArray((data as ImportResultData).rejected);
}

/**
 * The operator uploads a month's settlement results (CSV or .xlsx, docs/partner.md): the upload
 * shows its progress, then either what was written (rows, months) or, when any row is wrong, the
 * report of every rejected row as a table — the server then wrote nothing, so the corrected file
 * is simply sent again. Both templates are plain downloads.
 */
export default function SettlementImport({ locale, messages }: Props) {
  const id = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const resultRef = useRef<HTMLDivElement>(null);
  const [phase, setPhase] = useState<Phase>({ state: 'idle' });
  const [fileError, setFileError] = useState('');
  const numbers = new Intl.NumberFormat(locale);

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const file = fileInput.current?.files?.[0];
    const problem = fileProblem(file);
    if (problem || !file) {
      setFileError(format(messages[`settlement.import.${problem ?? 'noFile'}`], { size: '5 MB' }));
      fileInput.current?.focus();
      return;
    }
    setFileError('');
    setPhase({ state: 'sending', percent: 0 });
    const answer = await upload<ImportResultData>(
      IMPORT_URL,
      { file },
      {
        quiet: true,
        onProgress: (progress) => setPhase({ state: 'sending', percent: progress.percent }),
      },
    );
    if (!answer || answer.code === SESSION_EXPIRED) {
      setPhase({ state: 'idle' });
      return;
    }
    if (answer.code === OK && isImportResult(answer.data)) setPhase({ state: 'imported', result: answer.data });
    else if (answer.code === BAD_REQUEST && isImportResult(answer.data) && answer.data.rejected.length > 0)
      setPhase({ state: 'rejected', rejected: answer.data.rejected });
    else if (serverFieldErrors(answer)['file']) {
      // A file the server cannot read at all (not a spreadsheet, no header): said at the field.
      setPhase({ state: 'idle' });
      setFileError(serverFieldErrors(answer)['file'] ?? answer.message);
      fileInput.current?.focus();
      return;
    } else setPhase({ state: 'failed', message: answer.message });
    // The outcome is the next thing to read: move there (it is announced by its role as well).
    requestAnimationFrame(() => resultRef.current?.focus());
  };

  const sending = phase.state === 'sending';
  return (
    <div className="grid gap-6">
      <p className="text-sm text-base-content/80">{messages['settlement.import.intro']}</p>
      <form className="grid justify-items-start gap-3" onSubmit={(event) => void submit(event)} noValidate>
        <div className="fieldset py-0">
          <label htmlFor={`${id}-file`} className="fieldset-legend pb-1 text-sm">
            {messages['settlement.import.file']}
          </label>
          <input
            ref={fileInput}
            id={`${id}-file`}
            name="file"
            type="file"
            accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            className={`file-input file-input-sm w-96 max-w-full ${fileError ? 'file-input-error' : ''}`}
            aria-invalid={fileError ? true : undefined}
            aria-describedby={`${id}-file-${fileError ? 'error' : 'hint'}`}
            disabled={sending}
            onChange={() => setFileError('')}
          />
          {fileError ? (
            <p id={`${id}-file-error`} className="label text-xs whitespace-normal text-error">
              {fileError}
            </p>
          ) : (
            <p id={`${id}-file-hint`} className="label text-xs whitespace-normal">
              {format(messages['settlement.import.fileHint'], { size: `${maxImportBytes / 1024 / 1024} MB` })}
            </p>
          )}
        </div>
        <button type="submit" className="btn btn-primary btn-sm" disabled={sending} aria-busy={sending}>
          {sending && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
          {sending ? messages['settlement.import.busy'] : messages['settlement.import.submit']}
        </button>
        {sending && (
          <div className="grid w-96 max-w-full gap-1">
            <progress
              className="progress progress-primary w-full"
              max={100}
              value={phase.percent}
              aria-labelledby={`${id}-progress`}
            />
            <p id={`${id}-progress`} role="status" className="text-xs text-base-content/70">
              {phase.percent >= 100
                ? messages['settlement.import.processing']
                : format(messages['settlement.import.progress'], { percent: phase.percent })}
            </p>
          </div>
        )}
      </form>

      <div ref={resultRef} tabIndex={-1} className="outline-none">
        {phase.state === 'imported' && (
          <div role="status" className="alert alert-success grid justify-items-start gap-1">
            <p>{format(messages['settlement.import.success'], { rows: numbers.format(phase.result.imported) })}</p>
            {phase.result.months.length > 0 && (
              <p className="text-sm">
                {format(messages['settlement.import.months'], { months: phase.result.months.join('、') })}
              </p>
            )}
          </div>
        )}
        {phase.state === 'failed' && (
          <p role="alert" className="alert alert-error">
            {format(messages['settlement.import.failed'], { message: phase.message })}
          </p>
        )}
        {phase.state === 'rejected' && (
          <div className="grid gap-2">
            <p role="alert" className="alert alert-error">
              {formatCount(messages, 'settlement.import.rejected', locale, phase.rejected.length)}
            </p>
            {/* Focusable and named: a keyboard scrolls the report when it is longer or wider than its box. */}
            <div
              className="max-h-[60vh] overflow-auto rounded-box border border-base-300"
              tabIndex={0}
              role="region"
              aria-label={formatCount(messages, 'settlement.import.rejected', locale, phase.rejected.length)}
            >
              <table className="table table-sm table-pin-rows">
                <caption className="sr-only">
                  {formatCount(messages, 'settlement.import.rejected', locale, phase.rejected.length)}
                </caption>
                <thead>
                  <tr>
                    <th scope="col" className="text-end">
                      {messages['settlement.import.col.row']}
                    </th>
                    <th scope="col">{messages['settlement.import.col.column']}</th>
                    <th scope="col">{messages['settlement.import.col.message']}</th>
                  </tr>
                </thead>
                <tbody>
                  {phase.rejected.slice(0, shownRejections).map((rejection, index) => (
                    <tr key={`${rejection.row}-${rejection.column}-${index}`}>
                      <td className="text-end tabular-nums">{rejection.row}</td>
                      <td className="whitespace-nowrap">{rejection.column || '-'}</td>
                      <td>{rejection.message}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            {phase.rejected.length > shownRejections && (
              <p className="text-sm text-base-content/70">
                {format(messages['settlement.import.rejectedMore'], {
                  shown: numbers.format(shownRejections),
                  count: numbers.format(phase.rejected.length),
                })}
              </p>
            )}
          </div>
        )}
      </div>

      <section aria-labelledby={`${id}-templates`} className="grid justify-items-start gap-2">
        <h2 id={`${id}-templates`} className="font-semibold">
          {messages['settlement.import.templates']}
        </h2>
        <div className="flex flex-wrap gap-2">
          <a className="btn btn-outline btn-sm" href={`${TEMPLATE_URL}?format=csv`} download>
            {messages['settlement.import.templateCsv']}
          </a>
          <a className="btn btn-outline btn-sm" href={`${TEMPLATE_URL}?format=xlsx`} download>
            {messages['settlement.import.templateXlsx']}
          </a>
        </div>
      </section>
    </div>
  );
}
