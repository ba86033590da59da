import { useEffect, useId, useRef, useState, type DragEvent } from 'react';
import { message } from '../../lib/api/notify.ts';
import { format } from '../../lib/api/messages.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import type { AuthFileData, AuthFileKindName } from '../../lib/schemas/enterprise.ts';
import ConfirmDialog from '../ConfirmDialog.tsx';
import { postForm } from '../auth/formCall.ts';
import type { CertifyMessages } from './certifyMessages.ts';
import { AUTH_FILE_ACCEPT, checkAuthFile, uploadAuthFile, type AuthFileProblem } from './authFileUpload.ts';
import { AUTH_FILE_DELETE_URL, fileSize, shownTime } from './enterpriseCalls.ts';

interface Props {
  kind: AuthFileKindName;
  file: AuthFileData | undefined;
  /** Upload, replace and delete are allowed (status 0 or 3). */
  editable: boolean;
  locale: Locale;
  messages: CertifyMessages;
  onChange: (kind: AuthFileKindName, file: AuthFileData | undefined) => void;
  /** An upload of this kind started (true) or ended, whatever its outcome (false). */
  onUploading?: (kind: AuthFileKindName, active: boolean) => void;
}

const problemKeys = {
  empty: 'certify.files.emptyFile',
  tooLarge: 'certify.files.tooLarge',
  badType: 'certify.files.badType',
} as const satisfies Record<AuthFileProblem, keyof CertifyMessages>;

type Upload = { name: string; percent: number };

/**
 * One certification document: what is uploaded (with a link to view it), and a drop zone with a
 * file button to upload or replace it. The file is checked (size, type by content) before it is
 * sent; the bar shows the bytes sent as they leave the browser.
 */
export default function AuthFileSlot({ kind, file, editable, locale, messages: m, onChange, onUploading }: Props) {
  const inputRef = useRef<HTMLInputElement>(null);
  const abortRef = useRef<AbortController | null>(null);
  const headingId = useId();
  const errorId = useId();
  const [uploading, setUploading] = useState<Upload | null>(null);
  const [error, setError] = useState('');
  const [dragging, setDragging] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const kindName = m[`certify.files.kind.${kind}`];

  // Leaving the page mid-upload abandons the request instead of finishing it unseen.
  useEffect(() => () => abortRef.current?.abort(), []);

  const send = async (chosen: File) => {
    setError('');
    const problem = await checkAuthFile(chosen);
    if (problem) {
      setError(m[problemKeys[problem]]);
      return;
    }
    const controller = new AbortController();
    abortRef.current = controller;
    setUploading({ name: chosen.name, percent: 0 });
    onUploading?.(kind, true);
    const outcome = await uploadAuthFile<AuthFileData>(
      kind,
      chosen,
      (progress) => setUploading({ name: chosen.name, percent: progress.percent }),
      controller.signal,
    );
    abortRef.current = null;
    setUploading(null);
    if (outcome?.ok) {
      message.success(format(m['certify.files.uploaded'], { kind: kindName }));
      onChange(kind, outcome.data);
    } else if (outcome) {
      setError(outcome.message);
    }
    onUploading?.(kind, false);
  };

  const pick = (files: FileList | null) => {
    if (!files || files.length === 0) return;
    if (files.length > 1) {
      setError(m['certify.files.oneFile']);
      return;
    }
    const [chosen] = files;
    if (chosen) void send(chosen);
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    if (!editable || uploading) return;
    pick(event.dataTransfer.files);
  };

  const remove = async () => {
    if (!file) return;
    setDeleting(true);
    const answer = await postForm<Record<string, never>>(AUTH_FILE_DELETE_URL, { id: file.id });
    setDeleting(false);
    setConfirming(false);
    if (answer?.ok) {
      message.success(m['certify.files.deleted']);
      onChange(kind, undefined);
    }
  };

  return (
    <section className="rounded-box border border-base-300 p-4" aria-labelledby={headingId}>
      <h3 id={headingId} className="font-semibold">
        {kindName}
      </h3>
      {file ? (
        <div className="mt-2 text-sm">
          <p className="break-all">
            {file.originalName} · {fileSize(file.size, locale)}
          </p>
          <p className="text-xs text-muted">
            {format(m['certify.files.uploadedAt'], { time: shownTime(file.createdAt, locale, m) })}
          </p>
          <div className="mt-2 flex flex-wrap gap-2">
            <a className="btn btn-ghost btn-xs" href={file.url} target="_blank" rel="noopener">
              {format(m['certify.files.view'], { kind: kindName })}
            </a>
            {editable && (
              <button
                type="button"
                className="btn btn-ghost btn-xs text-error"
                onClick={() => setConfirming(true)}
                disabled={uploading !== null}
              >
                {format(m['certify.files.delete'], { kind: kindName })}
              </button>
            )}
          </div>
        </div>
      ) : (
        <p className="mt-2 text-sm text-base-content/70">{m['certify.files.missing']}</p>
      )}

      {editable && (
        <div
          className={`mt-3 rounded-box border-2 border-dashed p-4 text-center text-sm ${dragging ? 'border-primary bg-primary/5' : 'border-base-300'}`}
          onDragOver={(event) => {
            event.preventDefault();
            if (!dragging) setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
        >
          {uploading ? (
            <div>
              {/* Announced once; the bar carries the moving number, so a screen reader is not read every percent. */}
              <p role="status" className="break-all">
                {format(m['certify.files.uploading'], { name: uploading.name })}
              </p>
              <div className="mt-2 flex items-center gap-2">
                <progress
                  className="progress progress-primary w-full"
                  value={uploading.percent}
                  max={100}
                  aria-label={format(m['certify.files.progress'], { kind: kindName })}
                />
                <span className="w-10 text-right tabular-nums" aria-hidden="true">
                  {uploading.percent}%
                </span>
              </div>
              <button type="button" className="btn btn-ghost btn-xs mt-2" onClick={() => abortRef.current?.abort()}>
                {format(m['certify.files.cancelUpload'], { kind: kindName })}
              </button>
            </div>
          ) : (
            <>
              <p>
                {m['certify.files.drop']}{' '}
                <button
                  type="button"
                  className="btn btn-primary btn-sm"
                  onClick={() => inputRef.current?.click()}
                  aria-describedby={error ? errorId : undefined}
                >
                  {format(file ? m['certify.files.replace'] : m['certify.files.choose'], { kind: kindName })}
                </button>
              </p>
              <p className="mt-1 text-xs text-muted">{m['certify.files.rules']}</p>
            </>
          )}
          <input
            ref={inputRef}
            type="file"
            className="hidden"
            accept={AUTH_FILE_ACCEPT}
            tabIndex={-1}
            aria-hidden="true"
            onChange={(event) => {
              pick(event.currentTarget.files);
              // The same file chosen again after a failure must fire a change again.
              event.currentTarget.value = '';
            }}
          />
        </div>
      )}
      {error && (
        <p id={errorId} role="alert" className="mt-2 text-sm text-error">
          {error}
        </p>
      )}

      <ConfirmDialog
        open={confirming}
        title={m['certify.files.deleteTitle']}
        body={format(m['certify.files.deleteBody'], { kind: kindName, name: file?.originalName ?? '' })}
        confirmLabel={format(m['certify.files.delete'], { kind: kindName })}
        cancelLabel={m['certify.common.cancel']}
        busy={deleting}
        onConfirm={() => void remove()}
        onCancel={() => setConfirming(false)}
      />
    </section>
  );
}
