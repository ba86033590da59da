/**
 * The difference between two versions of an item, as an editor reads it: both written as their
 * file text (YAML, or front matter + Markdown: kinds.ts fileTextOf) and compared line by line
 * (the `diff` package, Myers' algorithm).
 */
import { diffLines } from 'diff';
import type { ContentKind } from '../../content/paths.ts';
import { fileTextOf } from '../../content/files.ts';

export type DiffLine = { change: 'added' | 'removed' | 'same'; text: string };

export interface VersionDiff {
  lines: DiffLine[];
  added: number;
  removed: number;
}

/** The file text of a version; an absent version (deleted, or no draft) is empty. */
export function versionText(kind: ContentKind, data: unknown): string {
  return data === null || data === undefined ? '' : fileTextOf(kind, data);
}

export function versionDiff(kind: ContentKind, from: unknown, to: unknown): VersionDiff {
  const lines: DiffLine[] = [];
  let added = 0;
  let removed = 0;
  for (const part of diffLines(versionText(kind, from), versionText(kind, to))) {
    const change = part.added ? 'added' : part.removed ? 'removed' : 'same';
    const texts = part.value.replace(/\n$/, '').split('\n');
    if (change === 'added') added += texts.length;
    if (change === 'removed') removed += texts.length;
    for (const text of texts) lines.push({ change, text });
  }
  return { lines, added, removed };
}
