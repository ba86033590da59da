import { useEffect, useState } from 'react';
import { OK } from '../../lib/apiCodes.ts';
import { previewDelayMs } from './markdownPreview.ts';
import { renderMarkdownPreview, type RenderedMarkdown } from '../../lib/api/studio.ts';

/** The answer for one source: the rendering, or why there is none (the server's message, or null after a transport fault). */
type Answer =
  { source: string; rendered: RenderedMarkdown } | { source: string; rendered?: undefined; error: string | null };

export interface MarkdownPreview {
  /** The newest rendering received (for an older source while `loading`); null before the first. */
  rendered: RenderedMarkdown | null;
  /** A newer source is being rendered. */
  loading: boolean;
  /** The call for the current source failed: the server's message, or null when it gave none. */
  failed: { message: string | null } | null;
}

/**
 * Renders a Markdown field through the studio's preview call (the site's own renderer, on the
 * server), once typing pauses. The latest source wins: a newer keystroke cancels the pending
 * call, and an answer is used only for the source it was asked for.
 */
export function useMarkdownPreview(source: string): MarkdownPreview {
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [shown, setShown] = useState<RenderedMarkdown | null>(null);
  const empty = source.trim() === '';

  useEffect(() => {
    if (empty) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      void renderMarkdownPreview(source, controller.signal).then((envelope) => {
        if (controller.signal.aborted) return;
        if (envelope?.code === OK) {
          setAnswer({ source, rendered: envelope.data });
          setShown(envelope.data);
        } else setAnswer({ source, error: envelope?.message ?? null });
      });
    }, previewDelayMs);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [source, empty]);

  if (empty) return { rendered: null, loading: false, failed: null };
  const current = answer?.source === source ? answer : null;
  return {
    rendered: current?.rendered ?? shown,
    loading: current === null,
    failed: current && current.rendered === undefined ? { message: current.error } : null,
  };
}
