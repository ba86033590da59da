/**
 * The empty state's look, shared by its two renderings (src/components/site/EmptyState.astro on
 * static pages, src/islands/EmptyState.tsx in islands): a small drawing — an empty tray, a blank
 * sheet above it and the brand's bolt — then a sentence and at most one action. Paths in a 64×48
 * box, coloured by classes (no style attribute: the pages' CSP refuses inline styles).
 */
export const emptyArt = {
  viewBox: '0 0 64 48',
  /** The tray, open at the top. */
  tray: 'M6 30h14l4 6h16l4-6h14v14H6z',
  /** A blank sheet waiting above the tray. */
  sheet: 'M20 4h24v24H20zM25 11h14M25 16h10',
  /** The bolt on the sheet. */
  bolt: 'M35 18l-5 7h4l-2 5 6-8h-4l2-4z',
} as const;

/** The frame around an empty list: dashed, tinted, centred. */
export const emptyFrameClass =
  'rounded-box border border-dashed border-base-300 bg-base-200/50 px-6 py-8 text-center text-base-content';
