/**
 * The content's limits that the studio's calls check too (src/lib/schemas/studio.ts): apart from
 * schemas.ts so that a studio call's schema does not bring every content schema with it
 * (docs/performance.md).
 */

/**
 * Longest Markdown field, in characters: far above any real document (the seed's longest is under
 * 500), and a bound on the renderer's work — marked's worst case grows with the square of the
 * length (20 000 characters of `_a_a…` take about a second).
 */
export const maxMarkdownLength = 20_000;
