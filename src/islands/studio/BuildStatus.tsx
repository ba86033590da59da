import { useEffect, useState } from 'react';
import type { Locale } from '../../lib/i18n/locales.ts';
import { formatChinaDateTime } from '../../lib/chinaTime.ts';
import { kindOfPath, titleOf } from '../../content/paths.ts';
import { countKey, phaseKey, previewPageUrl, progressOf } from './buildProgress.ts';
import { loadItem, type StudioBuildView, type RegionView } from '../../lib/api/studio.ts';
import { say, type StudioMessages } from '../../lib/studio/messages.ts';
import { OK } from '../../lib/apiCodes.ts';
import { regionPrefixes } from './buildProgress.ts';

interface Props {
  build: StudioBuildView;
  regions: readonly RegionView[];
  locale: Locale;
  messages: StudioMessages;
}

interface PreviewLink {
  href: string;
  title: string;
}

/** Pages of the items a preview carries (at most this many links). */
const previewLinkLimit = 12;

/**
 * One build as the editor follows it: its purpose and number, its step in words and a progress
 * bar while it runs; then the outcome — the preview's pages, "published", or the build's exact
 * error with the assurance that the public site has not changed. A live region announces each
 * change of step and the outcome once.
 */
export default function BuildStatus({ build, regions, locale, messages }: Props) {
  const progress = progressOf(build);
  const purpose = say(messages, build.purpose === 'publish' ? 'studio.build.publish' : 'studio.build.preview');
  const links = usePreviewLinks(build, regions);
  const tone =
    build.status === 'failed' ? 'border-error' : build.status === 'succeeded' ? 'border-success' : 'border-info';

  return (
    <section
      aria-labelledby={`build-${build.buildId}`}
      className={`rounded-box border-l-4 ${tone} bg-base-200 p-4`}
      data-build-status={build.status}
    >
      <h2 id={`build-${build.buildId}`} className="font-semibold">
        {say(messages, 'studio.build.title', { purpose, buildId: build.buildId })}
      </h2>
      {build.startedBy && (
        <p className="text-sm text-base-content/70">
          {say(messages, 'studio.build.startedBy', {
            name: build.startedBy,
            at: formatChinaDateTime(build.startedAt, locale),
          })}
        </p>
      )}
      <div role="status" aria-live="polite" className="mt-3 grid gap-2">
        {build.restarts > 0 && (
          <p className="text-sm" data-build-restarted>
            {say(messages, 'studio.build.restarted', { count: build.restarts })}
          </p>
        )}
        {build.status === 'running' && (
          <>
            <p>{say(messages, 'studio.build.phase', { phase: messages[phaseKey(build)] })}</p>
            <div className="flex items-center gap-3">
              <progress
                className="progress progress-info w-full max-w-md"
                aria-label={messages['studio.build.progress']}
                {...(progress ? { value: progress.done, max: progress.total } : {})}
              />
              {progress && (
                <span className="text-sm tabular-nums">
                  {say(messages, countKey(build), { done: progress.done, total: progress.total })}
                </span>
              )}
            </div>
          </>
        )}
        {build.status === 'succeeded' && build.purpose === 'publish' && (
          <p className="font-medium">
            <span className="badge badge-success mr-2">✓</span>
            {messages['studio.build.published']}
          </p>
        )}
        {build.status === 'succeeded' && build.purpose === 'preview' && (
          <>
            <p className="font-medium">
              <span className="badge badge-success mr-2">✓</span>
              {messages['studio.build.previewReady']}
            </p>
            <ul className="grid gap-1">
              {links.map((link) => (
                <li key={link.href}>
                  <a className="link link-primary" href={link.href} target="_blank" rel="noopener">
                    {say(messages, 'studio.build.openPreview', { title: link.title })}
                  </a>
                </li>
              ))}
              {build.previewUrl && (
                <li>
                  <a
                    className="link"
                    href={`${build.previewUrl.replace(/\/+$/, '')}/welcome/home`}
                    target="_blank"
                    rel="noopener"
                  >
                    {messages['studio.build.openPreviewHome']}
                  </a>
                </li>
              )}
            </ul>
          </>
        )}
        {build.status === 'failed' && (
          <div role="alert" className="grid gap-2">
            <p className="font-medium">{messages['studio.build.failed']}</p>
            {build.error && (
              <div>
                <p className="text-sm font-medium">{messages['studio.build.error']}</p>
                <pre
                  className="mt-1 max-h-60 overflow-auto rounded bg-base-100 p-3 text-sm whitespace-pre-wrap"
                  data-build-error
                >
                  {build.error}
                </pre>
              </div>
            )}
          </div>
        )}
      </div>
    </section>
  );
}

/** The preview address of each item a finished preview carries (items of region pages need their data for the address). */
function usePreviewLinks(build: StudioBuildView, regions: readonly RegionView[]): PreviewLink[] {
  const [links, setLinks] = useState<PreviewLink[]>([]);
  const { previewUrl, status, purpose, paths } = build;
  useEffect(() => {
    if (purpose !== 'preview' || status !== 'succeeded' || !previewUrl) return;
    let live = true;
    const prefixes = regionPrefixes(regions);
    void Promise.all(
      paths.slice(0, previewLinkLimit).map(async (path) => {
        const answer = await loadItem(path);
        const data = answer?.code === OK ? (answer.data.draft ?? answer.data.published) : undefined;
        const kind = kindOfPath(path)?.kind;
        return kind
          ? {
              href: previewPageUrl(previewUrl, path, data, prefixes),
              title: answer?.code === OK ? answer.data.title : titleOf(path, data),
            }
          : undefined;
      }),
    ).then((found) => {
      if (!live) return;
      const unique = new Map<string, PreviewLink>();
      for (const link of found) if (link && !unique.has(link.href)) unique.set(link.href, link);
      setLinks([...unique.values()]);
    });
    return () => {
      live = false;
    };
  }, [previewUrl, status, purpose, paths, regions]);
  return links;
}
