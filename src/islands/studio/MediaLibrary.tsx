import { useId, useRef, useState } from 'react';
import { OK } from '../../lib/apiCodes.ts';
import { formatChinaDateTime } from '../../lib/chinaTime.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import ConfirmDialog from '../ConfirmDialog.tsx';
import { LoadFailed, Loading } from '../LoadStatus.tsx';
import CardTable, { type CardColumn } from '../table/CardTable.tsx';
import { formatBytes } from '../table/exportFile.ts';
import { editUrl } from './studioLinks.ts';
import { deleteImage, loadImages, uploadImage, type LibraryImage } from '../../lib/api/studio.ts';
import { say, type StudioMessages } from '../../lib/studio/messages.ts';
import { useLoad } from './useLoad.ts';

interface Props {
  locale: Locale;
  messages: StudioMessages;
}

type Notice = { tone: 'success' | 'error'; text: string };

const readImages = async (): Promise<LibraryImage[] | undefined> => (await loadImages())?.images;

/**
 * The media library (/studio/media): every uploaded image — its web version as a thumbnail, file
 * name, size, who uploaded it and when — with the items that use it (published, in a draft, or
 * in an earlier publication kept for rollback), each a link to its editor. Upload goes through
 * the editor's own upload call and limits; delete asks first and is refused, with the items
 * named, while the image is used.
 */
export default function MediaLibrary({ locale, messages }: Props) {
  const { loaded, reload, setValue } = useLoad(readImages);
  const [percent, setPercent] = useState<number | null>(null);
  const [uploaded, setUploaded] = useState<Notice | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [target, setTarget] = useState<LibraryImage | null>(null);
  const [busy, setBusy] = useState(false);
  const noticeRef = useRef<HTMLDivElement>(null);
  const fileId = useId();
  const hintId = useId();

  if (loaded.state === 'loading') return <Loading label={messages['studio.loading']} />;
  if (loaded.state === 'failed')
    return (
      <LoadFailed message={messages['studio.loadFailed']} retryLabel={messages['studio.retry']} onRetry={reload} />
    );
  const images = loaded.value;

  const show = (next: Notice) => {
    setNotice(next);
    requestAnimationFrame(() => noticeRef.current?.focus());
  };

  const choose = async (file: File | undefined) => {
    if (!file) return;
    setUploaded(null);
    setPercent(0);
    const answer = await uploadImage(file, (progress) => setPercent(progress.percent));
    setPercent(null);
    if (!answer) return;
    if (answer.code !== OK) {
      const fieldError = (answer.data as { errors?: { message?: string }[] } | null)?.errors?.[0]?.message;
      setUploaded({ tone: 'error', text: fieldError ?? answer.message });
      return;
    }
    const { width, height, bytes } = answer.data;
    setUploaded({
      tone: 'success',
      text: say(messages, 'studio.media.uploaded', {
        fileName: file.name,
        width,
        height,
        size: formatBytes(bytes, locale),
      }),
    });
    reload();
  };

  const remove = async () => {
    if (!target) return;
    setBusy(true);
    const answer = await deleteImage(target.name);
    setBusy(false);
    const image = target;
    setTarget(null);
    if (!answer) return;
    if (answer.code !== OK) {
      show({ tone: 'error', text: answer.message });
      // The refusal names the items; the list shows them too, as they are now.
      reload();
      return;
    }
    setValue(images.filter((entry) => entry.name !== image.name));
    show({ tone: 'success', text: say(messages, 'studio.media.deleted', { fileName: image.fileName }) });
  };

  const columns: CardColumn<LibraryImage>[] = [
    {
      key: 'image',
      label: messages['studio.media.col.image'],
      render: (image) =>
        image.converted ? (
          <img
            src={image.url}
            alt={say(messages, 'studio.media.thumbAlt', { fileName: image.fileName })}
            loading="lazy"
            width={112}
            height={64}
            className="inline-block h-16 w-28 rounded border border-base-300 bg-base-200 object-cover"
          />
        ) : (
          <span className="inline-flex h-16 w-28 items-center rounded border border-dashed border-base-300 p-1 text-xs text-muted">
            {messages['studio.media.notConverted']}
          </span>
        ),
    },
    {
      key: 'file',
      label: messages['studio.media.col.file'],
      kind: 'key',
      render: (image) => (
        <>
          <span className="block font-medium wrap-anywhere">{image.fileName}</span>
          <span className="block text-xs text-muted">
            {say(messages, 'studio.media.size', {
              width: image.width,
              height: image.height,
              size: formatBytes(image.bytes, locale),
            })}
          </span>
          <code className="block text-xs wrap-anywhere">{image.url}</code>
        </>
      ),
    },
    {
      key: 'uploaded',
      label: messages['studio.media.col.uploaded'],
      className: 'text-sm',
      render: (image) =>
        say(messages, 'studio.at', {
          name: image.uploadedBy ?? messages['studio.history.system'],
          at: formatChinaDateTime(image.createdAt, locale),
        }),
    },
    {
      key: 'usage',
      label: messages['studio.media.col.usage'],
      render: (image) =>
        image.usedBy.length === 0 ? (
          <span className="text-sm text-muted">{messages['studio.media.unused']}</span>
        ) : (
          <ul className="grid gap-1 text-sm">
            {image.usedBy.map((use) => (
              <li key={use.path}>
                <a className="link" href={editUrl(locale, use.path)}>
                  {use.title}
                </a>
                <span className="text-muted">
                  {' '}
                  · {use.in.map((state) => messages[`studio.media.in.${state}`]).join(' · ')}
                </span>
              </li>
            ))}
          </ul>
        ),
    },
    {
      key: 'actions',
      label: messages['studio.items.col.actions'],
      kind: 'action',
      render: (image) => (
        <button
          type="button"
          className="btn btn-outline btn-error btn-sm"
          aria-label={say(messages, 'studio.media.deleteOf', { fileName: image.fileName })}
          onClick={() => setTarget(image)}
        >
          {messages['studio.media.delete']}
        </button>
      ),
    },
  ];

  return (
    <div className="grid gap-4">
      <div className="rounded-box bg-base-200 p-4">
        <label htmlFor={fileId} className="font-semibold">
          {messages['studio.edit.upload']}
        </label>
        <div className="mt-2 flex flex-wrap items-center gap-3">
          <input
            id={fileId}
            type="file"
            accept="image/jpeg,image/png,image/webp"
            className="file-input file-input-sm"
            aria-describedby={hintId}
            disabled={percent !== null}
            onChange={(event) => {
              void choose(event.target.files?.[0]);
              event.target.value = '';
            }}
          />
          <p
            role="status"
            aria-live="polite"
            className={`min-h-5 text-sm ${uploaded?.tone === 'error' ? 'text-error' : ''}`}
          >
            {percent !== null ? say(messages, 'studio.edit.uploading', { percent }) : (uploaded?.text ?? '')}
          </p>
        </div>
        <p id={hintId} className="mt-1 text-xs text-muted">
          {messages['studio.edit.imageHint']}
        </p>
      </div>

      <div ref={noticeRef} tabIndex={-1} className="outline-none" aria-live="polite">
        {notice && (
          <div
            role={notice.tone === 'error' ? 'alert' : 'status'}
            className={`alert ${notice.tone === 'error' ? 'alert-error' : 'alert-success'}`}
          >
            {notice.text}
          </div>
        )}
      </div>

      {images.length === 0 ? (
        <p className="rounded-box bg-base-200 p-4" data-media-empty>
          {messages['studio.media.empty']}
        </p>
      ) : (
        <CardTable
          caption={messages['studio.media.caption']}
          columns={columns}
          rows={images}
          rowKey={(image) => image.name}
          rowProps={(image) => ({ 'data-image': image.name })}
          rowHeaders
        />
      )}
      <ConfirmDialog
        open={target !== null}
        title={say(messages, 'studio.media.deleteTitle', { fileName: target?.fileName ?? '' })}
        body={messages['studio.media.deleteBody']}
        confirmLabel={messages['studio.media.delete']}
        cancelLabel={messages['studio.cancel']}
        busy={busy}
        onConfirm={() => void remove()}
        onCancel={() => setTarget(null)}
      />
    </div>
  );
}
