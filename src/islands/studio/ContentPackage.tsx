import { useId, useState, type SubmitEvent } from 'react';
import type { Locale } from '../../lib/i18n/locales.ts';
import ExportButton from '../table/ExportButton.tsx';
import type { ExportMessages } from '../table/exportFile.ts';
import { importContent, STUDIO_API } from '../../lib/api/studio.ts';
import { say, type StudioMessages } from '../../lib/studio/messages.ts';

interface Props {
  locale: Locale;
  messages: StudioMessages;
  exportMessages: ExportMessages;
  /** After an import: the overview's counts change. */
  onImported: () => void;
}

type ImportPhase =
  { state: 'idle' } | { state: 'busy' } | { state: 'done'; text: string } | { state: 'failed'; text: string };

/**
 * The content as files (docs/editing-content.md, 导入与导出): export every item as a .zip of
 * content files (the shared export button: progress, cancel, refusals beside it), optionally with
 * the drafts; import such a package, whose changed files become drafts — or, when one file is bad,
 * nothing, with the server's message naming the file and field.
 */
export default function ContentPackage({ locale, messages, exportMessages, onImported }: Props) {
  const [withDrafts, setWithDrafts] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const [phase, setPhase] = useState<ImportPhase>({ state: 'idle' });
  const fileId = useId();
  const draftsId = useId();

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!file) {
      setPhase({ state: 'failed', text: messages['studio.package.chooseFile'] });
      return;
    }
    setPhase({ state: 'busy' });
    const answer = await importContent(file);
    if (answer?.code === 200) {
      setPhase({
        state: 'done',
        text: say(messages, 'studio.package.imported', {
          changed: answer.data.changed,
          unchanged: answer.data.unchanged,
        }),
      });
      onImported();
    } else {
      setPhase({ state: 'failed', text: say(messages, 'studio.package.failed', { message: answer?.message ?? '' }) });
    }
  };

  return (
    <section aria-labelledby="studio-package" className="rounded-box bg-base-200 p-4">
      <h2 id="studio-package" className="font-semibold">
        {messages['studio.package.title']}
      </h2>
      <p className="mt-1 text-sm text-muted">{messages['studio.package.lead']}</p>
      <div className="mt-3 flex flex-wrap items-start gap-6">
        <div className="grid gap-2">
          <label htmlFor={draftsId} className="flex items-center gap-2 text-sm">
            <input
              id={draftsId}
              type="checkbox"
              className="checkbox checkbox-sm"
              checked={withDrafts}
              onChange={(event) => setWithDrafts(event.target.checked)}
            />
            {messages['studio.package.withDrafts']}
          </label>
          <ExportButton
            url={`${STUDIO_API}/export`}
            data={() => (withDrafts ? { drafts: '1' } : {})}
            locale={locale}
            messages={exportMessages}
          />
        </div>
        <form className="grid gap-2" onSubmit={(event) => void submit(event)}>
          <label htmlFor={fileId} className="text-sm">
            {messages['studio.package.file']}
          </label>
          <div className="flex flex-wrap items-center gap-2">
            <input
              id={fileId}
              type="file"
              accept=".zip,application/zip"
              className="file-input file-input-sm"
              onChange={(event) => {
                setFile(event.target.files?.[0] ?? null);
                setPhase({ state: 'idle' });
              }}
            />
            <button type="submit" className="btn btn-sm" disabled={phase.state === 'busy'}>
              {phase.state === 'busy' ? messages['studio.package.importing'] : messages['studio.package.import']}
            </button>
          </div>
          <p role="status" aria-live="polite" className={phase.state === 'failed' ? 'text-sm text-error' : 'text-sm'}>
            {phase.state === 'done' || phase.state === 'failed' ? phase.text : ''}
          </p>
        </form>
      </div>
    </section>
  );
}
