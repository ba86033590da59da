/**
 * How a running or finished build reads to an editor: its step in words, its progress as a
 * share of its work, and where its preview opens. Pure, so the progress panel and the tests
 * agree on it.
 */
import { pageOfItem, type RegionPrefixes } from '../../content/paths.ts';
import type { StudioBuildView, RegionView } from '../../lib/api/studio.ts';

/** The dictionary key of the build's current step (`studio.phase.*`). */
export function phaseKey(
  build: Pick<StudioBuildView, 'phase'>,
): `studio.phase.${NonNullable<StudioBuildView['phase']> | 'queued'}` {
  return `studio.phase.${build.phase ?? 'queued'}`;
}

/** The dictionary key that counts a step's work in its unit (pages, files, servers); the search index counts pages too. */
export function countKey(
  build: Pick<StudioBuildView, 'phase'>,
): 'studio.build.count' | `studio.build.count.${'build' | 'compress' | 'upload' | 'stage'}` {
  const phase = build.phase;
  if (phase === 'index') return 'studio.build.count.build';
  return phase === 'build' || phase === 'compress' || phase === 'upload' || phase === 'stage'
    ? `studio.build.count.${phase}`
    : 'studio.build.count';
}

/** Done and total when the build reports them (0–100 %), else undefined: the bar then shows activity only. */
export function progressOf(
  build: Pick<StudioBuildView, 'progressDone' | 'progressTotal'>,
): { done: number; total: number; percent: number } | undefined {
  const { progressDone: done, progressTotal: total } = build;
  if (done === null || total === null || !(total > 0)) return undefined;
  const bounded = Math.min(Math.max(done, 0), total);
  return { done: bounded, total, percent: Math.floor((bounded / total) * 100) };
}

export function regionPrefixes(regions: readonly RegionView[]): RegionPrefixes {
  return Object.fromEntries(regions.map((region) => [region.areaCode, region.prefix]));
}

/** The preview address of an item's page in a preview build (`/studio-preview/7/infomation/detail/x`). */
export function previewPageUrl(previewUrl: string, path: string, data: unknown, prefixes: RegionPrefixes): string {
  return `${previewUrl.replace(/\/+$/, '')}${pageOfItem(path, data, prefixes)}`;
}
